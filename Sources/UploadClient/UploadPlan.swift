package import Ingest
package import MediaModel
package import Transcode

/// What `reel upload` does with a file before sending it, decided from facts alone (kind, size, whether it already
/// fits the quality tier): refuse it, send the original bytes, or compress it first. Pure; I/O lives in `UploadSource`.
package struct UploadPlan: Sendable, Equatable {
    package enum Kind: String, Sendable, Codable { case video, image }

    package enum Action: Sendable, Equatable {
        /// Send the file's own bytes.
        case uploadAsIs
        /// Compress to one MP4 at this tier with `VideoCompressor`, then send that.
        case compress(CompressPreset.Quality)
    }

    /// The facts the plan is made from.
    package struct Facts: Sendable, Equatable {
        package var path: String
        package var format: SniffedFormat
        package var bytes: Int64
        /// True when the video is already H.264/AAC within the tier's size, rate and bitrate (`CompressPreset.fits`).
        package var fitsTier: Bool

        package init(path: String, format: SniffedFormat, bytes: Int64, fitsTier: Bool) {
            self.path = path
            self.format = format
            self.bytes = bytes
            self.fitsTier = fitsTier
        }
    }

    package var path: String
    package var kind: Kind
    package var action: Action
    package var sourceBytes: Int64
    /// The name sent in `Upload-Metadata` (`.mp4` when compressed).
    package var filename: String
    /// The MIME type sent in `Upload-Metadata` (the server applies the image limit to `image/*`).
    package var filetype: String

    /// Plans the upload of one file.
    /// - Parameters:
    ///   - compressFromBytes: videos this large or larger are always compressed (the compress preset's remux bound).
    /// - Throws: `UploadError` `.rejected` with `too_large` (naming the limit, the file and its size) or
    ///   `unsupported_format` for anything that is neither a video nor an image.
    package static func make(
        _ facts: Facts, quality: CompressPreset.Quality, limits: AdmissionLimits = .default,
        compressFromBytes: Int64 = CompressPreset.default.remuxBelowBytes
    ) throws(UploadError) -> UploadPlan {
        try checkSize(facts.path, format: facts.format, bytes: facts.bytes, limits: limits)
        let name = basename(facts.path)
        if facts.format.isImage {
            return UploadPlan(
                path: facts.path, kind: .image, action: .uploadAsIs, sourceBytes: facts.bytes, filename: name,
                filetype: mimeType(facts.format, name: name))
        }
        if facts.bytes < compressFromBytes && facts.fitsTier {
            return UploadPlan(
                path: facts.path, kind: .video, action: .uploadAsIs, sourceBytes: facts.bytes, filename: name,
                filetype: mimeType(facts.format, name: name))
        }
        return UploadPlan(
            path: facts.path, kind: .video, action: .compress(quality), sourceBytes: facts.bytes,
            filename: stem(name) + ".mp4", filetype: "video/mp4")
    }

    /// Refuses a file over its kind's size limit, or of a kind Reel does not take, before anything else is done.
    /// - Throws: `UploadError` `.rejected` with `too_large` or `unsupported_format`.
    package static func checkSize(
        _ path: String, format: SniffedFormat, bytes: Int64, limits: AdmissionLimits = .default
    ) throws(UploadError) {
        let limit: Int64
        let what: String
        if format.isVideo {
            (limit, what) = (limits.video.maxBytes, "video")
        } else if format.isImage {
            (limit, what) = (limits.image.maxBytes, "image")
        } else {
            throw UploadError(
                .rejected(code: RejectionReason.unsupportedFormat.rawValue),
                "\(path): \(format.name) is neither a video nor an image Reel accepts")
        }
        if bytes > limit {
            throw UploadError(
                .rejected(code: RejectionReason.tooLarge.rawValue),
                "\(path): the \(what) is \(megabytes(bytes)); the \(what) upload limit is \(megabytes(limit)), nothing was sent"
            )
        }
    }

    /// "52.4 MB (52400000 bytes)"; MB = 10^6 bytes, as in the limits.
    static func megabytes(_ bytes: Int64) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB (\(bytes) bytes)"
    }

    static func basename(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    static func mimeType(_ format: SniffedFormat, name: String) -> String {
        let lower = name.lowercased()
        switch format {
        case .mp4: return lower.hasSuffix(".mov") ? "video/quicktime" : "video/mp4"
        case .matroska: return lower.hasSuffix(".webm") ? "video/webm" : "video/x-matroska"
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .webp: return "image/webp"
        case .gif: return "image/gif"
        case .bmp: return "image/bmp"
        case .tiff: return "image/tiff"
        case .heif: return lower.hasSuffix(".heif") ? "image/heif" : "image/heic"
        case .forbidden, .unsupported, .unknown: return "application/octet-stream"
        }
    }
}
