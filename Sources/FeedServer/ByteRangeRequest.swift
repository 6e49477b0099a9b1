internal import Foundation
internal import Hummingbird
internal import MediaStore

/// A parsed `Range: bytes=...` header (one range; several are answered with the whole file, as RFC 9110 allows).
package enum ByteRangeRequest: Equatable {
    case whole
    case partial(ClosedRange<Int>)
    case unsatisfiable

    package init(header: String?, size: Int) {
        guard let header else {
            self = .whole
            return
        }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let spec = trimmed.dropFirst("bytes=".count)
        guard !spec.contains(",") else {
            self = .whole
            return
        }
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            self = .unsatisfiable
            return
        }
        let first = parts[0].trimmingCharacters(in: .whitespaces), last = parts[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            // Suffix range: the last N bytes.
            guard let count = Int(last), count > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .partial(max(0, size - count)...(size - 1))
            return
        }
        guard let start = Int(first), start >= 0, start < size else {
            self = .unsatisfiable
            return
        }
        if last.isEmpty {
            self = .partial(start...(size - 1))
            return
        }
        guard let end = Int(last), end >= start else {
            self = .unsatisfiable
            return
        }
        self = .partial(start...min(end, size - 1))
    }
}

extension ByteRangeRequest {
    /// The range a request asks of `size` bytes tagged `etag` (an `If-Range` with another validator asks for them
    /// all), with its `Range` header as sent, for a 416's message. One reading for files and for held objects.
    init(asking headers: HTTPFields, etag: String, size: Int) {
        var header = headers[.range]
        if let ifRange = headers[.ifRange], ifRange != etag { header = nil }
        self.init(header: header, size: size)
    }
}

extension APIError {
    /// 416 for a range outside `size` bytes, naming the range and carrying `Content-Range: bytes */size`.
    static func rangeOutside(_ header: String?, size: Int) -> APIError {
        APIError(
            .rangeNotSatisfiable, code: "range_not_satisfiable",
            message: "the range \"\((header ?? "").prefix(64))\" is outside this \(size)-byte file",
            headers: [.contentRange: "bytes */\(size)"])
    }
}

extension ByteRangeRequest {
    /// A `Range` header read before the object's size is known, so a store can be asked for the range itself.
    enum Parsed: Equatable {
        /// No single byte range (another unit, or several ranges): the whole object.
        case whole
        case range(MediaByteRange)
        /// Malformed: only the object's size can say how to answer (a 416 names it).
        case needsSize
    }

    /// `header` as `init(header:size:)` reads it, for every size at once.
    static func parse(_ header: String) -> Parsed {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count)
        guard !spec.contains(",") else { return .whole }
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .needsSize }
        let first = parts[0].trimmingCharacters(in: .whitespaces), last = parts[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let count = Int64(last), count > 0 else { return .needsSize }
            return .range(.suffix(count))
        }
        guard let start = Int64(first), start >= 0 else { return .needsSize }
        if last.isEmpty { return .range(.from(start)) }
        guard let end = Int64(last), end >= start else { return .needsSize }
        return .range(.span(first: start, last: end))
    }
}
