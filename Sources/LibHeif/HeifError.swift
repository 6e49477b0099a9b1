internal import CHeif

/// A failed libheif call, naming the call and libheif's message.
package struct HeifError: Error, CustomStringConvertible, Sendable, Equatable {
    package let function: String
    package let message: String

    package init(function: String, message: String) {
        self.function = function
        self.message = message
    }

    package var description: String { "\(function) failed: \(message)" }
}

/// Runs a libheif result through one place: any code but `heif_error_Ok` becomes `HeifError` naming the call.
func check(_ result: heif_error, _ function: String) throws(HeifError) {
    guard result.code != heif_error_Ok else { return }
    let message = result.message.map { String(cString: $0) } ?? "error \(result.code.rawValue)"
    throw HeifError(function: function, message: message)
}
