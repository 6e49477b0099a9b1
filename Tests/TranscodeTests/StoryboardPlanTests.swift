import TestTraits
import Testing

@testable import Transcode

/// The storyboard's pure rules: tile size, interval, grid and cues, on numbers alone.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct StoryboardPlanTests {
    /// Every property a player relies on, for any plan.
    func checkInvariants(_ plan: StoryboardPlan, _ label: String = "") {
        let cues = plan.cues
        #expect(cues.count == plan.count, "\(label)")
        #expect(cues.first?.startMilliseconds == 0, "\(label)")
        for (previous, next) in zip(cues, cues.dropFirst()) {
            #expect(previous.endMilliseconds == next.startMilliseconds, "\(label): cues are not contiguous")
        }
        #expect(cues.allSatisfy { $0.endMilliseconds > $0.startMilliseconds }, "\(label)")
        let durationMilliseconds = Int((plan.durationSeconds * 1000).rounded())
        #expect(cues.last?.endMilliseconds == max(durationMilliseconds, cues.last!.startMilliseconds + 1), "\(label)")
        for cue in cues {
            #expect(
                cue.x >= 0 && cue.y >= 0 && cue.x + cue.width <= plan.sheetWidth
                    && cue.y + cue.height <= plan.sheetHeight,
                "\(label): \(cue) is outside \(plan.sheetWidth)x\(plan.sheetHeight)")
        }
        #expect(Set(cues.map { [$0.x, $0.y] }).count == cues.count, "\(label): two cues share a tile")
        #expect(
            plan.sheetWidth == plan.columns * plan.tileWidth && plan.sheetHeight == plan.rows * plan.tileHeight,
            "\(label)")
        #expect(
            plan.sheetWidth <= StoryboardPlan.maxSheetSide && plan.sheetHeight <= StoryboardPlan.maxSheetSide,
            "\(label)")
        #expect(plan.count <= StoryboardPlan.maxTiles && plan.columns <= StoryboardPlan.maxColumns, "\(label)")
        // No row is wasted: the last row holds at least one tile.
        #expect((plan.rows - 1) * plan.columns < plan.count, "\(label)")
        #expect(
            plan.tileWidth % 2 == 0 && plan.tileHeight % 2 == 0 && plan.tileWidth >= 2 && plan.tileHeight >= 2,
            "\(label)")
        #expect(
            plan.tileWidth <= StoryboardPlan.maxTileWidth && plan.tileHeight <= StoryboardPlan.maxTileHeight, "\(label)"
        )
    }

    @Test func fifteenSecondPortraitClipHasFifteenTilesInTwoRows() throws {
        let plan = try StoryboardPlan(durationSeconds: 15, width: 720, height: 1280)
        #expect(plan.intervalSeconds == 1 && plan.count == 15)
        #expect(plan.tileWidth == 160 && plan.tileHeight == 284)
        #expect(plan.columns == 10 && plan.rows == 2)
        #expect(plan.sheetWidth == 1600 && plan.sheetHeight == 568)
        #expect(
            plan.cues[14]
                == .init(startMilliseconds: 14_000, endMilliseconds: 15_000, x: 640, y: 284, width: 160, height: 284))
        checkInvariants(plan)
    }

    @Test func sixtySecondClipStaysAtOnePerSecond() throws {
        let plan = try StoryboardPlan(durationSeconds: 60, width: 1280, height: 720)
        #expect(plan.intervalSeconds == 1 && plan.count == 60 && plan.rows == 6)
        #expect(plan.tileWidth == 160 && plan.tileHeight == 90)
        #expect(
            plan.cues.last
                == .init(startMilliseconds: 59_000, endMilliseconds: 60_000, x: 1440, y: 450, width: 160, height: 90))
        checkInvariants(plan)
    }

    @Test func aPartSecondAtTheEndGetsItsOwnShorterCue() throws {
        let plan = try StoryboardPlan(durationSeconds: 59.5, width: 720, height: 1280)
        #expect(plan.count == 60)
        #expect(plan.cues.last?.startMilliseconds == 59_000 && plan.cues.last?.endMilliseconds == 59_500)
        checkInvariants(plan)
    }

    @Test func oneSecondClipIsOneTileWithoutEmptyColumns() throws {
        let plan = try StoryboardPlan(durationSeconds: 1, width: 720, height: 1280)
        #expect(plan.count == 1 && plan.columns == 1 && plan.rows == 1)
        #expect(plan.sheetWidth == 160 && plan.sheetHeight == 284)
        #expect(plan.cues == [.init(startMilliseconds: 0, endMilliseconds: 1000, x: 0, y: 0, width: 160, height: 284)])
    }

    @Test func clipsShorterThanASecondStillGetOneTile() throws {
        #expect(try StoryboardPlan(durationSeconds: 0.4, width: 640, height: 360).cues.map(\.endMilliseconds) == [400])
        // Rounds to 0 ms: the one cue still lasts a millisecond.
        let blink = try StoryboardPlan(durationSeconds: 0.0002, width: 640, height: 360)
        #expect(blink.cues.map { [$0.startMilliseconds, $0.endMilliseconds] } == [[0, 1]])
        checkInvariants(blink)
    }

    @Test func longerClipsSpaceThumbnailsToStayWithinTheCap() throws {
        #expect(try StoryboardPlan(durationSeconds: 120, width: 640, height: 360).intervalSeconds == 1)
        let justOver = try StoryboardPlan(durationSeconds: 120.5, width: 640, height: 360)
        #expect(justOver.intervalSeconds == 2 && justOver.count == 61)
        #expect(justOver.cues.last?.startMilliseconds == 120_000 && justOver.cues.last?.endMilliseconds == 120_500)
        #expect(try StoryboardPlan(durationSeconds: 240, width: 640, height: 360).count == 120)
        let tenMinutes = try StoryboardPlan(durationSeconds: 600, width: 640, height: 360)
        #expect(tenMinutes.intervalSeconds == 5 && tenMinutes.count == 120)
        checkInvariants(tenMinutes)
    }

    @Test(arguments: [
        (720, 1280, 160, 284), (1080, 1920, 160, 284), (1280, 720, 160, 90), (1920, 1080, 160, 90),
        (360, 360, 160, 160),
        // Very wide and very tall: the long side is capped, the short side never drops below 2.
        (4000, 100, 160, 4), (10_000, 10, 160, 2), (100, 4000, 8, 320), (10, 10_000, 2, 320), (540, 1920, 90, 320),
        // Small pictures are never upscaled; odd sides round down to even.
        (90, 160, 90, 160), (101, 57, 100, 56), (1, 1, 2, 2),
    ])
    func tilesFitTheBoxKeepingTheAspectRatio(width: Int, height: Int, tileWidth: Int, tileHeight: Int) {
        let tile = StoryboardPlan.tileSize(width: width, height: height)
        #expect(tile.width == tileWidth && tile.height == tileHeight, "\(width)x\(height) gave \(tile)")
    }

    @Test func invariantsHoldOverManyDurationsAndShapes() throws {
        let shapes = [(720, 1280), (1280, 720), (4000, 100), (100, 4000), (2, 2), (361, 641)]
        for (width, height) in shapes {
            for step in 0..<300 {
                let duration = 0.05 + Double(step) * 1.37
                let plan = try StoryboardPlan(durationSeconds: duration, width: width, height: height)
                #expect(plan.count == Int((duration / Double(plan.intervalSeconds)).rounded(.up)), "\(duration)")
                #expect(
                    plan.intervalSeconds == 1
                        || Int((duration / Double(plan.intervalSeconds - 1)).rounded(.up)) > StoryboardPlan.maxTiles,
                    "\(duration): \(plan.intervalSeconds) s is not the smallest interval")
                checkInvariants(plan, "\(duration) s \(width)x\(height)")
            }
        }
    }

    @Test(arguments: [0.0, -1, .nan, .infinity])
    func refusesADurationThatIsNotPositive(duration: Double) {
        #expect(throws: TranscodeError.self) { try StoryboardPlan(durationSeconds: duration, width: 640, height: 360) }
    }

    @Test func refusesAPictureWithoutAreaAndAnIntervalTooShortForTheClip() throws {
        #expect(throws: TranscodeError.self) { try StoryboardPlan(durationSeconds: 10, width: 0, height: 360) }
        #expect(throws: TranscodeError.self) { try StoryboardPlan(durationSeconds: 10, width: 640, height: -2) }
        #expect(throws: TranscodeError.self) {
            try StoryboardPlan(durationSeconds: 10, width: 640, height: 360, intervalSeconds: 0)
        }
        let error = try #require(throws: TranscodeError.self) {
            try StoryboardPlan(durationSeconds: 121, width: 640, height: 360, intervalSeconds: 1)
        }
        #expect(error.code == "encode_failed" && error.message.contains("121"))
    }

    @Test func webVTTHasOneCuePerTileWithTheSheetFragment() throws {
        let plan = try StoryboardPlan(durationSeconds: 2.25, width: 1280, height: 720)
        #expect(
            plan.webVTT(image: "storyboard.webp") == """
                WEBVTT

                00:00:00.000 --> 00:00:01.000
                storyboard.webp#xywh=0,0,160,90

                00:00:01.000 --> 00:00:02.000
                storyboard.webp#xywh=160,0,160,90

                00:00:02.000 --> 00:00:02.250
                storyboard.webp#xywh=320,0,160,90

                """)
    }

    @Test func timestampsWriteHoursMinutesSecondsAndMilliseconds() {
        #expect(StoryboardPlan.timestamp(0) == "00:00:00.000")
        #expect(StoryboardPlan.timestamp(59_500) == "00:00:59.500")
        #expect(StoryboardPlan.timestamp(3_723_004) == "01:02:03.004")
        #expect(StoryboardPlan.timestamp(600_050) == "00:10:00.050")
    }
}
