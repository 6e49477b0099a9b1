internal import CFFmpeg

#if REEL_TEST_HOOKS

/// Generated pictures and sounds, for test media (the pattern loop of FFmpeg's encode_video.c): debug builds only.
extension Frame {
    /// Fills a YUV 4:2:0 picture (8- or 10-bit) with a moving gradient and checkerboard, so encoders have real work.
    /// `brightness` scales luma (0 gives a black frame).
    package func fillTestPattern(index: Int, brightness: Double = 1) throws(AVError) {
        try makeWritable()
        let deep = pixelFormat.bitDepth > 8
        let maxValue = deep ? 1023 : 255
        forEachSample { plane, x, y, row in
            var value: Int
            if plane == 0 {
                let checker = ((x / 32 + y / 32 + index / 4) & 1) * 48
                value = Int(Double(((x + y * 2 + index * 4) & 0xFF) / 2 + 40 + checker) * brightness)
            } else if plane == 1 {
                value = 128 + ((x + index) & 0x3F) - 32
            } else {
                value = 128 + ((y + index * 2) & 0x3F) - 32
            }
            if deep {
                let sample = UInt16(min(maxValue, value * 4))
                row.advanced(by: x * 2).withMemoryRebound(to: UInt16.self, capacity: 1) {
                    $0.pointee = sample.littleEndian
                }
            } else {
                row[x] = UInt8(clamping: min(maxValue, value))
            }
        }
    }

    /// Visits every sample of a 4:2:0 picture's three planes (chroma at half size) with its plane's row.
    private func forEachSample(_ body: (_ plane: Int, _ x: Int, _ y: Int, _ row: UnsafeMutablePointer<UInt8>) -> Void) {
        for plane in 0..<3 {
            let w = plane == 0 ? width : (width + 1) / 2
            let h = plane == 0 ? height : (height + 1) / 2
            let base = CFFmpeg_frame_plane(pointer, Int32(plane))!
            let stride = linesize(plane)
            for y in 0..<h {
                let row = base + y * stride
                for x in 0..<w { body(plane, x, y, row) }
            }
        }
    }

    /// Fills an 8-bit YUV 4:2:0 picture sample by sample: `value(plane, x, y)` in each plane's own coordinates
    /// (chroma planes are half size). For pictures whose content a test checks (flat colours, halves).
    package func fillPlanes(_ value: (_ plane: Int, _ x: Int, _ y: Int) -> UInt8) throws(AVError) {
        guard pixelFormat == .yuv420p || pixelFormat == .yuvj420p else {
            throw AVError(function: "fillPlanes", message: "needs 8-bit yuv420p, got \(pixelFormat)")
        }
        try makeWritable()
        forEachSample { plane, x, y, row in row[x] = value(plane, x, y) }
    }

    /// Fills a planar-float audio frame with a sine tone starting at sample `start`.
    package func fillSine(frequency: Double, start: Int) throws(AVError) {
        try makeWritable()
        guard pointer.pointee.format == AV_SAMPLE_FMT_FLTP.rawValue else {
            throw AVError(function: "fillSine", message: "needs planar float samples")
        }
        for channel in 0..<channelCount {
            let plane = CFFmpeg_frame_plane(pointer, Int32(channel))!
            plane.withMemoryRebound(to: Float.self, capacity: sampleCount) { samples in
                for i in 0..<sampleCount {
                    let t = Double(start + i) / Double(sampleRate)
                    samples[i] = Float(0.3 * sin(2 * Double.pi * frequency * t * Double(channel + 1)))
                }
            }
        }
    }
}

extension Frame {
    /// Fills a packed RGBA picture with a gradient; with `alpha`, transparency falls from left to right.
    /// Fills an `rgba` or `rgb24` frame with a gradient and checkerboard; `alpha` ramps transparency left to right.
    package func fillRGBAPattern(alpha: Bool) throws(AVError) {
        try makeWritable()
        let channels = pixelFormat == .rgba ? 4 : pixelFormat == .rgb24 ? 3 : 0
        guard channels > 0 else {
            throw AVError(function: "fillRGBAPattern", message: "needs rgba or rgb24, got \(pixelFormat)")
        }
        guard channels == 4 || !alpha else {
            throw AVError(function: "fillRGBAPattern", message: "rgb24 has no alpha channel")
        }
        let base = CFFmpeg_frame_plane(pointer, 0)!
        let stride = linesize(0)
        for y in 0..<height {
            let row = base + y * stride
            for x in 0..<width {
                row[x * channels] = UInt8((x * 255) / max(1, width - 1))
                row[x * channels + 1] = UInt8((y * 255) / max(1, height - 1))
                row[x * channels + 2] = UInt8(((x / 8 + y / 8) & 1) * 200)
                if channels == 4 { row[x * 4 + 3] = alpha ? UInt8(255 - (x * 255) / max(1, width - 1)) : 255 }
            }
        }
    }
}

extension Frame {
    /// A `pal8` copy of an `rgba` frame: its distinct colours become the palette (alpha included, so PNG writes
    /// tRNS and GIF a transparent index). Fails when there are more than 256 colours; fixtures stay simple.
    package func palettized() throws(AVError) -> Frame {
        guard pixelFormat == .rgba else {
            throw AVError(function: "palettized", message: "needs rgba, got \(pixelFormat)")
        }
        let output = try Frame(width: width, height: height, pixelFormat: .pal8)
        let source = CFFmpeg_frame_plane(pointer, 0)!
        let indices = CFFmpeg_frame_plane(output.pointer, 0)!
        let palette = UnsafeMutableRawPointer(CFFmpeg_frame_plane(output.pointer, 1)!).assumingMemoryBound(
            to: UInt32.self)
        var colours: [UInt32: UInt8] = [:]
        for y in 0..<height {
            for x in 0..<width {
                let p = source + y * linesize(0) + x * 4
                // libav palettes are native-endian ARGB words.
                let argb = UInt32(p[3]) << 24 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                if colours[argb] == nil {
                    guard colours.count < 256 else {
                        throw AVError(function: "palettized", message: "more than 256 colours")
                    }
                    colours[argb] = UInt8(colours.count)
                    palette[colours.count - 1] = argb
                }
                indices[y * output.linesize(0) + x] = colours[argb]!
            }
        }
        return output
    }
}
#endif
