internal import LibAV
package import MediaModel

/// The one admission policy used by `reel check`, `transcode`, `compress`, `webp` and the worker.
package struct AdmissionPolicy: Sendable {
    package var limits: AdmissionLimits

    /// Audio decoders allowed while probing uploaded videos.
    package static let audioCodecs = [
        "aac", "mp3", "mp3float", "opus", "libopus", "vorbis", "flac", "alac", "ac3", "eac3",
        "pcm_s16le", "pcm_s16be", "pcm_s24le", "pcm_f32le",
    ]
    /// Image decoders, matched to the formats Reel sniffs.
    static let imageCodecs = ["mjpeg", "png", "webp", "gif", "bmp", "tiff"]
    static let videoDemuxers = ["mp4": "mov", "mov": "mov", "matroska": "matroska", "webm": "matroska"]

    package init(limits: AdmissionLimits = .default) { self.limits = limits }

    /// Checks a file against every limit; returns what was learnt, or throws the first rule it breaks.
    /// - Throws: `Rejection` naming the reason code, the limit and the actual value.
    package func check(path: String) throws(Rejection) -> AdmittedUpload {
        try check(try open(path: path))
    }

    /// Checks an upload already opened and sniffed against every limit.
    package func check(_ upload: SniffedUpload) throws(Rejection) -> AdmittedUpload {
        try inspect(upload, enforcing: true)
    }

    /// Reports a file's facts for `reel probe`, with the same safe opening but without enforcing the product limits.
    package func probe(path: String) throws(Rejection) -> MediaInfo {
        try inspect(try open(path: path), enforcing: false).info
    }

    /// Admission proper: the format sniffed when the upload was opened, then one libav open (videos) or the header
    /// checks (images).
    func inspect(
        _ upload: SniffedUpload, enforcing: Bool, verifyingImageDecode: Bool = true
    ) throws(Rejection) -> AdmittedUpload {
        let (file, format) = (upload.file, upload.format)
        switch format {
        case let .forbidden(name):
            throw Rejection(
                .forbiddenFormat, "\(name) files are never opened (they can reference other files or URLs)",
                path: file.path)
        case let .unsupported(name):
            throw Rejection(.unsupportedFormat, "\(name) is not an accepted upload format", path: file.path)
        case .unknown:
            throw Rejection(
                .unsupportedFormat, "the content is not a recognised video or image format", path: file.path)
        default:
            break
        }
        if format.isVideo {
            return try VideoInspector(policy: self, file: file, format: format, enforcing: enforcing).run()
        }
        var inspector = ImageInspector(policy: self, file: file, format: format, enforcing: enforcing)
        inspector.verifyingDecode = verifyingImageDecode
        return try inspector.run()
    }
}
