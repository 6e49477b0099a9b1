import Foundation
import Ingest
import MediaFixtures
import Testing

@testable import Transcode

/// Measures the provisional step against the ladder (issue 64), as the job runs them: admission, the provisional
/// rendition, then the ladder. Off unless `REEL_PLAYABLE_BENCH` names clips (colon-separated); prints one line per
/// clip. `REEL_PLAYABLE_X264` sets the first rung's x264 preset; `REEL_PLAYABLE_LADDER=0` skips the ladder.
@Suite(
    .timeLimit(.minutes(60)), .enabled(if: ProcessInfo.processInfo.environment["REEL_PLAYABLE_BENCH"] != nil))
struct PlayableBenchTests {
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    @Test func provisionalStepAgainstTheLadder() throws {
        let environment = ProcessInfo.processInfo.environment
        let clips = (environment["REEL_PLAYABLE_BENCH"] ?? "").split(separator: ":").map(String.init)
        let x264 = environment["REEL_PLAYABLE_X264"] ?? "superfast"
        let runsLadder = environment["REEL_PLAYABLE_LADDER"] != "0"
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let preset = try LadderPreset.load(from: root.appendingPathComponent("Presets/ladder.json").path)
        for clip in clips {
            let directory = try TemporaryDirectory()
            let started = Date()
            let cpu0 = Self.cpuSeconds()
            let admitted = try AdmissionPolicy().admitVideo(path: clip)
            var readyAt: Double?
            let cpu1 = Self.cpuSeconds()
            let report = try PlayableTranscoder(preset: preset, firstRungX264Preset: x264).run(
                admitted, into: directory.file("playable")
            ) { _ in
                if readyAt == nil { readyAt = Date().timeIntervalSince(started) }
            }
            let provisionalWall = Date().timeIntervalSince(started)
            let cpu2 = Self.cpuSeconds()
            var ladderCPU = 0.0, ladderWall = 0.0
            if runsLadder {
                let ladderStarted = Date()
                _ = try LadderTranscoder(preset: preset).run(admitted, output: directory.file("media"))
                ladderWall = Date().timeIntervalSince(ladderStarted)
                ladderCPU = Self.cpuSeconds() - cpu2
            }
            let rendition = report.renditions[0]
            // What the whole-file loudness reading costs alone (the first rung waits for it before its first frame).
            let loudnessStarted = Date()
            let cpu3 = Self.cpuSeconds()
            _ = try LadderTranscoder.planLoudness(
                admitted, audioIndex: try LadderTranscoder.openStreams(admitted).audio, preset: preset,
                bitratesKbps: [preset.rungs[0].audioBitrateKbps])
            let loudnessWall = Date().timeIntervalSince(loudnessStarted)
            let loudnessCPU = Self.cpuSeconds() - cpu3
            func f(_ value: Double) -> String { String(format: "%.2f", value) }
            let name = (clip as NSString).lastPathComponent
            let line =
                "bench \(name): mode \(report.mode.rawValue) (\(report.reason?.rawValue ?? "-")) \(rendition.id) "
                + "\(rendition.width)x\(rendition.height), \(f(report.durationSeconds)) s; admission "
                + "\(f(cpu1 - cpu0)) CPU-s; playable.json at \(f(readyAt ?? -1)) s; provisional done at "
                + "\(f(provisionalWall)) s, \(f(cpu2 - cpu1)) CPU-s; ladder \(f(ladderWall)) s, \(f(ladderCPU)) CPU-s; "
                + "provisional/ladder CPU \(f(ladderCPU > 0 ? (cpu2 - cpu1) / ladderCPU : 0)); x264 \(x264); "
                + "loudness reading alone \(f(loudnessWall)) s, \(f(loudnessCPU)) CPU-s"
            print(line)
        }
    }
}
