import Foundation
import HLSCheck
import MediaFixtures
import Transcode

/// A real ladder made by Reel's own transcoder in a test's temporary directory, with helpers that break it the
/// way a buggy packager would.
struct Ladder {
    /// Reel's rules on small rungs (2 s segments, an IDR every second) so each test makes its ladder quickly.
    static let preset = LadderPreset(
        segmentSeconds: 2, keyframeIntervalSeconds: 1, maxFrameRate: 30, x264Preset: "veryfast",
        audio: .init(sampleRate: 48_000, channels: 2),
        rungs: [
            .init(id: "90p", shortSide: 90, crf: 28, maxBitrateKbps: 300, bufferKbits: 600, audioBitrateKbps: 64),
            .init(id: "180p", shortSide: 180, crf: 28, maxBitrateKbps: 600, bufferKbits: 1200, audioBitrateKbps: 96),
        ],
        poster: .init(searchSeconds: 1, rung: "180p")
    )

    let directory: String
    let summary: TranscodeSummary

    /// Transcodes a generated vertical clip of `seconds` into `temporary/ladder`.
    static func make(
        in temporary: TemporaryDirectory, seconds: Double = 5, preset: LadderPreset = preset
    ) throws -> Ladder {
        let source = temporary.file("source.mp4")
        try SyntheticVideo(width: 180, height: 320, seconds: seconds).write(to: source)
        let output = temporary.file("ladder")
        let summary = try LadderTranscoder(preset: preset).run(source: source, output: output)
        return Ladder(directory: output, summary: summary)
    }

    func path(_ relative: String) -> String { directory + "/" + relative }

    func text(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }

    func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(relative))))
    }

    func write(_ relative: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(relative)))
    }

    func write(_ relative: String, bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path(relative)))
    }

    /// Rewrites a playlist and fails the test if the edit changed nothing.
    func edit(_ relative: String, _ transform: (String) -> String) throws {
        let before = try text(relative)
        let after = transform(before)
        guard after != before else { throw LadderEditError(file: relative) }
        try write(relative, after)
    }

    func remove(_ relative: String) throws { try FileManager.default.removeItem(atPath: path(relative)) }

    func check(waiving rules: Set<String> = []) -> HLSReport {
        HLSChecker(options: .init(waivedRules: rules)).check(directory: directory)
    }
}

struct LadderEditError: Error, CustomStringConvertible {
    let file: String
    var description: String { "the edit left \(file) unchanged" }
}

extension HLSReport {
    func findings(_ rule: String) -> [HLSFinding] { findings.filter { $0.rule == rule } }

    /// One line per finding, for failure messages.
    var summary: String {
        findings.map { "\($0.severity.rawValue) \($0.rule) \($0.file): \($0.message)" }.joined(separator: "\n")
    }
}
