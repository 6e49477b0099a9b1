/// What `MediaStore.get` answers: the object's facts and, unless the caller's tag matched, its bytes.
package struct MediaRead: Sendable {
    package enum Status: Sendable, Equatable {
        /// The whole object.
        case whole
        /// Only `range` of it (offsets into the whole object, inclusive).
        case partial(ClosedRange<Int64>)
        /// The caller's `ifNoneMatch` matched: no body.
        case notModified
    }

    package let status: Status
    /// The whole object's facts (`size` is the whole object's, not the range's).
    package let info: MediaObjectInfo
    package let body: MediaBody

    package init(status: Status, info: MediaObjectInfo, body: MediaBody) {
        self.status = status
        self.info = info
        self.body = body
    }

    /// How many bytes the body holds.
    package var contentLength: Int64 {
        switch status {
        case .whole: info.size
        case .partial(let range): range.count == 0 ? 0 : range.upperBound - range.lowerBound + 1
        case .notModified: 0
        }
    }

    /// `bytes first-last/size` for a partial answer, nil otherwise.
    package var contentRange: String? {
        guard case .partial(let range) = status else { return nil }
        return "bytes \(range.lowerBound)-\(range.upperBound)/\(info.size)"
    }
}
