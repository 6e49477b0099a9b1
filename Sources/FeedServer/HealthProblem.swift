/// Why `/healthz` answers 503: a stable code and a sentence for the operator.
package struct HealthProblem: Sendable, Equatable {
    package var code: String
    package var message: String

    package init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The library's file system is full, so uploads wait in the inbox. The message names no path: `/healthz` is
    /// on the public port, and the worker's log says which file system it is.
    package static func diskFull(availableBytes: Int64, requiredBytes: Int64) -> HealthProblem {
        HealthProblem(
            code: "disk_full",
            message: "the library's file system has \(availableBytes) bytes free and the worker "
                + "needs \(requiredBytes); uploads wait in the inbox until space is freed")
    }
}
