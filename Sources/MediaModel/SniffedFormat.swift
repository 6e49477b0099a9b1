/// What the first bytes of a file say it is. Reel picks the demuxer from this, never from the name or libav's probe.
public enum SniffedFormat: Sendable, Equatable {
    case mp4
    case matroska
    case jpeg
    case png
    case webp
    case gif
    case bmp
    case tiff
    case heif
    /// A format that must never be opened (playlists, SVG, ...), with its name.
    case forbidden(String)
    /// A recognisable format Reel does not accept (AVI, MPEG-TS, PDF, ...), with its name.
    case unsupported(String)
    case unknown

    public var isVideo: Bool { self == .mp4 || self == .matroska }
    public var isImage: Bool {
        switch self {
        case .jpeg, .png, .webp, .gif, .bmp, .tiff, .heif: true
        default: false
        }
    }

    /// The short name used in limits, errors and `reel probe`.
    public var name: String {
        switch self {
        case .mp4: "mp4"
        case .matroska: "matroska"
        case .jpeg: "jpeg"
        case .png: "png"
        case .webp: "webp"
        case .gif: "gif"
        case .bmp: "bmp"
        case .tiff: "tiff"
        case .heif: "heif"
        case let .forbidden(name): name
        case let .unsupported(name): name
        case .unknown: "unknown"
        }
    }

    /// The single libav demuxer that opens this format; images use the one-picture pipe demuxers.
    public var demuxer: String? {
        switch self {
        case .mp4: "mov"
        case .matroska: "matroska"
        case .jpeg: "jpeg_pipe"
        case .png: "png_pipe"
        case .webp: "webp_pipe"
        case .gif: "gif"
        case .bmp: "bmp_pipe"
        case .tiff: "tiff_pipe"
        default: nil
        }
    }

    /// Looks at the head of a file (64 bytes or more is enough).
    public static func sniff(_ head: [UInt8]) -> SniffedFormat {
        func at(_ offset: Int, _ bytes: [UInt8]) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        func ascii(_ offset: Int, _ text: String) -> Bool { at(offset, Array(text.utf8)) }

        if ascii(4, "ftyp") {
            let brand = head.count >= 12 ? String(decoding: head[8..<12], as: UTF8.self) : ""
            if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"].contains(brand) {
                return brand.hasPrefix("avi") ? .unsupported("avif") : .heif
            }
            return .mp4
        }
        // QuickTime files written without ftyp start with moov/mdat/wide/free atoms.
        for atom in ["moov", "mdat", "wide", "free", "skip"] where ascii(4, atom) { return .mp4 }
        if at(0, [0x1A, 0x45, 0xDF, 0xA3]) { return .matroska }
        if at(0, [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if at(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if ascii(0, "RIFF") && ascii(8, "WEBP") { return .webp }
        if ascii(0, "RIFF") && ascii(8, "AVI ") { return .unsupported("avi") }
        if ascii(0, "RIFF") && ascii(8, "WAVE") { return .unsupported("wav") }
        if ascii(0, "GIF87a") || ascii(0, "GIF89a") { return .gif }
        if ascii(0, "BM") && head.count >= 26 { return .bmp }
        if at(0, [0x49, 0x49, 0x2A, 0x00]) || at(0, [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if ascii(0, "%PDF") { return .unsupported("pdf") }
        if at(0, [0x47]) && head.count > 188 && head[188] == 0x47 { return .unsupported("mpegts") }
        if ascii(0, "ID3") || at(0, [0xFF, 0xFB]) { return .unsupported("mp3") }
        if ascii(0, "OggS") { return .unsupported("ogg") }
        if ascii(0, "PK\u{03}\u{04}") { return .unsupported("zip") }
        return sniffText(head)
    }

    /// Text formats that libav would happily open as playlists or hand to a rasterizer.
    private static func sniffText(_ head: [UInt8]) -> SniffedFormat {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(decoding: bytes.prefix(512), as: UTF8.self)
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("#extm3u") { return .forbidden("hls_playlist") }
        if lower.hasPrefix("ffconcat") { return .forbidden("ffconcat") }
        if lower.hasPrefix("<svg") || lower.contains("<svg") { return .forbidden("svg") }
        if lower.contains("<mpd") { return .forbidden("dash_manifest") }
        if lower.hasPrefix("v=0") { return .forbidden("sdp") }
        if lower.hasPrefix("<?xml") || lower.hasPrefix("<!doctype") || lower.hasPrefix("<html") {
            return .forbidden("xml")
        }
        if lower.hasPrefix("file ") || lower.hasPrefix("file '") { return .forbidden("ffconcat") }
        let printable = bytes.prefix(512).allSatisfy {
            $0 == 9 || $0 == 10 || $0 == 13 || ($0 >= 32 && $0 < 127) || $0 >= 0x80
        }
        if printable && !bytes.isEmpty { return .unsupported("text") }
        return .unknown
    }
}
