import Foundation
import MediaFixtures
import TestTraits
import Testing

@testable import LibAV

/// A wrapper whose C object fails to open must throw an error naming the call, and free the object exactly once:
/// a failure here used to free it in the initializer and again in deinit, which crashed the process.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct WrapperFailureTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    static func video(_ codec: String, options: [(String, String)]) -> EncoderSettings {
        EncoderSettings(
            codec: codec, kind: .video(width: 320, height: 180, pixelFormat: .yuv420p, frameRate: Rational(30, 1)),
            timeBase: Rational(1, 30), options: options)
    }

    @Test func anEncoderGivenAnOptionItDoesNotKnowThrows() {
        #expect {
            _ = try Encoder(Self.video("libx264", options: [("no-such-option", "1")]))
        } throws: { error in
            let error = error as? AVError
            return error?.function == "avcodec_open2(libx264)" && error?.message.contains("no-such-option") == true
        }
    }

    @Test func anEncoderThatRefusesToOpenThrows() {
        // libsvtav1's preset is a number; a name makes avcodec_open2 itself fail.
        #expect {
            _ = try Encoder(Self.video("libsvtav1", options: [("preset", "ultrafast")]))
        } throws: { error in
            (error as? AVError)?.function.hasPrefix("avcodec_open2") == true
        }
    }

    @Test func anOutputInAMissingDirectoryThrows() {
        let path = directory.file("missing/out.mp4")
        #expect {
            _ = try OutputContext(path: path, format: "mp4")
        } throws: { error in
            (error as? AVError)?.function == "avio_open(\(path))"
        }
    }

    @Test func aDecoderForACodecOffItsWhitelistThrows() throws {
        let path = directory.file("clip.mp4")
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 0.5)
        clip.audio = nil
        try clip.write(to: path)
        let policy = InputPolicy(
            format: "mov", formatWhitelist: ["mov,mp4,m4a,3gp,3g2,mj2"], codecWhitelist: ["h264"],
            maxStreams: 4, maxPixels: 1 << 22)
        let input = try InputContext(path: path, policy: policy)
        #expect {
            _ = try input.makeDecoder(streamIndex: 0, threads: 1, maxPixels: 1 << 22, codecWhitelist: ["vp9"])
        } throws: { error in
            (error as? AVError)?.function == "avcodec_open2"
        }
        // The input is still usable after a refused decoder.
        _ = try input.makeDecoder(streamIndex: 0, threads: 1, maxPixels: 1 << 22, codecWhitelist: ["h264"])
    }

    /// A seek's time becomes ticks of the file's own time base after its own start time: a time no Int64 can hold
    /// there is an error naming the call, where the conversion used to trap (docs/traps.md).
    @Test func aSeekToATimeNoTimestampHoldsThrows() throws {
        let path = directory.file("seek.mp4")
        var clip = SyntheticVideo(width: 320, height: 180, seconds: 0.5)
        clip.audio = nil
        try clip.write(to: path)
        let policy = InputPolicy(
            format: "mov", formatWhitelist: ["mov,mp4,m4a,3gp,3g2,mj2"], codecWhitelist: ["h264"],
            maxStreams: 4, maxPixels: 1 << 22)
        let input = try InputContext(path: path, policy: policy)
        for seconds in [1e300, -1e300, Double.infinity, Double.nan] {
            let error = #expect(throws: AVError.self, "\(seconds)") {
                try input.seek(toSeconds: seconds, streamIndex: 0)
            }
            #expect(error?.function == "av_seek_frame", "\(seconds)")
        }
        try input.seek(toSeconds: 0.2, streamIndex: 0)
    }

    /// SVT-AV1 1.4 waited forever when an encoder was freed without an end of stream, or with one sent before any
    /// picture: a ladder that failed after opening its AV1 rungs hung instead of failing. Both must free at once
    /// (the suite's time limit turns a hang into a failure).
    @Test(.timeLimit(.minutes(2))) func anAV1EncoderDroppedBeforeOrDuringAnEncodeIsFreed() throws {
        _ = try Encoder(Self.video("libsvtav1", options: [("preset", "12")]))
        let encoder = try Encoder(Self.video("libsvtav1", options: [("preset", "12")]))
        let frame = try Frame(width: 320, height: 180, pixelFormat: .yuv420p)
        try frame.fillTestPattern(index: 0, brightness: 0.5)
        frame.pts = 0
        _ = try encoder.send(frame)
        let packet = try Packet()
        var packets = 0
        while try encoder.receive(into: packet) == .output { packets += 1 }
        #expect(packets == 0, "one picture is still inside the encoder when it is dropped")
    }
}
