internal import FileSystem

/// Reads a ladder from the local disk through `ReadOnlyFile`: regular files only, never through a symlink.
package struct LocalFiles: HLSResourceReader {
    package init() {}

    package func resolve(_ uri: String, against base: String) -> String {
        if uri.contains("://") { return uri }
        let joined = uri.hasPrefix("/") ? uri : Self.directory(of: base) + "/" + uri
        return Self.normalized(joined)
    }

    package func size(of location: String) throws(HLSResourceError) -> Int64 {
        try open(location).size
    }

    package func read(_ location: String, offset: Int64, count: Int) throws(HLSResourceError) -> [UInt8] {
        let file = try open(location)
        do { return try file.read(count: count, at: offset) } catch {
            throw HLSResourceError(location: location, reason: error.description, isNotFound: false)
        }
    }

    private func open(_ location: String) throws(HLSResourceError) -> ReadOnlyFile {
        guard !location.contains("://") else {
            throw HLSResourceError(location: location, reason: "not a local path", isNotFound: true)
        }
        do { return try ReadOnlyFile(path: location) } catch {
            if case let .failed(failure) = error, failure.isNotFound {
                throw HLSResourceError(location: location, reason: "no such file", isNotFound: true)
            }
            throw HLSResourceError(location: location, reason: error.description, isNotFound: false)
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "" : String(path[..<slash])
    }

    /// Removes `.` and resolves `..` lexically, as a URL resolver would.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
