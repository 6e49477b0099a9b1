/// Why `reel upload` stopped short of a published video, and the exit code that says so (sysexits where one fits).
///
/// One place decides rejected / refused token / unavailable / failed / interrupted; callers match on `kind`,
/// never on the message.
package struct UploadError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The file was refused, locally or by the server: another attempt would end the same way (exit 65).
        case rejected(code: String)
        /// The server refused the token (401/403): a configuration problem (exit 77, EX_NOPERM).
        case unauthorized
        /// The server could not be reached, or kept answering "busy", through every retry (exit 69, EX_UNAVAILABLE).
        case unavailable
        /// The server or this side failed in a way retrying will not fix (exit 70, EX_SOFTWARE).
        case failed(code: String)
        /// Stopped by SIGINT/SIGTERM; the resume entry stays (exit 130).
        case interrupted
    }

    package let kind: Kind
    /// A sentence saying what was wrong, which limit, and which file or request.
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The process exit code for this error.
    package var exitCode: Int32 {
        switch kind {
        case .rejected: 65
        case .unauthorized: 77
        case .unavailable: 69
        case .failed: 70
        case .interrupted: 130
        }
    }

    /// The machine-readable code for JSON output.
    package var code: String {
        switch kind {
        case let .rejected(code), let .failed(code): code
        case .unauthorized: "unauthorized"
        case .unavailable: "unavailable"
        case .interrupted: "interrupted"
        }
    }

    package var description: String { "\(code): \(message)" }
}
