internal import HLSCheck

/// An HLS playlist fetched from someone else's server (`reel hls-check URL`): it parses, written again line by line
/// it parses to the same lines and kind, and reading it as a master or a media playlist never traps.
enum PlaylistContract {
    static let target = FuzzTarget(
        name: "playlist", contract: "a playlist re-serialises to one with the same lines, header and kind"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let text = String(decoding: bytes, as: UTF8.self)
        let playlist = Playlist(text: text)
        let again = Playlist(text: playlist.lines.map(\.text).joined(separator: "\n"))
        try expect(
            again.lines.map(\.text) == playlist.lines.map(\.text) && again.hasHeader == playlist.hasHeader
                && again.isMaster == playlist.isMaster,
            "\(text.prefix(200).debugDescription) did not re-serialise to itself")
        if playlist.isMaster {
            _ = MasterPlaylist(playlist)
        } else {
            _ = MediaPlaylist(playlist)
        }
    }
}
