import Foundation
import MediaFixtures

/// The phone-footage test bed (`scripts/make-phone-testbed.sh`): HDR clips made from real SDR footage by the ffmpeg
/// CLI's zscale (libzimg) and x265, 10-bit SDR, and the loudness cases. Made once per test process; the HDR clips are
/// 3 s (colour and highlights are per-frame properties: length bought only CPU), the loudness cases 6 s,
/// and judged by tools Reel did not write: ffprobe for tags, `../shared/anchors/colour_difference.py` (scikit-image's
/// CIEDE2000) for colour.
enum PhoneTestBed {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The HDR clips' length; `colourDifference` samples frames inside it.
    static let seconds = 3
    static let source = "/usr/share/doc/opencv-doc/examples/data/Megamind.avi"
    /// The highlight clips' source: a bright scene, since the trailer is dark.
    static let brightSource = "/usr/share/doc/opencv-doc/examples/data/vtest.avi"
    static let colourDifference = root.deletingLastPathComponent().appendingPathComponent(
        "shared/anchors/colour_difference.py"
    ).path

    /// Whether the bed's tools are here: the source footage (Debian's opencv-doc), the ffmpeg CLI and the anchors.
    /// `scripts/install-deps.sh test` installs them, and the anchors' Python (numpy, Pillow, scikit-image).
    static var isAvailable: Bool {
        let files = FileManager.default
        return files.fileExists(atPath: source) && files.fileExists(atPath: brightSource)
            && files.fileExists(atPath: colourDifference)
            && files.isExecutableFile(atPath: "/usr/bin/ffmpeg") && files.isExecutableFile(atPath: "/usr/bin/ffprobe")
    }

    /// The folder holding the clips, made on first use.
    static func folder() async throws -> String { try await made.value }

    private static let made = Task { () throws -> String in
        let folder = path
        atexit { try? FileManager.default.removeItem(atPath: PhoneTestBed.path) }
        let result = try await ChildProcess.run(
            [
                root.appendingPathComponent("scripts/make-phone-testbed.sh").path, folder, String(seconds), source,
                brightSource,
            ],
            within: .seconds(900))
        guard result.status == 0 else {
            throw TestBedError(message: "make-phone-testbed.sh failed (\(result.status)): \(result.stderr)")
        }
        return folder
    }
    private static let path = FileManager.default.temporaryDirectory.path + "/reel-phone-testbed-\(getpid())"

    struct TestBedError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// ffprobe's view of a file's first video stream: pix_fmt, color_primaries, color_transfer, color_space.
    static func videoTags(_ path: String) async throws -> [String: String] {
        let result = try await ChildProcess.run(
            [
                "/usr/bin/ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                "stream=pix_fmt,color_primaries,color_transfer,color_space", "-of", "default=noprint_wrappers=1", path,
            ], within: .seconds(60))
        var tags: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { tags[parts[0]] = parts[1] }
        }
        return tags
    }

    /// colour_difference.py's means over four frames spread over the clip: ciede2000, ssim_l, saturation_reference, saturation_test,
    /// clipped_fraction.
    static func colourDifference(reference: String, test: String) async throws -> [String: Double] {
        let result = try await ChildProcess.run(
            ["/usr/bin/env", "python3", colourDifference, reference, test, "--times", "0.4,1.1,1.8,2.5", "--json"],
            within: .seconds(300))
        guard result.status == 0, let data = result.stdout.data(using: .utf8),
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let mean = json["mean"] as? [String: Double]
        else { throw TestBedError(message: "colour_difference.py failed: \(result.stderr)") }
        return mean
    }
}
