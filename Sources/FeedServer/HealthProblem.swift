/// Why `/healthz` answers 503: a stable code and a sentence for the operator.
public struct HealthProblem: Sendable, Equatable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// The library's file system is full, so uploads wait in the inbox. The message names no path: `/healthz` is
    /// on the public port, and the worker's log says which file system it is.
    public static func diskFull(availableBytes: Int64, requiredBytes: Int64) -> HealthProblem {
        HealthProblem(
            code: "disk_full",
            message: "the library's file system has \(availableBytes) bytes free and the worker "
                + "needs \(requiredBytes); uploads wait in the inbox until space is freed")
    }
}
