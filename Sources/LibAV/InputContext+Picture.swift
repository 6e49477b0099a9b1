/// Still images: the first picture of a single-stream input, decoded.
extension InputContext {
    /// Decodes the first picture of the best video stream; nil when the file holds none.
    /// EAGAIN and EOF are loop states here, as everywhere; only real failures throw.
    package func decodeFirstPicture(maxPixels: Int, codecWhitelist: [String]) throws(AVError) -> Frame? {
        guard let stream = bestStream(.video) else { return nil }
        let decoder = try makeDecoder(
            streamIndex: stream, threads: 1, maxPixels: maxPixels, codecWhitelist: codecWhitelist)
        let packet = try Packet()
        let frame = try Frame()
        var draining = false
        while true {
            if !draining {
                if try read(into: packet) == .endOfStream {
                    draining = true
                    _ = try decoder.send(nil)
                } else {
                    defer { packet.unref() }
                    if packet.streamIndex == stream { _ = try decoder.send(packet) }
                }
            }
            switch try decoder.receive(into: frame) {
            case .output: return frame
            case .endOfStream: return nil
            case .needsInput: continue
            }
        }
    }
}
