internal import CFFmpeg

/// The stream at `index` of a demuxer's or muxer's context, checked against `nb_streams` first: an index that names
/// no stream (a caller's mistake, a packet's from a file) is an `AVError` naming the call and the index, not a trap.
/// - Throws: `AVError` with `EINVAL` when `index` is negative or not below `nb_streams`, or the slot is empty.
func checkedStream(
    at index: Int, of context: UnsafeMutablePointer<AVFormatContext>, _ function: String
) throws(AVError) -> UnsafeMutablePointer<AVStream> {
    let count = Int(context.pointee.nb_streams)
    guard index >= 0, index < count, let stream = context.pointee.streams[index] else {
        throw AVError(
            function: function, message: "no stream \(index): the context has \(count)", code: CFFmpeg_AVERROR(EINVAL))
    }
    return stream
}
