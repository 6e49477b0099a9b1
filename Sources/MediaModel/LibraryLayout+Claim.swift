extension LibraryLayout {
    /// One claim's outputs: a job id and the lease epoch it was written under, and whether they are its
    /// provisional rendition (`videos/<id>.e<epoch>.playable/`, issue 64) or its ladder.
    public struct Claim: Hashable, Sendable, CustomStringConvertible {
        public let id: String
        public let epoch: Int64
        public let isPlayable: Bool

        public init(id: String, epoch: Int64, isPlayable: Bool = false) {
            self.id = id
            self.epoch = epoch
            self.isPlayable = isPlayable
        }

        public var description: String { id + ".e" + String(epoch) + (isPlayable ? playableSuffix : "") }
    }

    /// What follows a claim's name in the folder of its provisional rendition.
    static let playableSuffix = ".playable"

    /// The folder of a video's provisional rendition for one claim (issue 64), without a trailing `/`: its
    /// playlists change while it is made, so they are served with a short max-age (`MediaPolicy`).
    public static func playable(_ id: String, epoch: Int64) -> String { video(id, epoch: epoch) + playableSuffix }

    /// Whether `key` is inside a provisional rendition's folder.
    public static func isPlayable(_ key: String) -> Bool { claim(ofOutput: key)?.isPlayable == true }

    /// The claim an output key was written under, or nil for any other key (a library's media from before the rule,
    /// an original, a stranger's object): the sweep touches only keys this parses.
    public static func claim(ofOutput key: String) -> Claim? {
        let parts = key.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        var name = parts[1]
        var isPlayable = false
        switch parts[0] {
        case "videos":
            guard parts.count == 3, !parts[2].isEmpty else { return nil }
            if name.hasSuffix(playableSuffix) {
                name = name.dropLast(playableSuffix.count)
                isPlayable = true
            }
        case "images":
            guard parts.count == 2, name.hasSuffix(".webp") else { return nil }
            name = name.dropLast(5)
        default:
            return nil
        }
        guard let marker = name.firstRange(of: ".e") else { return nil }
        let id = String(name[..<marker.lowerBound])
        let digits = name[marker.upperBound...]
        guard isID(id), !digits.isEmpty, digits.count <= 18,
            digits.allSatisfy({ ("0"..."9").contains($0) }),
            digits.first != "0" || digits.count == 1, let epoch = Int64(digits)
        else { return nil }
        return Claim(id: id, epoch: epoch, isPlayable: isPlayable)
    }
}
