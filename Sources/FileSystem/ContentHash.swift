internal import CFileSystem

#if canImport(Glibc)
internal import Glibc
#endif

/// SHA-256 of a file's bytes, the key that recognises a byte-identical re-upload; also the digests of upload
/// chunks (tus's `Upload-Checksum`: SHA-1, which the protocol requires, and SHA-256). OpenSSL's libcrypto does the
/// digest (hardware SHA extensions where the CPU has them); one context per object, freed in `deinit`.
package final class ContentHash {
    package enum Algorithm: String, Sendable, CaseIterable {
        case sha1, sha256
    }

    private let context: OpaquePointer

    package init(_ algorithm: Algorithm = .sha256) throws(FileSystemError) {
        guard let context = EVP_MD_CTX_new() else {
            throw FileSystemError("EVP_MD_CTX_new", "(\(algorithm))", code: ENOMEM)
        }
        self.context = context
        guard EVP_DigestInit_ex(context, algorithm == .sha1 ? EVP_sha1() : EVP_sha256(), nil) == 1 else {
            throw FileSystemError("EVP_DigestInit_ex", "(\(algorithm))", code: EINVAL)
        }
    }

    deinit { EVP_MD_CTX_free(context) }

    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        // Only fails on a context that was never initialised, which `init` rules out.
        _ = EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest's bytes; the context is spent afterwards.
    package func finishBytes() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &digest, &length)
        return Array(digest.prefix(Int(length)))
    }

    /// The digest as lowercase hex; the context is spent afterwards.
    package func finish() -> String {
        let digest = finishBytes()
        let hex: [Character] = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return text
    }

    /// The digest of bytes in memory (an upload chunk's `Upload-Checksum`).
    package static func digest(
        of bytes: some Collection<UInt8>, _ algorithm: Algorithm = .sha256
    ) throws(FileSystemError) -> [UInt8] {
        let hash = try ContentHash(algorithm)
        if bytes.withContiguousStorageIfAvailable({ hash.update(UnsafeRawBufferPointer($0)) }) == nil {
            Array(bytes).withUnsafeBytes { hash.update($0) }
        }
        return hash.finishBytes()
    }

    /// The digest of a whole file, opened as `ReadOnlyFile` (no symlinks, regular files only).
    package static func sha256(ofFile path: String) throws(ReadOnlyFile.OpenError) -> String {
        let file = try ReadOnlyFile(path: path)
        let hash: ContentHash
        do { hash = try ContentHash() } catch { throw .failed(error) }
        do { try file.forEachBlock { hash.update($0) } } catch { throw .failed(error) }
        return hash.finish()
    }
}
