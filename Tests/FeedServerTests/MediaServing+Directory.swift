import FeedServer
import MediaStoreDirectory

extension MediaServing {
    /// `/media/` from the library directory at `root`, as `reel serve` makes it.
    static func directory(_ root: String) throws -> MediaServing {
        MediaServing(store: try DirectoryMediaStore(root: root, linkableFolders: MediaLibrary.publicRoots))
    }
}
