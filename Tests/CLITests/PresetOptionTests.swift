import Foundation
import MediaFixtures
import TestTraits
import Testing

/// Every command that reads a preset refuses a misspelt key before doing any work: exit 64, file and key named.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct PresetOptionTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test(
        arguments: [
            ("check", nil, "--limits", #"{"video": {"max_byte": 10}}"#, "video.max_byte"),
            ("transcode", "out", "--ladder", #"{"poster": {"rugn": "720p"}}"#, "poster.rugn"),
            ("compress", "out.mp4", "--presets", #"{"presets": {"high": {"bitrate": 1}}}"#, "presets.high.bitrate"),
            ("webp", "out.webp", "--presets", #"{"presets": {"hihg": {"quality": 1}}}"#, "presets.hihg"),
        ] as [(String, String?, String, String, String)])
    func misspeltPresetKeyIsAUsageError(
        command: String, output: String?, option: String, json: String, keyPath: String
    ) async throws {
        let preset = try directory.write("preset.json", text: json)
        let input = try directory.write("input.png", try SyntheticImage.png(width: 4, height: 4, alpha: false))
        let outputArguments = output.map { ["--output", directory.file($0)] } ?? []
        let result = try await ReelProcess.run([command, input] + outputArguments + [option, preset])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(preset), "\(result.stderr)")
        #expect(result.stderr.contains(keyPath), "\(result.stderr)")
        if let output {
            #expect(!FileManager.default.fileExists(atPath: directory.file(output)))
        }
    }
}
