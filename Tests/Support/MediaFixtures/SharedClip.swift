internal import Deadlines
internal import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A clip that several tests upload, encoded once per test process: each encode is seconds of CPU in a suite that
/// keeps both cores busy, and three tests wanted the same kind of clip. Tests only read it; it is removed when the
/// process exits.
package enum SharedClip {
    /// 12 s of 1280x720 at quality 26, about 8.4 MB: over one 5 MiB part, and under both the 10 MB and the high
    /// tier's bitrate below which `reel upload` sends a video as it is.
    package static func uploadable() async throws -> String { try await uploadableClip.value }

    static let directory = FileManager.default.temporaryDirectory.path + "/reel-shared-clips-\(getpid())"

    private static let uploadableClip = Task { () throws -> String in
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: SharedClip.directory) }
        let path = directory + "/uploadable-1280x720-12s.mp4"
        try await onOwnThread("encodes the shared 12 s 720p clip") {
            var video = SyntheticVideo(width: 1280, height: 720, seconds: 12)
            video.quality = 26
            try video.write(to: path)
        }
        return path
    }
}
