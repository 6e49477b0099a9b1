internal import FileSystem
internal import MediaStore
internal import ObjectStore

extension S3MediaStore {
    /// `body`, its `ObjectStoreError` (or, reading the local `file`, its open error) turned into the store's case.
    func mapping<T>(_ key: String, file: String? = nil, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ObjectStoreError {
            throw Self.storeError(error, key: key)
        } catch let error as ReadOnlyFile.OpenError {
            if case .failed(let failure) = error, failure.isNotFound {
                throw MediaStoreError.notFound(key: file ?? key)
            }
            throw MediaStoreError.failed("\(file ?? key): \(error)")
        } catch let error as FileSystemError {
            if error.isNotFound { throw MediaStoreError.notFound(key: file ?? key) }
            throw error.isTransient ? MediaStoreError.unavailable("\(error)") : MediaStoreError.failed("\(error)")
        }
    }

    /// The store's case for an S3 failure on `key`.
    static func storeError(_ error: ObjectStoreError, key: String) -> MediaStoreError {
        switch error.reason {
        case .notFound: .notFound(key: key)
        case .preconditionFailed: .alreadyExists(key: key)
        case .badKey: .badKey(MediaKey.quoted(key), problem: error.description)
        case .unavailable: .unavailable(error.description)
        case .refused where error.status == 416: .rangeNotSatisfiable(key: key, size: 0)
        default: .failed(error.description)
        }
    }

    static func info(_ info: ObjectInfo) -> MediaObjectInfo {
        MediaObjectInfo(
            key: info.key, size: info.size, etag: info.etag, lastModified: info.lastModified,
            modifiedSeconds: info.modifiedSeconds, contentType: info.contentType, cacheControl: info.cacheControl,
            metadata: info.metadata)
    }

    /// `bytes first-last/size` as the range and the whole object's size; nil for anything else.
    static func parseContentRange(_ text: String) -> (ClosedRange<Int64>, Int64)? {
        guard text.hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/")
        guard parts.count == 2, let size = Int64(parts[1]) else { return nil }
        let bounds = parts[0].split(separator: "-")
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first <= last else {
            return nil
        }
        return (first...last, size)
    }
}
