/// A master (multivariant) playlist: its variants, I-frame variants and renditions (RFC 8216 §4.3.4).
package struct MasterPlaylist {
    struct Variant {
        var line: Int
        var attributes: AttributeList
        var uri: String
    }

    /// An EXT-X-I-FRAME-STREAM-INF, whose URI is an attribute.
    struct IFrameVariant {
        var line: Int
        var attributes: AttributeList
    }

    /// An EXT-X-MEDIA rendition.
    struct Rendition {
        var line: Int
        var attributes: AttributeList
    }

    var variants: [Variant] = []
    var iFrameVariants: [IFrameVariant] = []
    var renditions: [Rendition] = []
    var independentSegments = false
    /// Lines a player would refuse, with why.
    var problems: [(line: Int, message: String)] = []
    var versionNeeds: [VersionNeed] = []

    package init(_ playlist: Playlist) {
        var pending: Playlist.Line?
        for line in playlist.lines {
            if line.isURI {
                if let tag = pending {
                    variants.append(
                        Variant(line: tag.number, attributes: AttributeList(tag.value), uri: line.text.trimmingSpaces())
                    )
                    pending = nil
                } else {
                    problems.append((line.number, "a URI line that no EXT-X-STREAM-INF introduces: \(line.text)"))
                }
                continue
            }
            guard line.isTag else { continue }
            switch line.tagName {
            case "EXT-X-STREAM-INF":
                if let earlier = pending {
                    problems.append((earlier.number, "EXT-X-STREAM-INF without a URI line after it"))
                }
                pending = line
            case "EXT-X-I-FRAME-STREAM-INF":
                iFrameVariants.append(IFrameVariant(line: line.number, attributes: AttributeList(line.value)))
            case "EXT-X-MEDIA":
                let attributes = AttributeList(line.value)
                renditions.append(Rendition(line: line.number, attributes: attributes))
                if attributes.text("INSTREAM-ID")?.hasPrefix("SERVICE") == true {
                    versionNeeds.append(VersionNeed(version: 7, reason: "INSTREAM-ID=SERVICEn in EXT-X-MEDIA"))
                }
            case "EXT-X-INDEPENDENT-SEGMENTS": independentSegments = true
            case "EXTINF", "EXT-X-TARGETDURATION", "EXT-X-MEDIA-SEQUENCE", "EXT-X-ENDLIST", "EXT-X-BYTERANGE":
                problems.append(
                    (line.number, "\(line.tagName) is a media playlist tag and MUST NOT be in a master playlist"))
            case "EXT-X-DEFINE": versionNeeds.append(VersionNeed(version: 8, reason: "EXT-X-DEFINE"))
            default: break
            }
        }
        if let earlier = pending { problems.append((earlier.number, "EXT-X-STREAM-INF without a URI line after it")) }
        for tag in variants.map(\.attributes) + iFrameVariants.map(\.attributes) + renditions.map(\.attributes) {
            for name in tag.duplicates { problems.append((0, "attribute \(name) appears twice in one tag")) }
        }
    }

    /// The PROGRAM-ID attribute was removed in version 6 (RFC 8216 §7).
    var usesProgramID: Bool {
        variants.contains { $0.attributes.has("PROGRAM-ID") }
            || iFrameVariants.contains { $0.attributes.has("PROGRAM-ID") }
    }
}
