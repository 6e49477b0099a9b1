internal import CFFmpeg

/// Moving packed RGBA pixels in and out of frames, for still-image work that hands pixels to other libraries.
extension Frame {
    /// A new `rgba` frame holding a copy of tightly packed RGBA pixels.
    package convenience init(rgba pixels: [UInt8], width: Int, height: Int) throws(AVError) {
        guard pixels.count >= width * height * 4 else {
            throw AVError(
                function: "Frame(rgba:)", message: "\(pixels.count) bytes is too few for \(width)x\(height) RGBA")
        }
        try self.init(width: width, height: height, pixelFormat: .rgba)
        let stride = linesize(0)
        let plane = CFFmpeg_frame_plane(pointer, 0)!
        pixels.withUnsafeBufferPointer { source in
            for y in 0..<height {
                (plane + y * stride).update(from: source.baseAddress! + y * width * 4, count: width * 4)
            }
        }
    }

    /// The picture as tightly packed RGBA, converting from whatever the decoder produced (palette, 16-bit, grey, YUV).
    package func packedRGBA() throws(AVError) -> [UInt8] {
        let source: Frame
        if pixelFormat == .rgba {
            source = self
        } else {
            let converter = try Scaler(
                inputWidth: width, inputHeight: height, inputFormat: pixelFormat,
                outputWidth: width, outputHeight: height, outputFormat: .rgba, filter: .lanczos
            )
            try converter.readInput(as: colorDescription)
            source = try converter.scale(self)
        }
        let stride = source.linesize(0)
        let plane = CFFmpeg_frame_plane(source.pointer, 0)!
        let width = self.width, height = self.height
        return [UInt8](unsafeUninitializedCapacity: width * height * 4) { target, count in
            for y in 0..<height {
                (target.baseAddress! + y * width * 4).initialize(from: plane + y * stride, count: width * 4)
            }
            count = width * height * 4
        }
    }

    /// The ICC profile the decoder attached (PNG iCCP, JPEG APP2, WebP ICCP), if any.
    package var iccProfile: [UInt8]? {
        guard let data = av_frame_get_side_data(pointer, AV_FRAME_DATA_ICC_PROFILE), data.pointee.size > 0 else {
            return nil
        }
        return Array(UnsafeBufferPointer(start: data.pointee.data, count: Int(data.pointee.size)))
    }
}
