import Testing

@testable import Transcode

/// The pure decision between copying an upload's packets and encoding the first rung (issue 64): every reason,
/// its boundaries, and the order in which reasons are reported.
@Suite(.timeLimit(.minutes(1))) struct PlayablePlanTests {
    let plan = PlayablePlan(preset: .default)

    /// What `reel compress --quality high` makes of a phone clip: 1080x1920 H.264 High, BT.709, 30 fps, an IDR
    /// every 2 s, AAC-LC.
    static let compressed = PlayablePlan.Facts(
        videoCodec: "h264", videoProfile: "High", pixelFormat: "yuv420p", bitDepth: 8, colourPrimaries: "bt709",
        colourTransfer: "bt709", isDolbyVision: false, width: 1080, height: 1920, rotation: 0, averageFrameRate: 30,
        realFrameRate: 30, largestKeyframeGapSeconds: 2, keyframesAreIDR: true, videoPackets: steady(5_000_000),
        audioCodec: "aac", audioProfile: "LC")

    /// `seconds` of video at `rate` bit/s, 30 packets a second, each `first` seconds spent at `burst` first.
    static func steady(
        _ rate: Double, seconds: Double = 60, burst: Double? = nil, first: Double = 0
    ) -> [PlayablePlan.Sample] {
        (0..<Int(seconds * 30)).map { (index: Int) -> PlayablePlan.Sample in
            let time = Double(index) / 30
            let bits = (time < first ? burst ?? rate : rate) / 30
            return PlayablePlan.Sample(seconds: time, bytes: Int(bits / 8))
        }
    }

    func reason(_ change: (inout PlayablePlan.Facts) -> Void) -> PlayablePlan.Reason? {
        var facts = Self.compressed
        change(&facts)
        if case let .firstRung(_, reason) = plan.decide(facts) { return reason }
        return nil
    }

    @Test func aCompressedClipIsCopiedAsItsRung() {
        let decision = plan.decide(Self.compressed)
        #expect(decision == .remux(decision.rung))
        #expect(decision.rung.id == "1080p" && decision.rung.width == 1080 && decision.rung.height == 1920)
    }

    @Test func everyOtherUploadGetsTheLowestRung() {
        var facts = Self.compressed
        facts.videoCodec = "hevc"
        let decision = plan.decide(facts)
        #expect(decision == .firstRung(decision.rung, because: .notH264))
        #expect(decision.rung.id == "360p" && decision.rung.width == 360 && decision.rung.height == 640)
    }

    @Test func eachRungSizeIsCopiedAndTheNativeRungToo() {
        for (width, height, id) in [(360, 640, "360p"), (720, 1280, "720p"), (1920, 1080, "1080p"), (540, 960, "540p")]
        {
            var facts = Self.compressed
            (facts.width, facts.height) = (width, height)
            facts.videoPackets = Self.steady(1_000_000)
            let decision = plan.decide(facts)
            #expect(decision == .remux(decision.rung), "\(width)x\(height)")
            #expect(decision.rung.id == id)
        }
    }

    @Test func aRotatedClipIsEncodedUpright() {
        // Stored landscape, shown portrait at 1080p's size: FFmpeg 5.1's hls muxer would drop the matrix.
        #expect(reason { ($0.width, $0.height, $0.rotation) = (1920, 1080, 90) } == .rotated)
        #expect(reason { ($0.width, $0.height, $0.rotation) = (1920, 1080, 270) } == .rotated)
        #expect(reason { $0.rotation = 180 } == .rotated)
        var facts = Self.compressed
        (facts.width, facts.height, facts.rotation) = (1920, 1080, 90)
        // The lowest rung at the displayed size.
        #expect(plan.decide(facts).rung.width == 360 && plan.decide(facts).rung.height == 640)
    }

    @Test func aSizeTheLadderDoesNotMakeIsEncoded() {
        #expect(reason { ($0.width, $0.height) = (1440, 2560) } == .notARungSize)
        #expect(reason { ($0.width, $0.height) = (2160, 3840) } == .notARungSize)
        // An odd side: the ladder's native rung is even.
        #expect(reason { ($0.width, $0.height) = (541, 961) } == .notARungSize)
        // The top rung keeps the source's aspect: 1080x1916 is that rung's size for it.
        #expect(reason { ($0.width, $0.height) = (1080, 1916) } == nil)
    }

    @Test func onlyEightBitFourTwoZeroH264IsCopied() {
        #expect(reason { $0.videoCodec = "hevc" } == .notH264)
        #expect(reason { $0.videoCodec = "vp9" } == .notH264)
        #expect(reason { $0.bitDepth = 10 } == .notEightBit420)
        #expect(reason { $0.pixelFormat = "yuv422p" } == .notEightBit420)
        #expect(reason { $0.pixelFormat = "yuvj420p" } == .notEightBit420)
        #expect(reason { $0.videoProfile = "High 10" } == .notEightBit420)
        #expect(reason { $0.videoProfile = "High 4:4:4 Predictive" } == .notEightBit420)
        for profile in ["Constrained Baseline", "Baseline", "Main", "High"] {
            #expect(reason { $0.videoProfile = profile } == nil, "\(profile)")
        }
        #expect(reason { $0.videoProfile = nil } == nil)
    }

    @Test func hdrAndOtherColourIsEncoded() {
        #expect(reason { $0.colourTransfer = "arib-std-b67" } == .hdr)
        #expect(reason { $0.colourTransfer = "smpte2084" } == .hdr)
        #expect(reason { $0.isDolbyVision = true } == .hdr)
        #expect(reason { $0.colourTransfer = "smpte170m" } == .notBT709)
        #expect(reason { $0.colourPrimaries = "bt2020" } == .notBT709)
        #expect(reason { $0.colourPrimaries = "bt470bg" } == .notBT709)
        for untagged in ["", "unknown", "unspecified"] {
            #expect(reason { ($0.colourPrimaries, $0.colourTransfer) = (untagged, untagged) } == nil)
        }
    }

    @Test func aFrameRateAboveTheLaddersIsEncoded() {
        #expect(reason { ($0.averageFrameRate, $0.realFrameRate) = (60, 60) } == .frameRateAboveMax)
        #expect(reason { ($0.averageFrameRate, $0.realFrameRate) = (30.51, 30.51) } == .frameRateAboveMax)
        #expect(reason { ($0.averageFrameRate, $0.realFrameRate) = (30.5, 30.5) } == nil)
        #expect(reason { ($0.averageFrameRate, $0.realFrameRate) = (29.97, 29.97) } == nil)
        #expect(reason { ($0.averageFrameRate, $0.realFrameRate) = (24, 24) } == nil)
        // A phone's variable rate: its average counts.
        #expect(reason { ($0.averageFrameRate, $0.realFrameRate) = (27.5, 90) } == nil)
        #expect(reason { ($0.averageFrameRate, $0.realFrameRate) = (0, 0) } == .frameRateAboveMax)
        #expect(reason { ($0.averageFrameRate, $0.realFrameRate) = (0, 30) } == nil)
    }

    @Test func keyframesMoreThanASegmentApartAreEncoded() {
        // Half a frame of slack at 30 fps: 2 + 1/60 s.
        #expect(reason { $0.largestKeyframeGapSeconds = 2 + 1.0 / 60 } == nil)
        #expect(reason { $0.largestKeyframeGapSeconds = 2 + 1.0 / 59 } == .keyframesTooFarApart)
        #expect(reason { $0.largestKeyframeGapSeconds = 1 } == nil)
        #expect(reason { $0.largestKeyframeGapSeconds = 4 } == .keyframesTooFarApart)
        #expect(reason { $0.largestKeyframeGapSeconds = .infinity } == .keyframesTooFarApart)
        #expect(reason { $0.keyframesAreIDR = false } == .keyframeNotIDR)
    }

    @Test func videoOutsideTheRungsVBVIsEncoded() {
        // 1080p: 6 Mb/s drained from a 12 Mbit buffer.
        #expect(reason { $0.videoPackets = Self.steady(6_000_000) } == nil)
        // Over the cap for long enough to fill the buffer: 0.5 Mb/s more for 30 s is 15 Mbit.
        #expect(reason { $0.videoPackets = Self.steady(6_500_000, seconds: 30) } == .bitrateAboveRungCap)
        // For 20 s it is 10 Mbit: within.
        #expect(reason { $0.videoPackets = Self.steady(6_500_000, seconds: 20) } == nil)
        // A first segment at 8 Mb/s, as x264 spends its initial buffer (`reel compress`), then the cap.
        #expect(reason { $0.videoPackets = Self.steady(6_000_000, burst: 8_000_000, first: 2) } == nil)
        // 12 Mb/s for 2.1 s: 12.6 Mbit more than drained.
        #expect(
            reason { $0.videoPackets = Self.steady(6_000_000, burst: 12_000_000, first: 2.1) } == .bitrateAboveRungCap)
        // One packet larger than the buffer.
        #expect(reason { $0.videoPackets = [.init(seconds: 0, bytes: 12_000_000 / 8 + 1)] } == .bitrateAboveRungCap)
        #expect(reason { $0.videoPackets = [.init(seconds: 0, bytes: 12_000_000 / 8)] } == nil)
        // 360p: 1.5 Mb/s, 3 Mbit.
        #expect(reason { ($0.width, $0.height, $0.videoPackets) = (360, 640, Self.steady(1_500_000)) } == nil)
        #expect(
            reason { ($0.width, $0.height, $0.videoPackets) = (360, 640, Self.steady(1_700_000, seconds: 20)) }
                == .bitrateAboveRungCap)
    }

    @Test func theBufferDrainsAtTheCapBetweenPackets() {
        let packets: [PlayablePlan.Sample] = [.init(seconds: 0, bytes: 1000), .init(seconds: 1, bytes: 1000)]
        #expect(PlayablePlan.largestBufferedBits(packets, drainRate: 8000) == 8000)
        #expect(PlayablePlan.largestBufferedBits(packets, drainRate: 4000) == 12_000)
        #expect(PlayablePlan.largestBufferedBits(packets, drainRate: 6000) == 10_000)
        #expect(PlayablePlan.largestBufferedBits([], drainRate: 1) == 0)
    }

    @Test func audioMustBeAACLCOrAbsent() {
        #expect(reason { $0.audioCodec = nil } == nil)
        #expect(reason { $0.audioProfile = nil } == nil)
        #expect(reason { $0.audioCodec = "opus" } == .audioNotAACLC)
        #expect(reason { $0.audioCodec = "mp3" } == .audioNotAACLC)
        #expect(reason { $0.audioProfile = "HE-AAC" } == .audioNotAACLC)
        #expect(reason { $0.audioProfile = "HE-AACv2" } == .audioNotAACLC)
    }

    @Test func theFirstBrokenRuleIsTheReason() {
        // A phone's 10-bit HLG HEVC at 60 fps: HEVC is what it says.
        #expect(
            reason {
                ($0.videoCodec, $0.bitDepth, $0.colourTransfer, $0.averageFrameRate) = ("hevc", 10, "arib-std-b67", 60)
            } == .notH264)
        #expect(reason { ($0.bitDepth, $0.colourTransfer) = (10, "arib-std-b67") } == .notEightBit420)
        #expect(reason { ($0.averageFrameRate, $0.largestKeyframeGapSeconds) = (60, 5) } == .frameRateAboveMax)
        #expect(reason { ($0.averageFrameRate, $0.rotation) = (60, 90) } == .frameRateAboveMax)
        #expect(reason { ($0.rotation, $0.width) = (90, 1001) } == .rotated)
        #expect(reason { ($0.width, $0.largestKeyframeGapSeconds) = (1001, 5) } == .notARungSize)
        #expect(reason { ($0.largestKeyframeGapSeconds, $0.keyframesAreIDR) = (5, false) } == .keyframesTooFarApart)
        let heavy = Self.steady(20_000_000)
        #expect(reason { ($0.keyframesAreIDR, $0.videoPackets) = (false, heavy) } == .keyframeNotIDR)
        #expect(reason { ($0.videoPackets, $0.audioCodec) = (heavy, "opus") } == .bitrateAboveRungCap)
        #expect(Set(PlayablePlan.Reason.allCases.map(\.rawValue)).count == PlayablePlan.Reason.allCases.count)
    }

    @Test func theScanFindsGapsPeaksAndIDRs() {
        typealias P = PlayableScan.VideoPacket
        // 30 fps, keyframes every 60 frames, 4 s.
        let packets = (0..<120).map { (index: Int) -> P in
            P(seconds: Double(index) / 30, bytes: 1000, isKeyframe: index % 60 == 0)
        }
        #expect(abs(PlayableScan.largestKeyframeGap(packets, frameSeconds: 1.0 / 30) - 2) < 1e-9)
        let second = (0..<120).map { (index: Int) -> P in
            P(seconds: Double(index) / 30, bytes: 1000, isKeyframe: index % 30 == 0)
        }
        #expect(abs(PlayableScan.largestKeyframeGap(second, frameSeconds: 1.0 / 30) - 1) < 1e-9)
        // A clip whose first packet is no keyframe has a gap from its start.
        let late = (0..<60).map { (index: Int) -> P in
            P(seconds: Double(index) / 30, bytes: 1000, isKeyframe: index == 30)
        }
        #expect(PlayableScan.largestKeyframeGap(late, frameSeconds: 1.0 / 30) >= 1)
        // NAL types: SPS, PPS, IDR slice (length-prefixed); SEI then a non-IDR slice; Annex B IDR.
        #expect(PlayableScan.startsWithIDR([0, 0, 0, 2, 0x67, 0, 0, 0, 0, 2, 0x68, 0, 0, 0, 0, 2, 0x65, 0]))
        #expect(!PlayableScan.startsWithIDR([0, 0, 0, 2, 0x06, 0, 0, 0, 0, 2, 0x41, 0]))
        #expect(PlayableScan.startsWithIDR([0, 0, 0, 1, 0x67, 0, 0, 0, 1, 0x65, 0]))
        #expect(!PlayableScan.startsWithIDR([0, 0, 0, 9, 0x65]))
    }
}
