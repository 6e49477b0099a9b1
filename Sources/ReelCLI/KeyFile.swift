import ArgumentParser
import FeedServer
import FileSystem
import Logging
import NIOPosix

/// A file of HMAC keys (one hex key per line, the first signs), as `reel serve` keeps them for viewers' session tokens
/// and for private posts' signed URLs.
enum KeyFile {
    /// The keys at `path`, which is made (0600, one random key) when missing; with no path, a random key in memory,
    /// with a warning: what it signs dies with the process and no other host takes it. The file is read on NIO's
    /// thread pool, not on Swift's. A file that cannot be made because the disk is full gives a key in memory, with
    /// a warning: the server still starts and serves.
    /// - Throws: `ValidationError` for a file that cannot be read or made, is open to others, or holds no key.
    static func keys(at path: String?, purpose: String, logger: Logger) async throws -> ViewerSessionKeys {
        guard let path else {
            logger.warning(
                "no key file: \(purpose) are signed with a key of this process only, so a restart or another host refuses them"
            )
            return ViewerSessionKeys.random()
        }
        let read = try await NIOThreadPool.singleton.runIfActive { () -> Result<([UInt8], Bool), SecretFile.Failure> in
            do throws(SecretFile.Failure) {
                return .success(try SecretFile.readOrCreate(path) { ViewerSessionKeys.makeKeyFile() })
            } catch {
                return .failure(error)
            }
        }
        let bytes: [UInt8], created: Bool
        switch read {
        case let .success(file): (bytes, created) = file
        case let .failure(.failed(error)) where error.isDiskFull:
            logger.warning(
                "cannot make the key file, the disk is full: \(purpose) are signed with a key of this process only until a restart with space",
                metadata: ["path": "\(path)", "error": "\(error)"])
            return ViewerSessionKeys.random()
        case let .failure(error): throw ValidationError("key file for \(purpose): \(error)")
        }
        if created { logger.notice("made a key file", metadata: ["path": "\(path)", "purpose": "\(purpose)"]) }
        do { return try ViewerSessionKeys(keyFile: bytes) } catch {
            throw ValidationError("key file \(path): \(error)")
        }
    }
}
