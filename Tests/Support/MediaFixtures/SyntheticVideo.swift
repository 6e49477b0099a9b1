internal import LibAV

/// A generated phone-style clip written with Reel's own LibAV, for tests, benchmarks and sample media.
package struct SyntheticVideo: Sendable {
    package var width: Int
    package var height: Int
    /// Frames per second as a fraction (30/1, 30000/1001, 60/1).
    package var frameRate: (Int, Int)
    package var seconds: Double
    /// "libx264" or "libx265".
    package var codec: String = "libx264"
    /// Ten-bit 4:2:0 when true (HEVC phone HDR-style input).
    package var tenBit: Bool = false
    /// Clockwise display rotation written as a display matrix.
    package var rotation: Int = 0
    /// Adds a mono or stereo AAC track at this sample rate.
    package var audio: (sampleRate: Int, channels: Int)? = (48_000, 2)
    /// False writes an audio-only file.
    package var includeVideo: Bool = true
    /// "mp4" or "matroska".
    package var container: String = "mp4"
    /// Alternates frame durations so the stream has a variable frame rate around `frameRate`.
    package var variableFrameRate: Bool = false
    /// Frames before this index are black, to test poster selection.
    package var blackLeadInFrames: Int = 0
    /// What the frames show.
    package var content: Content = .testPattern
    /// x264/x265 CRF: higher is smaller.
    package var quality: Int = 28
    package var preset: String = "ultrafast"

    /// Pictures a test can recognise after transcoding (8-bit only).
    package enum Content: Sendable {
        /// A moving gradient and checkerboard, so encoders have real work.
        case testPattern
        /// One flat grey per second, `SyntheticVideo.luma(second:)`: which second a thumbnail shows, by brightness.
        case greyPerSecond
        /// The stored picture's left half white, the right half black: with a rotation, shows which way is up.
        case brightLeftHalf
        /// The test pattern's first picture, held: detail that does not move, the easiest clip that is not blank.
        case stillPattern
        /// New random detail in every picture (seeded, so the same each time): the hardest picture for an encoder.
        case noise
        /// The test pattern's first picture in even seconds, new random detail in odd ones: a clip whose even seconds
        /// are far easier to code than the rest.
        case stillEvenSecondsNoiseOdd
    }

    /// A sample of `.noise`: a hash of its place and picture, 16...235.
    static func noise(_ x: Int, _ y: Int, _ picture: Int) -> UInt8 {
        var h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663 ^ picture &* 83_492_791)
        h ^= h >> 13
        h = h &* 0x5bd1_e995
        h ^= h >> 15
        return UInt8(16 + h % 220)
    }

    /// The luma of second `second` in `.greyPerSecond` clips: 40...219, neighbouring seconds at least 53 apart.
    package static func luma(second: Int) -> UInt8 { UInt8(40 + second * 53 % 180) }

    package init(width: Int, height: Int, frameRate: (Int, Int) = (30, 1), seconds: Double) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.seconds = seconds
    }

    /// Encodes the clip to `path`.
    /// - Throws: `SyntheticMediaError` naming the libav call that failed.
    package func write(to path: String) throws {
        do {
            try encode(to: path)
        } catch {
            throw SyntheticMediaError(path: path, message: error.description)
        }
    }

    private func encode(to path: String) throws(AVError) {
        let output = try OutputContext(path: path, format: container == "mp4" ? "mp4" : "matroska")
        let fps = Rational(Int32(frameRate.0), Int32(frameRate.1))
        let videoTimeBase = variableFrameRate ? Rational(1, 90_000) : fps.inverted
        var videoOptions: [(String, String)] = [("preset", preset), ("crf", String(quality))]
        // One frame thread: x265 3.5's frame threads can deadlock in rate control (a 10-bit fixture encode hung a test
        // run with every x265 thread waiting; upstream issues 540 and 684). docs/quirks.md, "x265's frame threads".
        if codec == "libx265" { videoOptions.append(("x265-params", "log-level=none:frame-threads=1")) }
        let video = try Encoder(
            EncoderSettings(
                codec: codec,
                kind: .video(width: width, height: height, pixelFormat: tenBit ? .yuv420p10 : .yuv420p, frameRate: fps),
                timeBase: videoTimeBase, gopSize: Int(fps.doubleValue * 2), threads: 2, color: .bt709,
                options: videoOptions
            ))
        let videoStream = includeVideo ? try output.addStream(for: video) : -1
        if rotation != 0, includeVideo { try output.setRotation(streamIndex: videoStream, degrees: rotation) }
        var audioEncoder: Encoder? = nil
        var audioStream = -1
        if let audio {
            let encoder = try Encoder(
                EncoderSettings(
                    codec: "aac", kind: .audio(sampleRate: audio.sampleRate, channels: audio.channels),
                    timeBase: Rational(1, Int32(audio.sampleRate)), bitRate: 96_000
                ))
            audioStream = try output.addStream(for: encoder)
            audioEncoder = encoder
        }
        try output.writeHeader(options: container == "mp4" ? [("movflags", "+faststart")] : [])

        let frameCount = Int((seconds * fps.doubleValue).rounded())
        let picture = try Frame(width: width, height: height, pixelFormat: tenBit ? .yuv420p10 : .yuv420p)
        picture.colorDescription = .bt709
        let packet = try Packet()
        var audioSamples = 0
        var pts: Int64 = 0
        for index in 0..<frameCount {
            switch content {
            case .testPattern:
                try picture.fillTestPattern(index: index, brightness: index < blackLeadInFrames ? 0 : 1)
            case .greyPerSecond:
                let luma = Self.luma(second: Int(Double(index) / fps.doubleValue))
                try picture.fillPlanes { plane, _, _ in plane == 0 ? luma : 128 }
            case .brightLeftHalf:
                let half = width / 2
                try picture.fillPlanes { plane, x, _ in plane == 0 ? (x < half ? 235 : 16) : 128 }
            case .stillPattern:
                if index == 0 { try picture.fillTestPattern(index: 0) }
            case .noise:
                try picture.fillPlanes { plane, x, y in Self.noise(x, y, index * 3 + plane) }
            case .stillEvenSecondsNoiseOdd:
                if Int(Double(index) / fps.doubleValue) % 2 == 0 {
                    try picture.fillTestPattern(index: 0)
                } else {
                    try picture.fillPlanes { plane, x, y in Self.noise(x, y, index * 3 + plane) }
                }
            }
            picture.pts = pts
            let nominal = fps.inverted.rescale(1, to: videoTimeBase)
            pts += variableFrameRate ? (index % 3 == 0 ? nominal * 3 / 2 : nominal * 3 / 4) : nominal
            if includeVideo { try send(picture, to: video, stream: videoStream, output: output, packet: packet) }
            if let audioEncoder {
                let videoTime = Double(index + 1) / fps.doubleValue
                while Double(audioSamples) / Double(audioEncoder.sampleRate) < videoTime {
                    let frame = try Frame(
                        sampleCount: audioEncoder.frameSize, sampleFormatRaw: audioEncoder.sampleFormatRaw,
                        channels: audio!.channels, sampleRate: audioEncoder.sampleRate
                    )
                    try frame.fillSine(frequency: 440, start: audioSamples)
                    frame.pts = Int64(audioSamples)
                    audioSamples += audioEncoder.frameSize
                    try send(frame, to: audioEncoder, stream: audioStream, output: output, packet: packet)
                }
            }
        }
        if includeVideo { try send(nil, to: video, stream: videoStream, output: output, packet: packet) }
        if let audioEncoder { try send(nil, to: audioEncoder, stream: audioStream, output: output, packet: packet) }
        try output.writeTrailer()
    }

    private func send(
        _ frame: Frame?, to encoder: Encoder, stream: Int, output: OutputContext, packet: Packet
    ) throws(AVError) {
        _ = try encoder.send(frame)
        while try encoder.receive(into: packet) == .output {
            packet.streamIndex = stream
            packet.rescale(from: encoder.timeBase, to: try output.timeBase(ofStream: stream))
            try output.write(packet)
        }
    }
}

/// A fixture that could not be generated.
package struct SyntheticMediaError: Error, CustomStringConvertible {
    package var path: String
    package var message: String
    package var description: String { "generating \(path): \(message)" }
}
