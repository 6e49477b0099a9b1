internal import CZlib

/// Owns one zlib deflate stream that writes gzip (RFC 1952), reset between inputs. Not thread-safe: one user at a
/// time.
package final class GzipCompressor {
    private var stream = z_stream()

    /// - Parameter level: 1 (fastest) to 9 (smallest).
    package init(level: Int32 = 6) throws(ZlibError) {
        let code = CZlib_DeflateInitGzip(&stream, level)
        guard code == Z_OK else { throw Self.error("deflateInit2", code, &stream) }
    }

    deinit { deflateEnd(&stream) }

    /// `input` as one gzip member.
    package func compress(_ input: [UInt8]) throws(ZlibError) -> [UInt8] {
        let reset = deflateReset(&stream)
        guard reset == Z_OK else { throw Self.error("deflateReset", reset, &stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        let result: Int32 = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        stream.next_in = nil
        stream.next_out = nil
        // deflateBound is an upper bound for one Z_FINISH call, so anything but the end is zlib's own failure.
        guard result == Z_STREAM_END else { throw Self.error("deflate", result, &stream) }
        output.removeLast(Int(stream.avail_out))
        return output
    }

    private static func error(_ function: String, _ code: Int32, _ stream: inout z_stream) -> ZlibError {
        let message = stream.msg.map { String(cString: $0) } ?? String(cString: zError(code))
        return ZlibError(function: function, code: code, message: message)
    }
}
