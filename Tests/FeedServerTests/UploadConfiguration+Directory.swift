import MediaModel
import MediaStoreDirectory

@testable import FeedServer

extension UploadConfiguration {
    /// Uploads into the library directory `library` (made as needed), as `reel serve --library <dir>` has them.
    init(library: String, limits: AdmissionLimits) throws {
        self.init(uploads: try DirectoryResumableUploads(library: library), limits: limits)
    }
}
