import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import LibAV

/// A stream index that names no stream (a caller's mistake, a packet's from a file) must be an `AVError` naming the
/// call and the index: it used to be `streams[index]!` on a C array, read past `nb_streams` or trapping on nil.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct StreamIndexTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// A real MP4 with one stream (video only), so index 1 is the first past the end.
    private func openOneStreamClip() throws -> InputContext {
        let path = directory.file("one-stream.mp4")
        var clip = SyntheticVideo(width: 160, height: 96, seconds: 0.2)
        clip.audio = nil
        try clip.write(to: path)
        let policy = InputPolicy(
            format: "mov", formatWhitelist: ["mov,mp4,m4a,3gp,3g2,mj2"], codecWhitelist: ["h264"],
            maxStreams: 4, maxPixels: 1 << 22)
        let input = try InputContext(path: path, policy: policy)
        try #require(input.streams.count == 1)
        return input
    }

    private static func isOutOfRange(_ error: any Error, call: String, index: Int) -> Bool {
        guard let error = error as? AVError else { return false }
        return error.function == call && error.message.contains("no stream \(index):")
    }

    @Test(arguments: [1, 7, -1, Int(Int32.max) + 1])
    func anInputStreamIndexOutOfRangeThrows(index: Int) throws {
        let input = try openOneStreamClip()
        #expect { _ = try input.timeBase(ofStream: index) } throws: {
            Self.isOutOfRange($0, call: "timeBase(ofStream:)", index: index)
        }
        #expect { _ = try input.colorDescription(ofStream: index) } throws: {
            Self.isOutOfRange($0, call: "colorDescription(ofStream:)", index: index)
        }
        #expect { _ = try input.pixelFormat(ofStream: index) } throws: {
            Self.isOutOfRange($0, call: "pixelFormat(ofStream:)", index: index)
        }
        #expect {
            _ = try input.makeDecoder(streamIndex: index, threads: 1, maxPixels: 1 << 22, codecWhitelist: ["h264"])
        } throws: {
            Self.isOutOfRange($0, call: "makeDecoder(streamIndex:)", index: index)
        }
        #expect { try input.seek(toSeconds: 0.1, streamIndex: index) } throws: {
            Self.isOutOfRange($0, call: "av_seek_frame", index: index)
        }
        // The stream that exists still answers.
        #expect(try input.timeBase(ofStream: 0).denominator > 0)
    }

    @Test func anOutputStreamIndexOutOfRangeThrows() throws {
        let input = try openOneStreamClip()
        let output = try OutputContext(path: directory.file("copy.mp4"), format: "mp4")
        #expect { _ = try output.addStream(copying: 3, of: input) } throws: {
            Self.isOutOfRange($0, call: "addStream(copying:)", index: 3)
        }
        let copied = try output.addStream(copying: 0, of: input)
        #expect(copied == 0)
        #expect { try output.setRotation(streamIndex: 1, degrees: 90) } throws: {
            Self.isOutOfRange($0, call: "setRotation(streamIndex:)", index: 1)
        }
        #expect { _ = try output.timeBase(ofStream: 1) } throws: {
            Self.isOutOfRange($0, call: "timeBase(ofStream:)", index: 1)
        }
    }
}
