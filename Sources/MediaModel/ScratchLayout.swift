/// What one host works on, in a directory of its own (`--scratch`) or in the library's directory itself when that is
/// shared by every host: the uploads taken from the inbox (`.incoming/<id>`), each claim's staging (`.staging/`),
/// the workers' lock files (`.workers/`), unfinished uploads over HTTP (`.uploads/<upload id>`), and inbox entries
/// that are not files at all (`rejected/<id>`, moved as themselves: no store could take them). Dot folders are never
/// listed as the library's objects.
public struct ScratchLayout: Sendable {
    public let root: String

    public init(root: String) { self.root = root }

    public var incoming: String { root + "/.incoming" }
    public var staging: String { root + "/.staging" }
    public var workers: String { root + "/.workers" }
    public var uploads: String { root + "/.uploads" }
    public var refused: String { root + "/rejected" }

    public var allDirectories: [String] { [incoming, staging, workers, uploads, refused] }

    public func incoming(_ id: String) -> String { incoming + "/" + id }
    public func staging(_ id: String) -> String { staging + "/" + id }
    public func upload(_ id: String) -> String { uploads + "/" + id }
    public func lock(_ owner: String) -> String { workers + "/" + owner + ".lock" }
    public func refused(_ id: String) -> String { refused + "/" + id }
}
