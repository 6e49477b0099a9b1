/// A failed TurboJPEG call, naming the call and libjpeg-turbo's message.
package struct TurboJPEGError: Error, CustomStringConvertible, Sendable, Equatable {
    package let function: String
    package let message: String
    /// True when libjpeg-turbo stopped at a warning such as "Premature end of JPEG file" (a truncated file).
    package let isWarning: Bool

    package init(function: String, message: String, isWarning: Bool = false) {
        self.function = function
        self.message = message
        self.isWarning = isWarning
    }

    package var description: String { "\(function) failed: \(message)" }
}
