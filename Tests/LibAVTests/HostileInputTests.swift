import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import LibAV

/// The libav layer alone must refuse nested opens, even if the sniffing in front of it were bypassed.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct HostileInputTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.path + "/reel-libav-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory + "/inbox", withIntermediateDirectories: true)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Opens `path` as an HLS playlist on purpose: the worst case, a demuxer that wants to open more URLs.
    private func openAsPlaylist(_ path: String) -> Result<InputContext, AVError> {
        let policy = InputPolicy(
            format: "hls", formatWhitelist: ["hls"], codecWhitelist: ["h264"], maxStreams: 8,
            maxPixels: 1 << 20)
        return Result { () throws(AVError) in try InputContext(path: path, policy: policy) }
    }

    @Test func playlistSegmentOnLoopbackIsNeverContacted() throws {
        let listener = try LoopbackListener()
        let playlist = try write(
            "inbox/clip.mp4",
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MAP:URI="http://127.0.0.1:\(listener.port)/init.mp4"
            #EXTINF:2.0,
            http://127.0.0.1:\(listener.port)/segment.ts
            #EXT-X-ENDLIST

            """)
        let result = openAsPlaylist(playlist)
        if case let .success(input) = result {
            // Even if the playlist parsed, reading must not reach the network.
            let packet = try Packet()
            _ = try? input.read(into: packet)
        }
        #expect(listener.acceptedConnections() == 0)
    }

    @Test func playlistPointingOutsideTheInboxNeverOpensThatFile() throws {
        let secret = try write("secret.ts", String(repeating: "SECRET", count: 200))
        let watcher = try OpenWatcher(path: secret)
        let playlist = try write(
            "inbox/clip.mp4",
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXTINF:2.0,
            ../secret.ts
            #EXTINF:2.0,
            \(secret)
            #EXT-X-ENDLIST

            """)
        if case let .success(input) = openAsPlaylist(playlist) {
            let packet = try Packet()
            _ = try? input.read(into: packet)
        }
        #expect(!watcher.wasOpened)
    }

    @Test func demuxerOutsideTheWhitelistIsRefused() throws {
        let playlist = try write("inbox/list.mp4", "#EXTM3U\n#EXTINF:1,\nx.ts\n")
        let policy = InputPolicy(
            format: "hls", formatWhitelist: ["mov"], codecWhitelist: [], maxStreams: 8, maxPixels: 1 << 20)
        #expect(throws: AVError.self) { try InputContext(path: playlist, policy: policy) }
    }

    @Test func errorsNameTheFailingCall() throws {
        let missing = directory + "/missing.mp4"
        let policy = InputPolicy(
            format: "mov", formatWhitelist: ["mov"], codecWhitelist: [], maxStreams: 8, maxPixels: 1 << 20)
        do {
            _ = try InputContext(path: missing, policy: policy)
            Issue.record("opening a missing file succeeded")
        } catch {
            #expect(error.function == "avio_open2")
            #expect(error.message.contains("No such file"))
        }
    }
}
