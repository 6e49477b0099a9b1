/// The top-level boxes of one fMP4 media segment (or byte range of one), with every 'moof' read down to its
/// samples. The 'mdat' payload is never read whole: only the first bytes of the samples the checker inspects.
struct SegmentScan {
    var boxTypes: [String] = []
    var fragments: [MovieFragment] = []

    /// The largest 'moof' the scanner reads (a fragment of a few seconds is a few kilobytes).
    static let moofLimit: Int64 = 16 << 20
    /// How much of a video sample is read to find its first picture NAL unit or frame header.
    static let sampleHead = 64 << 10

    /// Scans `location` from `offset` for `length` bytes.
    /// - Throws: `MediaParseError` for a damaged box structure, `HLSResourceError` when reading fails.
    /// With `partialMediaData`, an 'mdat' may run past the range (an I-frame range ends with its sample).
    static func scan(
        _ reader: any HLSResourceReader, _ location: String, offset: Int64, length: Int64,
        defaults: [UInt32: SampleDefaults], partialMediaData: Bool = false
    ) throws -> SegmentScan {
        var result = SegmentScan()
        let end = offset + length
        var position = offset
        while position + 8 <= end {
            let head = try reader.read(location, offset: position, count: Int(min(16, end - position)))
            let header: BoxHeader
            do { header = try BoxHeader.parse(head, base: position, limit: end) } catch {
                if partialMediaData, let open = try? BoxHeader.parse(head, base: position, limit: .max),
                    open.type == "mdat"
                {
                    result.boxTypes.append("mdat")
                    break
                }
                throw error
            }
            result.boxTypes.append(header.type)
            if header.type == "moof" {
                guard header.size <= moofLimit else {
                    throw MediaParseError("'moof' at \(position) is \(header.size) bytes")
                }
                let bytes = try reader.read(location, offset: position, count: Int(header.size))
                result.fragments.append(try MovieFragment.parse(bytes, at: position, defaults: defaults))
            }
            position = header.end
        }
        return result
    }

    /// Whether the segment opens with a TS packet rather than an ISO BMFF box.
    static func isTransportStream(_ head: [UInt8]) -> Bool {
        head.first == 0x47 && (head.count < 189 || head[188] == 0x47)
    }

    /// The runs of `trackID` across all fragments, in order.
    func runs(of trackID: UInt32) -> [MovieFragment.TrackRun] {
        fragments.flatMap { $0.tracks.filter { $0.trackID == trackID } }
    }
}
