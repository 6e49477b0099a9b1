/// Which ICC profiles the WebP keeps. Reel keeps a source's profile deliberately, so wide-gamut phone photos
/// (Display P3) keep their colours; sRGB profiles are dropped because sRGB is what a WebP without one means.
package enum ColorProfile {
    static func profileToKeep(_ profile: [UInt8]?) -> [UInt8]? {
        guard let profile, profile.count > 132, !isSRGB(profile) else { return nil }
        return profile
    }

    /// True when the profile's `desc` tag names sRGB (ASCII in v2 `desc`, UTF-16BE in v4 `mluc`).
    package static func isSRGB(_ profile: [UInt8]) -> Bool {
        func be32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= profile.count else { return nil }
            return Int(profile[at]) << 24 | Int(profile[at + 1]) << 16 | Int(profile[at + 2]) << 8
                | Int(profile[at + 3])
        }
        guard let count = be32(128), count < 1000 else { return false }
        for entry in 0..<count {
            let at = 132 + entry * 12
            guard let offset = be32(at + 4), let size = be32(at + 8), offset + size <= profile.count else {
                return false
            }
            guard Array(profile[at..<at + 4]) == Array("desc".utf8) else { continue }
            let description = Array(profile[offset..<offset + size])
            let ascii = Array("sRGB".utf8)
            let utf16: [UInt8] = ascii.flatMap { [0, $0] }
            return contains(description, ascii) || contains(description, utf16)
        }
        return false
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
    }
}
