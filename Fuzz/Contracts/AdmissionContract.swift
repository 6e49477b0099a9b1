internal import Foundation
internal import Ingest
internal import MediaModel

/// An upload as admission sees it (`POST /v1/uploads`, `reel check`): the sniffer's verdict, then libav or the image
/// readers on the whole file. The input is written to a file in /dev/shm, so libav reads it from memory through the
/// same opening the worker uses. What was admitted is what was sniffed and lies inside every limit; what the sniffer
/// refused is refused for that reason; a refusal always names its reason.
enum AdmissionContract {
    static let policy = AdmissionPolicy()
    /// A file of its own for each input: libFuzzer runs one at a time, but the replay in `make test` runs targets'
    /// cases side by side in one process.
    static func path() -> String { "/dev/shm/reel-fuzz-admission-\(getpid())-\(UUID().uuidString)" }

    static let target = FuzzTarget(
        name: "admission", contract: "admitted uploads are what was sniffed, inside every limit; refusals say why"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let path = path()
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw ContractBroken("cannot write \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sniffed = SniffedFormat.sniff(Array(bytes.prefix(4096)))
        let admitted: AdmittedUpload
        do throws(Rejection) { admitted = try policy.check(path: path) } catch {
            try expect(!error.message.isEmpty, "a \(error.reason) refusal without a message")
            switch sniffed {
            case .forbidden:
                try expect(error.reason == .forbiddenFormat, "a forbidden \(sniffed) was refused as \(error)")
            case .unsupported, .unknown:
                try expect(
                    error.reason == .unsupportedFormat || bytes.isEmpty && error.reason == .emptyFile,
                    "an unsupported \(sniffed) was refused as \(error)")
            default: break
            }
            return
        }
        try expect(admitted.format == sniffed, "sniffed as \(sniffed), admitted as \(admitted.format)")
        let info = admitted.info
        try expect(
            info.fileSize == Int64(bytes.count), "a \(bytes.count)-byte upload admitted as \(info.fileSize) bytes")
        if sniffed.isVideo {
            let limits = policy.limits.video
            guard let video = info.video, info.kind == .video, let duration = info.durationSeconds else {
                throw ContractBroken("a \(sniffed) admitted without its video or duration: \(info)")
            }
            try expect(
                info.fileSize <= limits.maxBytes && info.streamCount <= limits.maxStreams
                    && limits.codecs.contains(video.codec) && video.codedWidth > 0 && video.codedHeight > 0
                    && max(video.displayWidth, video.displayHeight) <= limits.maxSide
                    && video.displayWidth * video.displayHeight <= limits.maxPixels
                    && duration >= limits.minDurationSeconds
                    && duration <= limits.maxDurationSeconds + limits.durationToleranceSeconds
                    && [0, 90, 180, 270].contains(video.rotation),
                "a video admitted outside its limits: \(info)")
        } else {
            let limits = policy.limits.image
            guard let image = info.image, info.kind == .image, sniffed.isImage else {
                throw ContractBroken("a \(sniffed) admitted as an image without one: \(info)")
            }
            try expect(
                info.fileSize <= limits.maxBytes && image.width > 0 && image.height > 0
                    && max(image.width, image.height) <= limits.maxSide
                    && image.width * image.height <= limits.maxPixels
                    && (1...8).contains(image.orientation) && image.frameCount >= 1,
                "an image admitted outside its limits: \(info)")
        }
    }
}
