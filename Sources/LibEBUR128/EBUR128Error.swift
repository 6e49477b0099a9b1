internal import CEbur128

/// A failed libebur128 call: which call failed and libebur128's reason.
package struct EBUR128Error: Error, CustomStringConvertible, Sendable, Equatable {
    /// The libebur128 function that failed, e.g. `ebur128_add_frames_float`.
    package let function: String
    /// libebur128's error code (`EBUR128_ERROR_*`), or nil when the call returns no code (a NULL state).
    package let code: Int32?
    /// What went wrong.
    package let message: String

    package init(function: String, code: Int32? = nil, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    package var description: String { "\(function) failed: \(message)" }

    /// The words for one of libebur128's error codes.
    static func describe(_ code: Int32) -> String {
        switch code {
        case Int32(EBUR128_ERROR_NOMEM.rawValue): "out of memory"
        case Int32(EBUR128_ERROR_INVALID_MODE.rawValue): "the state was not made with the mode this call needs"
        case Int32(EBUR128_ERROR_INVALID_CHANNEL_INDEX.rawValue): "no such channel"
        case Int32(EBUR128_ERROR_NO_CHANGE.rawValue): "nothing changed"
        default: "error \(code)"
        }
    }
}

/// Every libebur128 call that returns a status goes through here, so its error names the call.
@discardableResult
func check(_ status: Int32, _ function: String) throws(EBUR128Error) -> Int32 {
    guard status == Int32(EBUR128_SUCCESS.rawValue) else {
        throw EBUR128Error(function: function, code: status, message: EBUR128Error.describe(status))
    }
    return status
}
