import ArgumentParser
import Catalog
import CatalogEngines
import FeedServer
import Foundation
import Logging
import MediaStore
import MediaStoreDirectory
import MediaStoreS3
import ObjectStore

extension Reel {
    /// `reel delete ID`: an operator's deletion of a post, as `DELETE /v1/videos/{id}` with an admin token does.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a post: out of the feed at once, its files, original, viewer events and job gone.",
            discussion: """
                The catalog keeps a tombstone (the id, the time and --reason, never the post's content) for \
                reel serve's --tombstone-retention-days. A second deletion changes nothing. A deletion cut off \
                after the catalog's commit is finished by running it again, or by reel serve.
                """)
        @Argument(help: "The post's id (a video id, as in the feed).") var id: String
        @OptionGroup var database: DatabaseOption
        @Option(
            name: .long,
            help: ArgumentHelp("The library: a directory, or s3://bucket/prefix.", valueName: "dir|url"))
        var library: String
        @Option(name: .long, help: "Why, as a code kept in the tombstone (letters, digits, _ and -).")
        var reason = "admin"
        @Flag(name: .long, help: "Print what was removed as JSON.") var json = false
        @OptionGroup var objectStore: ObjectStoreOptions

        func validate() throws {
            guard !reason.isEmpty, reason.count <= 40,
                reason.utf8.allSatisfy({
                    (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F || $0 == 0x2D
                })
            else {
                throw ValidationError("--reason must be 1 to 40 of a-z, 0-9, _ and -, not \"\(reason.prefix(60))\"")
            }
        }

        func run() async throws {
            // What was removed is printed; the log says only what went wrong.
            let logger = {
                var logger = Logger(label: "reel.delete")
                logger.logLevel = .warning
                return logger
            }()
            let (id, reason, library) = (self.id, self.reason, self.library)
            let location = try database.location()
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let outcome: PostDeleter.Outcome
            if S3Location.isS3(library) {
                let client = try await objectStore.client(try objectStore.location(library))
                outcome = try await client.shutDown { client in
                    try await CatalogOpener.with(location, connections: 1, logger: logger) { catalog in
                        try await PostDeleter(
                            catalog: catalog, library: S3MediaStore(client: client),
                            uploads: S3ResumableUploads(client: client), logger: logger
                        ).delete(id: id, reason: reason, now: now)
                    }
                }
            } else {
                let store = try DirectoryMediaStore(root: library)
                let uploads = try DirectoryResumableUploads(library: library)
                outcome = try await CatalogOpener.with(location, connections: 1, logger: logger) { catalog in
                    try await PostDeleter(catalog: catalog, library: store, uploads: uploads, logger: logger)
                        .delete(id: id, reason: reason, now: now)
                }
            }
            switch outcome {
            case .notFound:
                throw ValidationError("no post \"\(id)\" in \(location): nothing was deleted")
            case let .alreadyDeleted(tombstone):
                printError(
                    "post \(id) was already deleted at \(TokenRow.iso(tombstone.deletedAt)) (\(tombstone.reason)); "
                        + "nothing more to remove")
            case let .deleted(report):
                if json {
                    print(String(decoding: DeletionBody.json(report), as: UTF8.self))
                    return
                }
                var removed = ["\(report.media.objects) of its files"]
                if report.media.original { removed.append("its original") }
                removed.append("\(report.rows.viewerEvents) viewer events")
                if report.rows.stats { removed.append("its figures") }
                if report.rows.job { removed.append("its job") }
                print(
                    "post \(id) deleted (\(reason)): \(report.rows.video ? "out of the feed; " : "")"
                        + removed.joined(separator: ", ") + " removed")
            }
        }
    }
}
