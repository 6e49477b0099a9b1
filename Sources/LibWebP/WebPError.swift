/// A failed libwebp call: which call failed and libwebp's reason.
package struct WebPError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The libwebp function that failed, e.g. `WebPEncode`.
    package let function: String
    /// What went wrong, from libwebp's error code where it gives one.
    package let message: String

    package init(function: String, message: String) {
        self.function = function
        self.message = message
    }

    package var description: String { "\(function) failed: \(message)" }
}
