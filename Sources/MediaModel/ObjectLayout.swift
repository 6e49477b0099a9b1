/// Where everything lives in a library kept in object storage (`--library s3://...`). Pure.
///
/// An original is written once, at `originals/<id>`, when a host takes it from its inbox, and stays there whatever
/// the verdict: an object cannot be renamed, and copying 50 MB to say "published" would only add a way to fail. The
/// verdict is the catalog's; a refused or failed upload also gets `rejected/<id>.reason.json` or
/// `failed/<id>.reason.json`. Outputs go under a key that names their claim, `videos/<id>.e<epoch>/` or
/// `images/<id>.e<epoch>.webp`: each claim writes keys no other claim can, so a worker fenced out of its lease never
/// touches the outputs of the job's new holder, and the catalog commit decides which claim's outputs are published.
/// The `.e` keeps these keys apart from a copied local library's `videos/<id>/` and `images/<id>.webp`.
public enum ObjectLayout {
    public static let originals = "originals/"
    public static let videos = "videos/"
    public static let images = "images/"

    public static func original(_ id: String) -> String { originals + id }

    /// A tus upload in progress keeps two kinds of objects beside its multipart upload (which S3 does not list):
    /// `uploads/<id>/info`, the multipart upload's id, and `uploads/<id>/tail-<offset>`, the acknowledged bytes after
    /// the last full part. Both go once the upload is the job's original, or is terminated or expires.
    public static let uploads = "uploads/"
    public static func uploadInfo(_ id: String) -> String { uploads + id + "/info" }
    public static func uploadTail(_ id: String, offset: Int64) -> String {
        uploads + id + "/tail-" + String(offset)
    }

    /// `rejected/<id>.reason.json` or `failed/<id>.reason.json`.
    public static func reason(_ id: String, rejected: Bool) -> String {
        (rejected ? "rejected/" : "failed/") + id + ".reason.json"
    }

    /// The folder of a video's outputs for one claim, without a trailing `/`.
    public static func video(_ id: String, epoch: Int64) -> String { videos + id + ".e" + String(epoch) }

    public static func image(_ id: String, epoch: Int64) -> String { images + id + ".e" + String(epoch) + ".webp" }

    /// One claim's outputs: a job id and the lease epoch it was written under.
    public struct Claim: Hashable, Sendable, CustomStringConvertible {
        public let id: String
        public let epoch: Int64

        public init(id: String, epoch: Int64) {
            self.id = id
            self.epoch = epoch
        }

        public var description: String { id + ".e" + String(epoch) }
    }

    /// The claim an output key was written under, or nil for any other key (a copied library's media, an original,
    /// a stranger's object): the sweep touches only keys this parses.
    public static func claim(ofOutput key: String) -> Claim? {
        let parts = key.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        var name = parts[1]
        switch parts[0] {
        case "videos":
            guard parts.count == 3, !parts[2].isEmpty else { return nil }
        case "images":
            guard parts.count == 2, name.hasSuffix(".webp") else { return nil }
            name = name.dropLast(5)
        default:
            return nil
        }
        guard let marker = name.firstRange(of: ".e") else { return nil }
        let id = String(name[..<marker.lowerBound])
        let digits = name[marker.upperBound...]
        guard LibraryLayout.isID(id), !digits.isEmpty, digits.count <= 18,
            digits.allSatisfy({ ("0"..."9").contains($0) }),
            digits.first != "0" || digits.count == 1, let epoch = Int64(digits)
        else { return nil }
        return Claim(id: id, epoch: epoch)
    }

    /// The id behind `originals/<id>`, or nil for any other key.
    public static func id(ofOriginal key: String) -> String? {
        guard key.hasPrefix(originals) else { return nil }
        let id = String(key.dropFirst(originals.count))
        return LibraryLayout.isID(id) ? id : nil
    }
}
