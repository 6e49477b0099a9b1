internal import Foundation

/// The library's keys, the same whatever keeps it (a directory or object storage). Pure.
///
/// Public: a video's outputs under `videos/<id>.e<epoch>/`, an image at `images/<id>.e<epoch>.webp`. Each claim of a
/// job (its lease epoch) writes keys no other claim can, so a worker fenced out of its lease never touches the outputs
/// of the job's new holder, and the catalog commit decides which claim's outputs are published: a feed row names its
/// own prefix, so rows of a library made before this rule (`videos/<id>/`, `images/<id>.webp`) still serve, and those
/// keys are never swept. Private: the originals (`originals/<id>`), refused and failed uploads (`rejected/<id>`,
/// `failed/<id>`) with their reason files (`<id>.reason.json` beside them), and a tus upload's bookkeeping in
/// object storage (`uploads/<id>/`). Every name is a server-generated id. What one host works on (its inbox's
/// uploads, staging, lock files) is `ScratchLayout`'s.
public struct LibraryLayout: Sendable {
    public static let originals = "originals/"
    public static let videos = "videos/"
    public static let images = "images/"
    public static let rejected = "rejected/"
    public static let failed = "failed/"

    /// A new id for a job, an upload or a token: 20 lowercase hex digits, safe as a file name anywhere.
    public static func newID() -> String {
        String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20))
    }

    /// Whether `text` is an id `newID()` could have made (so a path built from it stays where it belongs).
    public static func isID(_ text: String) -> Bool {
        text.utf8.count == 20 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    public static func original(_ id: String) -> String { originals + id }

    /// An upload's original beside its verdict: `rejected/<id>` or `failed/<id>`.
    public static func verdict(_ id: String, rejected: Bool) -> String { (rejected ? Self.rejected : failed) + id }

    /// `rejected/<id>.reason.json` or `failed/<id>.reason.json`.
    public static func reason(_ id: String, rejected: Bool) -> String {
        verdict(id, rejected: rejected) + ".reason.json"
    }

    /// `rejected/<id>.sidecar.json`: the sidecar that refused its upload (`invalid_metadata`), kept as it came.
    public static func rejectedSidecar(_ id: String) -> String { rejected + id + ".sidecar.json" }

    /// The folder of a video's outputs for one claim, without a trailing `/`.
    public static func video(_ id: String, epoch: Int64) -> String { videos + id + ".e" + String(epoch) }

    public static func image(_ id: String, epoch: Int64) -> String { images + id + ".e" + String(epoch) + ".webp" }

    /// A tus upload in progress keeps two kinds of objects beside its multipart upload (which S3 does not list):
    /// `uploads/<id>/info`, the multipart upload's id, and `uploads/<id>/tail-<offset>`, the acknowledged bytes after
    /// the last full part. Both go once the upload is the job's original, or is terminated or expires.
    public static let uploads = "uploads/"
    public static func uploadInfo(_ id: String) -> String { uploads + id + "/info" }
    public static func uploadTail(_ id: String, offset: Int64) -> String {
        uploads + id + "/tail-" + String(offset)
    }

    /// The id behind `originals/<id>`, or nil for any other key.
    public static func id(ofOriginal key: String) -> String? {
        guard key.hasPrefix(originals) else { return nil }
        let id = String(key.dropFirst(originals.count))
        return isID(id) ? id : nil
    }

    // The directory spelling the upload desk still uses (`LibraryLayout(root:)`): its paths are `ScratchLayout`'s.

    public let root: String

    public init(root: String) { self.root = root }

    public var incoming: String { ScratchLayout(root: root).incoming }
    public var uploads: String { ScratchLayout(root: root).uploads }
    public func incoming(_ id: String) -> String { ScratchLayout(root: root).incoming(id) }
    public func upload(_ id: String) -> String { ScratchLayout(root: root).upload(id) }
}

/// The name the object-storage code knew the library's keys by.
public typealias ObjectLayout = LibraryLayout
