internal import CFileSystem
#if canImport(Glibc)
internal import Glibc
#endif

/// SHA-256 of a file's bytes, the key that recognises a byte-identical re-upload. OpenSSL's libcrypto does the
/// digest (hardware SHA extensions where the CPU has them); one context per object, freed in `deinit`.
public final class ContentHash {
    private let context: OpaquePointer

    public init() throws(FileSystemError) {
        guard let context = EVP_MD_CTX_new() else { throw FileSystemError("EVP_MD_CTX_new", "(sha256)", code: ENOMEM) }
        self.context = context
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw FileSystemError("EVP_DigestInit_ex", "(sha256)", code: EINVAL)
        }
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        // Only fails on a context that was never initialised, which `init` rules out.
        _ = EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest as lowercase hex; the context is spent afterwards.
    public func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &digest, &length)
        let hex: [Character] = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(Int(length) * 2)
        for byte in digest.prefix(Int(length)) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return text
    }

    /// The digest of a whole file, opened as `ReadOnlyFile` (no symlinks, regular files only).
    public static func sha256(ofFile path: String) throws(ReadOnlyFile.OpenError) -> String {
        let file = try ReadOnlyFile(path: path)
        let hash: ContentHash
        do { hash = try ContentHash() } catch { throw .failed(error) }
        do { try file.forEachBlock { hash.update($0) } } catch { throw .failed(error) }
        return hash.finish()
    }
}
