/// Why `reel library copy` stopped, beyond what either store threw (a `MediaStoreError` passes as it is). The message
/// names both sides, their sizes and hashes.
package struct LibraryCopyError: Error, CustomStringConvertible, Sendable, Equatable {
    package enum Reason: String, Sendable, Equatable {
        /// The destination already holds other bytes at the key: nothing was replaced.
        case differs
        /// The source's bytes do not match the hash recorded with them: damaged, or rewritten by another tool.
        case damaged
        /// The object just written does not read back with the source's size and hash; it was removed again.
        case doesNotReadBack = "does_not_read_back"
    }

    package let reason: Reason
    package let description: String

    package init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }

    /// Worth running the copy again: only a write that did not read back (it was removed, so the key is free).
    package var isRetryable: Bool { reason == .doesNotReadBack }
}
