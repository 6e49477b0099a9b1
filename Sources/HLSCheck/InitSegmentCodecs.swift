/// The RFC 6381 codec strings an init segment declares, one per track in track order, as a master playlist's
/// CODECS carries them. The ladder writes its master from this, so the writer and the checker read init segments
/// the same way, for H.264, HEVC, AV1 and AAC alike.
package enum InitSegmentCodecs {
    /// - Throws: `MediaParseError` when `bytes` is not an init segment with a `moov`.
    package static func codecs(of bytes: [UInt8]) throws(MediaParseError) -> [String] {
        try InitSegment.parse(bytes).tracks.compactMap { $0.configuration?.codec ?? $0.format }
    }
}
