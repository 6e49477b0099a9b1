internal import Foundation

/// Where everything lives in the library. Public: `videos/<id>/` and `images/<id>.webp`. Private: the uploads
/// being processed (`.incoming/<id>`), staging (`.staging/<id>`), worker lock files (`.workers/`), published
/// originals (`originals/<id>`), refused uploads (`rejected/<id>` + `<id>.reason.json`) and uploads that failed
/// on Reel's side (`failed/<id>` + `<id>.reason.json`), and unfinished uploads over HTTP (`.uploads/<upload id>`).
/// Every name is a server-generated id.
public struct LibraryLayout: Sendable {
    public let root: String

    public init(root: String) { self.root = root }

    /// A new id for a job, an upload or a token: 20 lowercase hex digits, safe as a file name anywhere.
    public static func newID() -> String {
        String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20))
    }

    /// Whether `text` is an id `newID()` could have made (so a path built from it stays where it belongs).
    public static func isID(_ text: String) -> Bool {
        text.utf8.count == 20 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    public var videos: String { root + "/videos" }
    public var images: String { root + "/images" }
    public var originals: String { root + "/originals" }
    public var rejected: String { root + "/rejected" }
    public var failed: String { root + "/failed" }
    public var incoming: String { root + "/.incoming" }
    public var staging: String { root + "/.staging" }
    public var workers: String { root + "/.workers" }
    public var uploads: String { root + "/.uploads" }

    public var allDirectories: [String] {
        [videos, images, originals, rejected, failed, incoming, staging, workers, uploads]
    }

    public func video(_ id: String) -> String { videos + "/" + id }
    public func image(_ id: String) -> String { images + "/" + id + ".webp" }
    public func incoming(_ id: String) -> String { incoming + "/" + id }
    public func staging(_ id: String) -> String { staging + "/" + id }
    public func original(_ id: String) -> String { originals + "/" + id }
    public func upload(_ id: String) -> String { uploads + "/" + id }
    public func lock(_ owner: String) -> String { workers + "/" + owner + ".lock" }
    public func rejected(_ id: String) -> String { rejected + "/" + id }
    public func failed(_ id: String) -> String { failed + "/" + id }
    /// `<id>.reason.json` beside an upload in `rejected/` or `failed/`.
    public func reason(_ id: String, in directory: String) -> String { directory + "/" + id + ".reason.json" }
}
