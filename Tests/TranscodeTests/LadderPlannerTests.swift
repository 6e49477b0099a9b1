import TestTraits
import Testing

@testable import Transcode

@Suite(.offThePool, .timeLimit(.minutes(5))) struct LadderPlannerTests {
    let planner = LadderPlanner()

    func plan(_ w: Int, _ h: Int, rotation: Int = 0, fps: Double = 30, real: Double? = nil) -> LadderPlan {
        planner.plan(.init(width: w, height: h, rotation: rotation, averageFrameRate: fps, realFrameRate: real ?? fps))
    }

    func sizes(_ plan: LadderPlan) -> [String] { plan.rungs.map { "\($0.id) \($0.width)x\($0.height)" } }

    @Test func verticalFullHDGetsTheThreeRungs() {
        #expect(sizes(plan(1080, 1920)) == ["360p 360x640", "720p 720x1280", "1080p 1080x1920"])
    }

    @Test func landscapeUsesTheShortSide() {
        #expect(sizes(plan(1920, 1080)) == ["360p 640x360", "720p 1280x720", "1080p 1920x1080"])
    }

    @Test func fourKStopsAt1080p() {
        #expect(sizes(plan(2160, 3840)) == ["360p 360x640", "720p 720x1280", "1080p 1080x1920"])
    }

    @Test func rotationSwapsTheDisplaySize() {
        let rotated = plan(1920, 1080, rotation: 90)
        #expect(sizes(rotated) == ["360p 360x640", "720p 720x1280", "1080p 1080x1920"])
        #expect(rotated.rotation == 90)
        #expect(sizes(plan(1920, 1080, rotation: 180)) == ["360p 640x360", "720p 1280x720", "1080p 1920x1080"])
    }

    @Test func neverUpscalesAndAddsANativeRung() {
        let small = plan(480, 854)
        #expect(sizes(small) == ["360p 360x640", "480p 480x854"])
        // Native 480p: caps interpolated by pixel count between 360p (1500) and 720p (3000); audio as 720p.
        #expect(
            small.rungs[1].maxBitrateKbps == 1500
                + Int((1500.0 * Double(480 * 480 - 360 * 360) / Double(720 * 720 - 360 * 360)).rounded()))
        #expect(small.rungs[1].bufferKbits == small.rungs[1].maxBitrateKbps * 2)
        #expect(small.rungs[1].audioBitrateKbps == 96)
        #expect(sizes(plan(240, 426)) == ["240p 240x426"])
        #expect(plan(240, 426).rungs[0].maxBitrateKbps == 1500)
        #expect(sizes(plan(720, 1280)) == ["360p 360x640", "720p 720x1280"])
        #expect(sizes(plan(1000, 1000)) == ["360p 360x360", "720p 720x720", "1000p 1000x1000"])
    }

    @Test func oddSizesBecomeEven() {
        for rung in plan(1081, 1921).rungs + plan(479, 853).rungs {
            #expect(rung.width % 2 == 0 && rung.height % 2 == 0, "\(rung)")
        }
    }

    @Test func capsFollowTheDesign() {
        let rungs = plan(1080, 1920).rungs
        #expect(rungs.map(\.maxBitrateKbps) == [1500, 3000, 6000])
        #expect(rungs.map(\.bufferKbits) == [3000, 6000, 12000])
        #expect(rungs.map(\.audioBitrateKbps) == [64, 96, 128])
    }

    @Test func frameRates() {
        #expect(plan(1080, 1920, fps: 30).frameRate == (30, 1))
        #expect(plan(1080, 1920, fps: 60).frameRate == (30, 1))
        #expect(plan(1080, 1920, fps: 59.94).frameRate == (30000, 1001))
        #expect(plan(1080, 1920, fps: 29.97).frameRate == (30000, 1001))
        #expect(plan(1080, 1920, fps: 25).frameRate == (25, 1))
        #expect(plan(1080, 1920, fps: 24).frameRate == (24, 1))
        #expect(plan(1080, 1920, fps: 120).frameRate == (30, 1))
        #expect(plan(1080, 1920, fps: 50).frameRate == (25, 1))
        // VFR (average and base rate disagree): the common rate at or just above the average.
        #expect(plan(1080, 1920, fps: 27.3, real: 90).frameRate == (30, 1))
        #expect(plan(1080, 1920, fps: 24.9, real: 20).frameRate == (25, 1))
        #expect(plan(1080, 1920, fps: 23.6, real: 90).frameRate == (24, 1))
        #expect(plan(1080, 1920, fps: 12, real: 90).frameRate == (24, 1))
        #expect(plan(1080, 1920, fps: 58, real: 120).frameRate == (29, 1))
        #expect(plan(1080, 1920, fps: 30).keyframeInterval == 60)
        #expect(plan(1080, 1920, fps: 25).keyframeInterval == 50)
    }
}
