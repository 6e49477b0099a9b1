import Foundation
import Ingest
import MediaFixtures
import Synchronization
import Testing

@testable import Transcode

/// Measures the provisional step against the ladder (issue 64), as the job runs them: admission, the provisional
/// rendition, then the ladder. Off unless `REEL_PLAYABLE_BENCH` names clips (colon-separated); prints one line per
/// clip. `REEL_PLAYABLE_X264` sets the first rung's x264 preset; `REEL_PLAYABLE_LADDER=0` skips the ladder;
/// `REEL_PLAYABLE_CONCURRENT=1` runs the provisional step on a thread of its own beside the ladder instead.
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
        if environment["REEL_PLAYABLE_CONCURRENT"] == "1" {
            for clip in clips { try concurrently(clip, preset: preset, x264: x264) }
            return
        }
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
            // What the whole-file loudness reading costs alone (the ladder makes it; the first rung reads 10 s).
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

    /// The provisional step on a thread of its own while the ladder runs: when playable.json comes, and the whole.
    func concurrently(_ clip: String, preset: LadderPreset, x264: String) throws {
        let directory = try TemporaryDirectory()
        let started = Date()
        let cpu0 = Self.cpuSeconds()
        let admitted = try AdmissionPolicy().admitVideo(path: clip)
        let times = Mutex<(ready: Double?, done: Double?)>((nil, nil))
        let output = directory.file("playable")
        let thread = Thread {
            _ = try? PlayableTranscoder(preset: preset, firstRungX264Preset: x264).run(admitted, into: output) { _ in
                times.withLock { if $0.ready == nil { $0.ready = Date().timeIntervalSince(started) } }
            }
            times.withLock { $0.done = Date().timeIntervalSince(started) }
        }
        thread.start()
        _ = try LadderTranscoder(preset: preset).run(admitted, output: directory.file("media"))
        let ladderDone = Date().timeIntervalSince(started)
        while times.withLock({ $0.done == nil }) { usleep(10_000) }
        let (ready, done) = times.withLock { ($0.ready ?? -1, $0.done ?? -1) }
        func f(_ value: Double) -> String { String(format: "%.2f", value) }
        print(
            "bench concurrent \((clip as NSString).lastPathComponent): playable.json at \(f(ready)) s, provisional done "
                + "at \(f(done)) s, ladder done at \(f(ladderDone)) s, all \(f(max(done, ladderDone))) s, "
                + "\(f(Self.cpuSeconds() - cpu0)) CPU-s")
    }
}
