import Loudness
import Testing

@Suite(.timeLimit(.minutes(1))) struct LoudnessPolicyTests {
    let policy = LoudnessPolicy(targetLUFS: -14, truePeakCeilingDBTP: -1, maxGainDB: 20, codecMarginDB: 1)

    @Test func bringsAQuietClipUpToTheTarget() {
        let decision = policy.decide(sourceLUFS: -30, sourceTruePeakDBTP: -20)
        #expect(decision.gainDB == 16)
        #expect(!decision.isCapped && !decision.isSilent && !decision.needsLimiter)
    }

    @Test func bringsALoudClipDownWithoutACap() {
        let decision = policy.decide(sourceLUFS: -6.5, sourceTruePeakDBTP: 0.7)
        #expect(abs(decision.gainDB - -7.5) < 1e-9)
        #expect(!decision.needsLimiter)
        #expect(policy.decide(sourceLUFS: 3, sourceTruePeakDBTP: 3).gainDB == -17)
    }

    @Test func stopsAtTheMaximumGainAndSaysSo() {
        let decision = policy.decide(sourceLUFS: -38.6, sourceTruePeakDBTP: -30)
        #expect(decision.gainDB == 20)
        #expect(decision.isCapped)
        #expect(!policy.decide(sourceLUFS: -34, sourceTruePeakDBTP: -30).isCapped)
    }

    @Test(arguments: [-Double.infinity, -70, -80, Double.nan])
    func leavesSilenceAlone(lufs: Double) {
        let decision = policy.decide(sourceLUFS: lufs, sourceTruePeakDBTP: -90)
        #expect(decision.isSilent && decision.gainDB == 0 && !decision.changesAudio)
        #expect(decision.makeNormalizer(channels: 2, sampleRate: 48_000) == nil)
    }

    /// The limiter is needed exactly when the gained true peak passes the ceiling less the codec's margin.
    @Test func asksForTheLimiterOnlyAboveTheThreshold() {
        #expect(policy.limiterThresholdDBTP == -2)
        #expect(!policy.decide(sourceLUFS: -20, sourceTruePeakDBTP: -8).needsLimiter)  // peak -2 after +6
        #expect(policy.decide(sourceLUFS: -20, sourceTruePeakDBTP: -7.9).needsLimiter)
        #expect(policy.decide(sourceLUFS: -14, sourceTruePeakDBTP: 0).needsLimiter)  // on target, peaks too high
    }

    @Test func aClipOnTargetWithRoomIsLeftAsItIs() {
        let decision = policy.decide(sourceLUFS: -14, sourceTruePeakDBTP: -6)
        #expect(!decision.changesAudio)
    }
}
