internal import FileSystem
package import Foundation
package import Transcode

#if canImport(Glibc)
internal import Glibc
#endif

/// Where `reel upload` remembers unfinished uploads between runs: one JSON entry per (file content, server, tier),
/// written atomically, and for compressed uploads the compressed MP4 beside it, so a resume sends identical bytes.
///
/// The token is never written here. Entries are removed when their upload completes.
package struct ResumeStore: Sendable {
    /// One remembered upload.
    package struct Entry: Codable, Sendable, Equatable {
        /// The absolute tus upload URL the server gave.
        package var uploadURL: String
        package var server: String
        /// The file the user named (the source, also for compressed uploads).
        package var source: String
        /// SHA-256 (hex) of the source file's content.
        package var contentSHA256: String
        /// Bytes declared in `Upload-Length`.
        package var length: Int64
        /// The compress tier, for compressed uploads.
        package var quality: String?

        package init(
            uploadURL: String, server: String, source: String, contentSHA256: String, length: Int64, quality: String?
        ) {
            self.uploadURL = uploadURL
            self.server = server
            self.source = source
            self.contentSHA256 = contentSHA256
            self.length = length
            self.quality = quality
        }

        enum CodingKeys: String, CodingKey {
            case server, source, length, quality
            case uploadURL = "upload_url"
            case contentSHA256 = "content_sha256"
        }
    }

    package let directory: String

    package init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_CACHE_HOME/reel/uploads`, else `$HOME/.cache/reel/uploads`; nil when neither variable is set.
    package static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String?
    {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/reel/uploads" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/reel/uploads" }
        return nil
    }

    /// The entry's key: SHA-256 (hex) over the content hash, the server URL and the tier (nil for original bytes).
    /// - Throws: `UploadError` `.failed(digest_failed)` when libcrypto cannot make a digest.
    package static func key(
        contentSHA256: String, server: URL, quality: CompressPreset.Quality?
    ) throws(UploadError)
        -> String
    {
        let text = "reel-upload-v1\n\(server.absoluteString)\n\(contentSHA256)\n\(quality?.rawValue ?? "original")"
        let digest: [UInt8]
        do { digest = try ContentHash.digest(of: Array(text.utf8)) } catch {
            throw UploadError(.failed(code: "digest_failed"), "cannot hash the resume key: \(error)")
        }
        return digest.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    package func entryPath(_ key: String) -> String { directory + "/" + key + ".json" }

    /// The compressed MP4 kept for a compressed upload until it completes.
    package func compressedPath(_ key: String) -> String { directory + "/" + key + ".mp4" }

    /// The remembered entry, or nil when there is none. An unreadable or corrupt entry is removed and reported as nil.
    package func load(_ key: String) -> Entry? {
        let path = entryPath(key)
        guard let bytes = try? ReadOnlyFile.contents(of: path, limit: 64 << 10) else { return nil }
        guard let entry = try? JSONDecoder().decode(Entry.self, from: Data(bytes)) else {
            _ = unlink(path)
            return nil
        }
        return entry
    }

    /// Writes the entry atomically and durably (a crash leaves the old entry or the new one).
    /// - Throws: `UploadError` `.failed(cache_unwritable)` naming the cache directory or file.
    package func save(_ entry: Entry, key: String) throws(UploadError) {
        do {
            try Directory.create(directory)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data: Data
            do { data = try encoder.encode(entry) } catch {
                throw UploadError(.failed(code: "cache_unwritable"), "cannot encode the resume entry: \(error)")
            }
            try AtomicFile.write(Array(data), to: entryPath(key))
        } catch let error as UploadError {
            throw error
        } catch {
            throw UploadError(
                .failed(code: "cache_unwritable"),
                "cannot remember the upload in \(directory) (set XDG_CACHE_HOME to a writable directory): \(error)")
        }
    }

    /// Forgets the upload URL but keeps a compressed file, so a new upload sends the same bytes.
    package func remove(entryOnly key: String) {
        _ = unlink(entryPath(key))
    }

    /// Forgets the upload: removes the entry and any compressed file kept for it.
    package func remove(_ key: String) {
        _ = unlink(entryPath(key))
        _ = unlink(compressedPath(key))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
