/// What an upload is, as decided by Reel's own magic-byte sniffing (never by its name).
public enum MediaKind: String, Codable, Sendable, CaseIterable {
    case video
    case image
}
