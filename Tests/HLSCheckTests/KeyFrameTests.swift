import TestTraits
import Testing

@testable import HLSCheck

/// IDR detection from the first bytes of a sample.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct KeyFrameTests {
    let avc = CodecConfiguration(codec: "avc1.64001e", nalLengthSize: 4)
    let hevc = CodecConfiguration(codec: "hvc1.1.6.L93.B0", nalLengthSize: 4)

    @Test func h264IDRAfterAnSEIIsAKeyFrame() {
        let sample: [UInt8] = [0, 0, 0, 2, 0x06, 0x05, 0, 0, 0, 3, 0x65, 0x88, 0x84]
        #expect(
            KeyFrame.classify(sample, format: "avc1", configuration: avc) == KeyFrame(isKey: true, seen: "NAL type 5"))
    }

    @Test func h264NonIDRSliceIsNot() {
        let sample: [UInt8] = [0, 0, 0, 3, 0x41, 0x9A, 0x00]
        #expect(
            KeyFrame.classify(sample, format: "avc1", configuration: avc) == KeyFrame(isKey: false, seen: "NAL type 1"))
    }

    @Test func hevcIDRTypesAreKeyFramesAndCRAIsNot() {
        #expect(KeyFrame.classify([0, 0, 0, 3, 19 << 1, 0x01, 0xAF], format: "hvc1", configuration: hevc).isKey)
        #expect(KeyFrame.classify([0, 0, 0, 3, 20 << 1, 0x01, 0xAF], format: "hev1", configuration: hevc).isKey)
        #expect(!KeyFrame.classify([0, 0, 0, 3, 21 << 1, 0x01, 0xAF], format: "hvc1", configuration: hevc).isKey)
    }

    @Test func av1KeyFrameHeaderAfterATemporalDelimiter() {
        let av1 = CodecConfiguration(codec: "av01.0.04M.08")
        let key: [UInt8] = [0x12, 0x00, 0x32, 0x02, 0x10, 0x00]
        #expect(AV1.keyFrame(in: key, reducedStillPicture: false) == KeyFrame(isKey: true, seen: "AV1 KEY_FRAME"))
        let inter: [UInt8] = [0x12, 0x00, 0x32, 0x02, 0x30, 0x00]
        #expect(
            KeyFrame.classify(inter, format: "av01", configuration: av1)
                == KeyFrame(isKey: false, seen: "AV1 INTER_FRAME"))
    }

    @Test func garbageNeverTraps() {
        #expect(!KeyFrame.classify([0xFF, 0xFF, 0xFF, 0xFF, 0x65], format: "avc1", configuration: avc).isKey)
        #expect(!KeyFrame.classify([], format: "avc1", configuration: avc).isKey)
        #expect(!AV1.keyFrame(in: [0xFF, 0xFF], reducedStillPicture: false).isKey)
    }
}
