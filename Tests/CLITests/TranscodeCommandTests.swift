import Deadlines
import Foundation
import MediaFixtures
import TestTraits
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `reel transcode` as a real process: what its JSON summary and text report say about the storyboard.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct TranscodeCommandTests {
    @Test func theJSONSummaryNamesTheStoryboardFilesAndGrid() async throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        try SyntheticVideo(width: 180, height: 320, seconds: 3).write(to: clip)
        let output = directory.file("ladder")
        let result = try await ReelProcess.run(["transcode", clip, "--output", output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let last = try #require(result.stdout.split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let storyboard = try #require(summary["storyboard"] as? [String: Any], "\(summary)")
        #expect(storyboard["vtt"] as? String == "storyboard.vtt" && storyboard["image"] as? String == "storyboard.webp")
        // 3 s at one per second; a 180x320 source is one 180x320 rung, whose tiles are 160x284.
        #expect(
            storyboard["count"] as? Int == 3 && storyboard["columns"] as? Int == 3
                && storyboard["interval_seconds"] as? Int == 1)
        #expect(storyboard["tile_width"] as? Int == 160 && storyboard["tile_height"] as? Int == 284)
        for name in ["storyboard.vtt", "storyboard.webp"] {
            #expect(FileManager.default.fileExists(atPath: output + "/" + name), "\(name) is missing")
        }
    }

    @Test func theTextReportHasAStoryboardLine() async throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 2).write(to: clip)
        let result = try await ReelProcess.run(["transcode", clip, "--output", directory.file("ladder")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains(
                "  storyboard: 2 thumbnails every 1 s, 160x90 in 2 columns: storyboard.webp, storyboard.vtt"),
            "\(result.stdout)")
    }

    /// `reel transcode` of a 480x270 clip showing `content` with a content-aware preset of uncapped 1 s GOP rungs
    /// (`rungs`: their JSON, whose `crf` is 28): the text report.
    func transcodeContentAware(_ content: SyntheticVideo.Content, seconds: Double, rungs: String) async throws -> String
    {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        var video = SyntheticVideo(width: 480, height: 270, seconds: seconds)
        video.content = content
        video.quality = 18
        try video.write(to: clip)
        let preset = directory.file("ladder.json")
        try Data(
            #"""
            {"segment_seconds": 2, "keyframe_interval_seconds": 1,
             "content_aware": {"enabled": true, "samples": 2, "sample_seconds": 1, "max_crf_raise": 8,
                               "max_ssim_drop": 0.0025, "codec_ssim_margin": 0},
             "rungs": \#(rungs), "poster": {"rung": "270p"}}
            """#.utf8
        ).write(to: URL(fileURLWithPath: preset))
        let result = try await ReelProcess.run([
            "transcode", clip, "--output", directory.file("ladder"), "--ladder", preset,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// Noise, with caps far above what it needs, on rungs whose target SSIM-Y it misses even at their own CRF: the
    /// first probes show that, and the text report says that the analysis stopped there, why, and what it measured.
    @Test func theTextReportSaysWhyContentAwareRatesStoppedAfterTheFirstProbes() async throws {
        let stdout = try await transcodeContentAware(
            .noise, seconds: 3,
            rungs: #"""
                [{"id": "90p", "short_side": 90, "crf": 28, "max_bitrate_kbps": 50000, "buffer_kbits": 100000, "audio_bitrate_kbps": 64, "target_ssim_y": 0.9999},
                 {"id": "270p", "short_side": 270, "crf": 28, "max_bitrate_kbps": 50000, "buffer_kbits": 100000, "audio_bitrate_kbps": 64, "target_ssim_y": 0.9999}]
                """#)
        let line = try #require(
            stdout.split(separator: "\n").first { $0.contains("content-aware rates") }, "\(stdout)")
        #expect(
            line.hasPrefix(
                "  content-aware rates: stopped after the first probes (270p, the first 1.0 s beside the ladder's own encode, "
            ), "\(line)")
        #expect(line.contains("SSIM-Y reaches its floor within one CRF step (CRF 28: "), "\(line)")
        #expect(line.contains("; CRF 36: ") && line.hasSuffix("); every rung keeps its CRF"), "\(line)")
        let rungs = stdout.split(separator: "\n").filter { $0.hasPrefix("  90p ") || $0.hasPrefix("  270p ") }
        #expect(rungs.count == 2 && rungs.allSatisfy { $0.contains(", CRF 28,") }, "\(stdout)")
        #expect(!stdout.contains("content-aware check"), "the plain ladder is not checked: \(stdout)")
    }

    /// A clip whose probe windows (its still even seconds) are far easier than its noise: the text report says which
    /// renditions the check encoded again, at which CRFs, and that every one ended inside its bound.
    @Test func theTextReportSaysWhatTheContentAwareCheckEncodedAgain() async throws {
        let stdout = try await transcodeContentAware(
            .stillEvenSecondsNoiseOdd, seconds: 4,
            rungs: #"""
                [{"id": "270p", "short_side": 270, "crf": 28, "max_bitrate_kbps": 50000, "buffer_kbits": 100000, "audio_bitrate_kbps": 64}]
                """#)
        let line = try #require(
            stdout.split(separator: "\n").first { $0.contains("content-aware check") }, "\(stdout)")
        let prefix = "  content-aware check: every rendition inside its bound after encoding again 270p CRF "
        #expect(line.hasPrefix(prefix) && line.contains("; closest to its bound: 270p by 0.0"), "\(line)")
        // "29.2 → 28.1 (1 pass, ...": the first CRF, above the rung's 28, then the one published.
        let crfs = line.dropFirst(prefix.count).prefix { $0 != "(" }.split(separator: "→").map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        #expect(crfs.count >= 2 && (crfs.first ?? nil).map { $0 > 28 } == true, "\(line)")
        let published = try #require(crfs.last ?? nil)
        let rung = try #require(stdout.split(separator: "\n").first { $0.hasPrefix("  270p ") })
        #expect(
            rung.contains(String(format: ", CRF %g for SSIM-Y ", published)) && rung.contains(", SSIM-Y 0."), "\(rung)")
    }

    /// Each rendition's encoder CPU counts the threads that started while it opened. In a process of its own, where
    /// nothing else starts threads then, the bigger rung costs its encoder more than the smallest in each codec (9
    /// times the pixels). In the test process other tests' threads would count too: this failed there in CI.
    @Test func eachRenditionsEncoderCPUGrowsWithItsRung() async throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        try SyntheticVideo(width: 480, height: 270, seconds: 3).write(to: clip)
        let preset = directory.file("ladder.json")
        try Data(
            #"""
            {"codecs": ["h264", "hevc"], "segment_seconds": 2, "keyframe_interval_seconds": 1,
             "rungs": [{"id": "90p", "short_side": 90, "crf": 28, "max_bitrate_kbps": 300, "buffer_kbits": 600, "audio_bitrate_kbps": 64},
                       {"id": "270p", "short_side": 270, "crf": 28, "max_bitrate_kbps": 900, "buffer_kbits": 1800, "audio_bitrate_kbps": 128}],
             "poster": {"rung": "90p"}}
            """#.utf8
        ).write(to: URL(fileURLWithPath: preset))
        let result = try await ReelProcess.run([
            "transcode", clip, "--output", directory.file("ladder"), "--ladder", preset, "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let last = try #require(result.stdout.split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let renditions = try #require(summary["renditions"] as? [[String: Any]], "\(summary)")
        var cpu: [String: Double] = [:]
        for rendition in renditions {
            let id = try #require(rendition["id"] as? String)
            cpu[id] = try #require(rendition["encode_cpu_seconds"] as? Double, "\(rendition)")
        }
        #expect(Set(cpu.keys) == ["90p", "270p", "90p-hevc", "270p-hevc"], "\(cpu)")
        #expect(cpu.values.allSatisfy { $0 > 0 }, "\(cpu)")
        #expect(cpu["270p"]! > cpu["90p"]! && cpu["270p-hevc"]! > cpu["90p-hevc"]!, "\(cpu)")
    }

    /// SVT-AV1 run as root puts each thread it starts in SCHED_FIFO at priority 99 (real time): a transcode's hundreds
    /// of busy threads would starve the machine. The encode is sampled while it runs: no thread of reel's is ever real
    /// time, and the samples saw SVT-AV1's pipeline (many threads) at work.
    /// The samples are taken on a thread of their own, not between suspensions: on a loaded machine the concurrency
    /// pool resumed a sleeping test so late that it sampled only five times in a whole transcode. (Nor on a thread of
    /// the pool, which the other tests and their servers need.)
    @Test(.enabled(if: geteuid() == 0, "SVT-AV1 raises its threads only when run as root"))
    func anAV1LadderRunsNoRealTimeThreads() async throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        try SyntheticVideo(width: 360, height: 640, seconds: 4).write(to: clip)
        let preset = directory.file("ladder.json")
        try Data(#"{"codecs": ["h264", "av1"], "av1": {"preset": 8}}"#.utf8).write(to: URL(fileURLWithPath: preset))
        let child = try ChildProcess([
            ReelProcess.executable, "transcode", clip, "--output", directory.file("ladder"), "--ladder", preset,
        ])
        // Sampled until reel exits, for at most 540 s; then `exit` names the transcode that is still running. Only
        // while the pid is still reel's (its start time unchanged): a clean-clone CI run once counted six SCHED_FIFO
        // threads of whatever process took the pid over, on a machine whose pid space is 32768.
        let started = procStat(child.pid)?[19]
        let (samples, mostThreads, realTime) = try await onOwnThread("samples the threads of \(child.description)") {
            var samples = 0, mostThreads = 0, realTime: Set<String> = []
            let deadline = ContinuousClock.now + .seconds(540)
            while !child.hasExited, ContinuousClock.now < deadline, let started {
                // Not one thread may even hold CAP_SYS_NICE: reel drops it before it starts a second thread (while
                // the process has one, its main thread may not have got that far yet).
                let holders = Self.schedulingPolicies(of: child.pid).count > 1 ? Self.sysNiceHolders(of: child.pid) : []
                let policies = Self.schedulingPolicies(of: child.pid)
                // Read before and after: a sample counts only if the pid was reel's all along.
                guard procStat(child.pid)?[19] == started else { break }
                realTime.formUnion(holders)
                if !policies.isEmpty { samples += 1 }
                mostThreads = max(mostThreads, policies.count)
                // 1 is SCHED_FIFO, 2 SCHED_RR.
                realTime.formUnion(policies.filter { $0.value == 1 || $0.value == 2 }.map { "\($0.key): \($0.value)" })
                usleep(20_000)
            }
            return (samples, mostThreads, realTime)
        }
        #expect(try await child.exit(within: .seconds(10)) == 0, "\(child.stderr)")
        #expect(realTime.isEmpty, "real-time threads: \(realTime.sorted())")
        #expect(samples > 5 && mostThreads > 20, "\(samples) samples, at most \(mostThreads) threads")
    }

    /// Threads whose effective or permitted capabilities (`/proc/PID/task/TID/status`) include CAP_SYS_NICE (bit 23).
    static func sysNiceHolders(of pid: Int32) -> [String] {
        let task = "/proc/\(pid)/task"
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: task)) ?? []
        return ids.compactMap { id -> String? in
            guard let status = try? String(contentsOfFile: "\(task)/\(id)/status", encoding: .utf8) else { return nil }
            for line in status.split(separator: "\n") where line.hasPrefix("CapEff:") || line.hasPrefix("CapPrm:") {
                let hex = line.split(separator: "\t").last.map(String.init) ?? ""
                if let mask = UInt64(hex.trimmingCharacters(in: .whitespaces), radix: 16), mask & (1 << 23) != 0 {
                    return "\(id): \(line.prefix(7)) has CAP_SYS_NICE"
                }
            }
            return nil
        }
    }

    /// Each thread's scheduling policy (the 41st field of its stat line), by thread id.
    static func schedulingPolicies(of pid: Int32) -> [String: Int] {
        let task = "/proc/\(pid)/task"
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: task)) ?? []
        var policies: [String: Int] = [:]
        for id in ids {
            guard let line = try? String(contentsOfFile: "\(task)/\(id)/stat", encoding: .utf8),
                let close = line.lastIndex(of: ")")
            else { continue }
            let fields = line[line.index(after: close)...].split(separator: " ")
            if fields.count > 38, let policy = Int(fields[38]) { policies[id] = policy }
        }
        return policies
    }
}
