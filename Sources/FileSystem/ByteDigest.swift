internal import CFileSystem

#if canImport(Glibc)
    internal import Glibc
#endif

/// SHA-256 of bytes already in memory (an upload chunk's `Upload-Checksum`), through the same libcrypto as
/// `ContentHash`, which digests whole files and answers in hex.
public enum ByteDigest {
    /// The 32-byte SHA-256 digest of `bytes`.
    /// - Throws: `FileSystemError` naming the libcrypto call when a digest context cannot be made or initialised.
    public static func sha256(_ bytes: some Collection<UInt8>) throws(FileSystemError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw FileSystemError("EVP_MD_CTX_new", "(sha256)", code: ENOMEM) }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw FileSystemError("EVP_DigestInit_ex", "(sha256)", code: EINVAL)
        }
        let updated: Int32? = bytes.withContiguousStorageIfAvailable { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return 1 }
            return EVP_DigestUpdate(context, base, buffer.count)
        }
        if updated == nil {
            let copy = Array(bytes)
            guard
                copy.withUnsafeBytes({ raw in
                    raw.count == 0 || EVP_DigestUpdate(context, raw.baseAddress!, raw.count) == 1
                })
            else { throw FileSystemError("EVP_DigestUpdate", "(sha256)", code: EINVAL) }
        } else if updated != 1 {
            throw FileSystemError("EVP_DigestUpdate", "(sha256)", code: EINVAL)
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else {
            throw FileSystemError("EVP_DigestFinal_ex", "(sha256)", code: EINVAL)
        }
        return Array(digest.prefix(Int(length)))
    }
}
