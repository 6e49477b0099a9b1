/// One 'moof' box read down to its samples (ISO/IEC 14496-12 §8.8): per track, the decode time it starts at
/// (tfdt) and each sample's duration, size, flags and file offset, with tfhd and trex defaults applied.
package struct MovieFragment {
    package struct Sample: Equatable {
        package var duration: UInt32
        package var size: UInt32
        package var flags: UInt32
        /// Where the sample's bytes start, as an offset in the file the moof came from.
        package var offset: Int64

        /// `sample_is_non_sync_sample` clear (§8.8.3.1).
        var isSync: Bool { flags & 0x0001_0000 == 0 }
    }

    package struct TrackRun {
        package var trackID: UInt32
        var baseDecodeTime: UInt64?
        package var samples: [Sample] = []
        var duration: UInt64 { samples.reduce(0) { $0 + UInt64($1.duration) } }
    }

    package var start: Int64
    package var size: Int64
    package var tracks: [TrackRun] = []

    /// More samples than any real fragment holds: a fragment whose runs claim more is treated as damaged. Each claimed
    /// sample costs memory before the bytes behind it are known to be there.
    package static let sampleLimit: UInt32 = 1_000_000

    /// Reads `bytes`, which hold the whole moof box found at file offset `start`.
    /// - Throws: `MediaParseError` when a box or run is cut short.
    package static func parse(
        _ bytes: [UInt8], at start: Int64, defaults: [UInt32: SampleDefaults]
    ) throws(MediaParseError) -> MovieFragment {
        let moof = try BoxHeader.parse(bytes, limit: Int64(bytes.count))
        guard moof.type == "moof" else { throw MediaParseError("expected 'moof', found '\(moof.type)'") }
        var fragment = MovieFragment(start: start, size: moof.size)
        var previousDataEnd = start
        var samples = 0
        for traf in try BoxHeader.children(of: bytes, from: Int(moof.payloadStart), to: Int(moof.end))
        where traf.type == "traf" {
            let run = try trackRun(
                bytes, traf, moofStart: start, previousDataEnd: previousDataEnd, defaults: defaults, samples: &samples)
            if let last = run.samples.last { previousDataEnd = last.offset + Int64(last.size) }
            fragment.tracks.append(run)
        }
        return fragment
    }

    private static func trackRun(
        _ bytes: [UInt8], _ traf: BoxHeader, moofStart: Int64, previousDataEnd: Int64,
        defaults trackDefaults: [UInt32: SampleDefaults], samples: inout Int
    ) throws(MediaParseError) -> TrackRun {
        let boxes = try BoxHeader.children(of: bytes, from: Int(traf.payloadStart), to: Int(traf.end))
        guard let tfhd = boxes.first("tfhd") else { throw MediaParseError("'traf' without 'tfhd'") }
        var cursor = ByteCursor(bytes, from: Int(tfhd.payloadStart), to: Int(tfhd.end))
        let tfhdFlags = try cursor.u32() & 0x00FF_FFFF
        var run = TrackRun(trackID: try cursor.u32())
        var defaults = trackDefaults[run.trackID] ?? SampleDefaults()
        var base = tfhdFlags & 0x02_0000 != 0 ? moofStart : previousDataEnd
        if tfhdFlags & 0x01 != 0 { base = Int64(clamping: try cursor.u64()) }
        if tfhdFlags & 0x02 != 0 { defaults.descriptionIndex = try cursor.u32() }
        if tfhdFlags & 0x08 != 0 { defaults.duration = try cursor.u32() }
        if tfhdFlags & 0x10 != 0 { defaults.size = try cursor.u32() }
        if tfhdFlags & 0x20 != 0 { defaults.flags = try cursor.u32() }
        if let tfdt = boxes.first("tfdt") {
            var time = ByteCursor(bytes, from: Int(tfdt.payloadStart), to: Int(tfdt.end))
            let version = try time.u8()
            try time.skip(3)
            run.baseDecodeTime = version == 1 ? try time.u64() : UInt64(try time.u32())
        }
        var next = base
        for trun in boxes where trun.type == "trun" {
            var cursor = ByteCursor(bytes, from: Int(trun.payloadStart), to: Int(trun.end))
            let flags = try cursor.u32() & 0x00FF_FFFF
            let count = try cursor.u32()
            samples += Int(count)
            guard samples <= Int(sampleLimit) else {
                throw MediaParseError("the fragment's runs claim \(samples) samples; at most \(sampleLimit) are read")
            }
            if flags & 0x01 != 0 { next = try offset(base, plus: Int64(try cursor.i32())) }
            let firstFlags: UInt32? = flags & 0x04 != 0 ? try cursor.u32() : nil
            for index in 0..<Int(count) {
                var sample = Sample(
                    duration: defaults.duration, size: defaults.size, flags: defaults.flags, offset: next)
                if flags & 0x100 != 0 { sample.duration = try cursor.u32() }
                if flags & 0x200 != 0 { sample.size = try cursor.u32() }
                if flags & 0x400 != 0 {
                    sample.flags = try cursor.u32()
                } else if index == 0, let firstFlags {
                    sample.flags = firstFlags
                }
                if flags & 0x800 != 0 { _ = try cursor.u32() }
                next = try offset(next, plus: Int64(sample.size))
                run.samples.append(sample)
            }
        }
        return run
    }

    /// A data offset moved by a size or a signed offset from the box, refused past Int64: a base_data_offset of
    /// 2^63-1 plus any positive offset would trap.
    private static func offset(_ base: Int64, plus delta: Int64) throws(MediaParseError) -> Int64 {
        let (sum, overflow) = base.addingReportingOverflow(delta)
        guard !overflow else { throw MediaParseError("a data offset of \(base) + \(delta) is past any file") }
        return sum
    }
}
