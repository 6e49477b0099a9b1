internal import CFFmpeg

/// A failed libav call: the libav code, libav's own message, and which call failed.
package struct AVError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The negative libav error code.
    package let code: Int32
    /// The libav function that returned the error, e.g. `avcodec_open2`.
    package let function: String
    /// `av_strerror`'s text for the code.
    package let message: String

    package init(code: Int32, function: String) {
        self.code = code
        self.function = function
        self.message = AVError.describe(code)
    }

    /// An error raised by the wrapper itself (allocation failure, refused parameter) naming the call it guards.
    package init(function: String, message: String, code: Int32 = -1) {
        self.code = code
        self.function = function
        self.message = message
    }

    package var description: String { "\(function) failed: \(message) (\(code))" }

    package var isEndOfFile: Bool { code == CFFmpeg_AVERROR_EOF() }

    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        CFFmpeg_err2str(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Runs a libav call's result through one place: negative codes become `AVError` naming the call.
@discardableResult
func check(_ result: Int32, _ function: String) throws(AVError) -> Int32 {
    if result < 0 { throw AVError(code: result, function: function) }
    return result
}

/// Non-null check for libav allocators, which report failure by returning NULL.
func allocated<T>(_ pointer: T?, _ function: String) throws(AVError) -> T {
    guard let pointer else {
        throw AVError(function: function, message: "allocation failed", code: CFFmpeg_AVERROR(ENOMEM))
    }
    return pointer
}
