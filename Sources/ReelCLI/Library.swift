import ArgumentParser
import FileSystem
import Foundation
import MediaStoreCopy
import NIOPosix
import ObjectStore
import Synchronization

extension Reel {
    /// `reel library`: the media library's storage.
    struct Library: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "library", abstract: "Media library storage.", subcommands: [Copy.self])

        /// `reel library copy --from DIR --to s3://...` (or back).
        struct Copy: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Copy a library directory into S3-compatible object storage, or back.",
                discussion: """
                    Copies videos/, images/, originals/, rejected/ and failed/. Each object records its SHA-256; \
                    after each write the size and hash are checked. Run it again to resume: what is already there \
                    with the same size and hash is skipped, and nothing that differs is ever replaced (the copy \
                    stops and names it). Credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the \
                    profile AWS_PROFILE of ~/.aws/credentials (or AWS_SHARED_CREDENTIALS_FILE), never from the \
                    command line.
                    """)

            @Option(name: .long, help: ArgumentHelp("A library directory or s3://bucket/prefix.", valueName: "dir|url"))
            var from: String
            @Option(name: .long, help: ArgumentHelp("A library directory or s3://bucket/prefix.", valueName: "dir|url"))
            var to: String
            @OptionGroup var store: ObjectStoreOptions

            func validate() throws {
                guard S3Location.isS3(from) != S3Location.isS3(to) else {
                    throw ValidationError("one of --from and --to must be a directory and the other an s3:// URL")
                }
                let directory = S3Location.isS3(from) ? to : from
                if S3Location.isS3(to) {
                    guard Self.isDirectory(directory) else {
                        throw ValidationError("--from \(directory): no such library directory")
                    }
                }
                _ = try location()
            }

            func location() throws -> S3Location { try store.location(S3Location.isS3(from) ? from : to) }

            static func isDirectory(_ path: String) -> Bool {
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            }

            /// Each side's store, built as `serve` and `worker` build their `--library`; a directory to copy into
            /// is made first, and holds the scratch space objects from S3 wait in (`.copy-scratch`, never listed).
            func run() async throws {
                let reporter = LibraryCopyProgress()
                let started = Date()
                let summary: LibraryCopy.Summary
                do {
                    let scratch: String
                    if S3Location.isS3(to) {
                        scratch =
                            FileManager.default.temporaryDirectory.path + "/reel-library-copy-" + UUID().uuidString
                    } else {
                        let to = self.to
                        try await NIOThreadPool.singleton.runIfActive { try Directory.create(to) }
                        scratch = to + "/.copy-scratch"
                    }
                    summary = try await store.withMediaStore(from) { source in
                        try await store.withMediaStore(to) { destination in
                            try await LibraryCopy(from: source, to: destination, scratch: scratch).run {
                                reporter.report($0)
                            }
                        }
                    }
                } catch let error as ValidationError {
                    throw error
                } catch {
                    throw CopyFailed(description: "reel library copy \(from) -> \(to): \(error)")
                }
                printError(
                    String(
                        format:
                            "copied %ld files (%.1f MB), skipped %ld already there, in %.1f s; sizes and hashes match",
                        summary.copied, Double(summary.bytes) / 1e6, summary.skipped, Date().timeIntervalSince(started))
                )
            }
        }
    }
}

/// Progress on stderr: at most one line a second, and the last.
final class LibraryCopyProgress: Sendable {
    private let lastLine = Mutex(Date.distantPast)

    func report(_ progress: LibraryCopy.Progress) {
        let now = Date()
        let due = lastLine.withLock { last in
            guard progress.files == progress.totalFiles || now.timeIntervalSince(last) >= 1 else { return false }
            last = now
            return true
        }
        guard due else { return }
        let percent = progress.totalBytes == 0 ? 100 : progress.bytes * 100 / progress.totalBytes
        printError(
            "copy: \(progress.files)/\(progress.totalFiles) files, \(progress.bytes / 1_000_000)/\(progress.totalBytes / 1_000_000) MB (\(percent) %)"
        )
    }
}
