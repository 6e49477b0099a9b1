/// A failed zlib call: which call failed and zlib's reason.
package struct ZlibError: Error, CustomStringConvertible, Sendable, Equatable {
    package let function: String
    package let code: Int32
    package let message: String

    package var description: String { "\(function) failed (\(code)): \(message)" }
}
