/// One byte range of an object, as HTTP's `Range: bytes=...` names them, before the object's size is known.
package enum MediaByteRange: Sendable, Equatable {
    /// `first-last`, both inclusive.
    case span(first: Int64, last: Int64)
    /// `first-`: from `first` to the end.
    case from(Int64)
    /// `-count`: the last `count` bytes.
    case suffix(Int64)

    /// The bytes this range covers in an object of `size` bytes (a `last` past the end is cut to it), or nil when it
    /// covers none: the range is then not satisfiable (HTTP 416).
    package func resolved(size: Int64) -> ClosedRange<Int64>? {
        switch self {
        case .span(let first, let last):
            guard first >= 0, first <= last, first < size else { return nil }
            return first...min(last, size - 1)
        case .from(let first):
            guard first >= 0, first < size else { return nil }
            return first...(size - 1)
        case .suffix(let count):
            guard count > 0, size > 0 else { return nil }
            return max(size - count, 0)...(size - 1)
        }
    }

    /// The `Range` header's value: `bytes=first-last`, `bytes=first-` or `bytes=-count`.
    package var headerValue: String {
        switch self {
        case .span(let first, let last): "bytes=\(first)-\(last)"
        case .from(let first): "bytes=\(first)-"
        case .suffix(let count): "bytes=-\(count)"
        }
    }
}
