/// How an upload becomes playable before its ladder is made (issue 64, docs/hls.md "Playable early"): its own
/// packets copied into a rung's segments when it already is one, else the lowest rung encoded first. Pure: the facts
/// come from admission and a packet scan (`PlayableScan`), so every rule is tested without libav.
package struct PlayablePlan: Sendable, Equatable {
    /// What the decision reads of an upload. Sizes are stored sizes; `rotation` turns them into displayed ones.
    package struct Facts: Sendable, Equatable {
        package var videoCodec: String
        /// libav's profile name ("High", "Main", "High 10"); nil when the stream states none.
        package var videoProfile: String?
        package var pixelFormat: String
        package var bitDepth: Int
        /// libav's names ("bt709", "arib-std-b67", "unknown"); "" when unknown.
        package var colourPrimaries: String
        package var colourTransfer: String
        package var isDolbyVision: Bool
        package var width: Int
        package var height: Int
        package var rotation: Int
        package var averageFrameRate: Double
        package var realFrameRate: Double
        /// The longest stretch between two keyframes (and from the last one to the end), seconds.
        package var largestKeyframeGapSeconds: Double
        /// Every keyframe is an IDR (and the stream starts with one): segments cut there are closed.
        package var keyframesAreIDR: Bool
        /// Every video packet's size at its decode time, in decode order (`PlayableScan`): whether the copy keeps
        /// to the rung's VBV is read from them once the rung is known.
        package var videoPackets: [Sample]
        /// nil without audio; else its codec and profile ("aac", "LC").
        package var audioCodec: String?
        package var audioProfile: String?

        package init(
            videoCodec: String, videoProfile: String?, pixelFormat: String, bitDepth: Int, colourPrimaries: String,
            colourTransfer: String, isDolbyVision: Bool, width: Int, height: Int, rotation: Int,
            averageFrameRate: Double, realFrameRate: Double, largestKeyframeGapSeconds: Double, keyframesAreIDR: Bool,
            videoPackets: [Sample], audioCodec: String?, audioProfile: String?
        ) {
            self.videoCodec = videoCodec
            self.videoProfile = videoProfile
            self.pixelFormat = pixelFormat
            self.bitDepth = bitDepth
            self.colourPrimaries = colourPrimaries
            self.colourTransfer = colourTransfer
            self.isDolbyVision = isDolbyVision
            self.width = width
            self.height = height
            self.rotation = rotation
            self.averageFrameRate = averageFrameRate
            self.realFrameRate = realFrameRate
            self.largestKeyframeGapSeconds = largestKeyframeGapSeconds
            self.keyframesAreIDR = keyframesAreIDR
            self.videoPackets = videoPackets
            self.audioCodec = audioCodec
            self.audioProfile = audioProfile
        }
    }

    /// One video packet: its decode time from the first, in seconds, and its size.
    package struct Sample: Sendable, Equatable {
        package var seconds: Double
        package var bytes: Int

        package init(seconds: Double, bytes: Int) {
            self.seconds = seconds
            self.bytes = bytes
        }
    }

    /// Why an upload's packets cannot be copied as a rung's: the first rule it breaks, in the order checked.
    package enum Reason: String, Sendable, Equatable, CaseIterable {
        case notH264 = "not_h264"
        /// A profile players may not decode (High 10, 4:2:2, 4:4:4), more than 8 bits, or not 4:2:0.
        case notEightBit420 = "not_8bit_420"
        /// HLG, PQ or Dolby Vision: the ladder converts it to SDR.
        case hdr
        /// Tagged with primaries or a transfer other than BT.709 (BT.601, BT.2020 SDR): the ladder retags it.
        case notBT709 = "not_bt709"
        case frameRateAboveMax = "frame_rate_above_max"
        /// Stored turned, with a display matrix: FFmpeg 5.1's hls muxer does not carry the matrix into the segments
        /// (docs/quirks.md), so the first rung makes it upright as the ladder does.
        case rotated
        /// Its displayed size is none of the rungs the ladder makes of it.
        case notARungSize = "not_a_rung_size"
        case keyframesTooFarApart = "keyframes_too_far_apart"
        /// A keyframe that is not an IDR (an open GOP's recovery point): a segment would not decode alone.
        case keyframeNotIDR = "keyframe_not_idr"
        /// Its video does not keep to the rung's VBV (`max_bitrate_kbps` with a `buffer_kbits` buffer), as the
        /// ladder's own encode of that rung must.
        case bitrateAboveRungCap = "bitrate_above_rung_cap"
        case audioNotAACLC = "audio_not_aac_lc"
    }

    package enum Decision: Sendable, Equatable {
        /// Copy the packets into the segments of this rung (the one whose size the upload has).
        case remux(LadderPlan.Rung)
        /// Encode this rung (the ladder's lowest) first, for the first reason the upload could not be copied.
        case firstRung(LadderPlan.Rung, because: Reason)

        package var rung: LadderPlan.Rung {
            switch self {
            case let .remux(rung), let .firstRung(rung, _): return rung
            }
        }
    }

    package let preset: LadderPreset

    package init(preset: LadderPreset) { self.preset = preset }

    /// Half an output frame: a keyframe interval of exactly `segment_seconds` passes despite timestamp rounding.
    static let gapSlackFrames = 0.5
    /// The planner keeps a rate up to this much over `max_frame_rate` as it is (30.4 fps stays 30.4).
    static let frameRateSlack = 0.5

    /// The ladder's plan for the upload (the same planner, so the rung sizes are the ladder's), then the rules.
    package func decide(_ facts: Facts) -> Decision {
        let plan = LadderPlanner(preset: preset).plan(
            .init(
                width: facts.width, height: facts.height, rotation: facts.rotation,
                averageFrameRate: facts.averageFrameRate, realFrameRate: facts.realFrameRate))
        let lowest = plan.rungs[0]
        let swaps = facts.rotation == 90 || facts.rotation == 270
        let display = swaps ? (facts.height, facts.width) : (facts.width, facts.height)
        let matching = plan.rungs.first { $0.width == display.0 && $0.height == display.1 }
        if let reason = reason(facts, matching: matching) { return .firstRung(lowest, because: reason) }
        return .remux(matching!)
    }

    private func reason(_ facts: Facts, matching: LadderPlan.Rung?) -> Reason? {
        if facts.videoCodec != "h264" { return .notH264 }
        let profiles: Set<String> = ["Constrained Baseline", "Baseline", "Main", "High"]
        if facts.bitDepth != 8 || facts.pixelFormat != "yuv420p" || !(facts.videoProfile.map(profiles.contains) ?? true)
        {
            return .notEightBit420
        }
        if facts.isDolbyVision || ["arib-std-b67", "smpte2084"].contains(facts.colourTransfer) { return .hdr }
        let untagged: Set<String> = ["", "unknown", "unspecified", "reserved"]
        if !(untagged.contains(facts.colourPrimaries) || facts.colourPrimaries == "bt709")
            || !(untagged.contains(facts.colourTransfer) || facts.colourTransfer == "bt709")
        {
            return .notBT709
        }
        let rate = facts.averageFrameRate > 0 ? facts.averageFrameRate : facts.realFrameRate
        if rate <= 0 || rate > preset.maxFrameRate + Self.frameRateSlack { return .frameRateAboveMax }
        if facts.rotation != 0 { return .rotated }
        guard let matching else { return .notARungSize }
        if facts.largestKeyframeGapSeconds > preset.segmentSeconds + Self.gapSlackFrames / rate {
            return .keyframesTooFarApart
        }
        if !facts.keyframesAreIDR { return .keyframeNotIDR }
        let buffered = Self.largestBufferedBits(facts.videoPackets, drainRate: Double(matching.maxBitrateKbps) * 1000)
        if buffered > Double(matching.bufferKbits) * 1000 { return .bitrateAboveRungCap }
        if let codec = facts.audioCodec, codec != "aac" || (facts.audioProfile.map { $0 != "LC" } ?? false) {
            return .audioNotAACLC
        }
        return nil
    }

    /// The most bits a buffer drained at `drainRate` bit/s holds when each packet enters it whole at its decode
    /// time: the VBV model x264 encodes the rung to (`vbv-maxrate`, `vbv-bufsize`). A stream keeps to a rung's VBV
    /// when this stays within the rung's buffer; a peak 2 s window alone would refuse the ladder's own rungs, whose
    /// first segment spends the buffer x264 starts with (a `reel compress` 1080p clip: 8.1 Mb/s in its first 2 s
    /// under a 6 Mb/s cap, 5.6 of 12 Mbit buffered at most).
    static func largestBufferedBits(_ packets: [Sample], drainRate: Double) -> Double {
        var level = 0.0, largest = 0.0
        var previous = packets.first?.seconds ?? 0
        for packet in packets {
            level = max(0, level - max(0, packet.seconds - previous) * drainRate) + Double(packet.bytes * 8)
            previous = max(previous, packet.seconds)
            largest = max(largest, level)
        }
        return largest
    }
}
