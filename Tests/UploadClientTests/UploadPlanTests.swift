import Ingest
import MediaModel
import TestTraits
import Testing
import Transcode
import UploadClient

@Suite(.offThePool, .timeLimit(.minutes(5))) struct UploadPlanTests {
    func makePlan(
        _ format: SniffedFormat, _ bytes: Int64, fits: Bool = false, name: String = "/in/clip.mp4",
        quality: CompressPreset.Quality = .medium
    ) throws(UploadError) -> UploadPlan {
        try UploadPlan.make(.init(path: name, format: format, bytes: bytes, fitsTier: fits), quality: quality)
    }

    @Test func aSmallVideoThatFitsIsSentAsIs() throws {
        let plan = try makePlan(.mp4, 9_999_999, fits: true)
        #expect(plan.action == .uploadAsIs)
        #expect(plan.kind == .video)
        #expect(plan.filename == "clip.mp4")
        #expect(plan.filetype == "video/mp4")
    }

    @Test func aSmallVideoThatDoesNotFitIsCompressed() throws {
        let plan = try makePlan(.mp4, 4_000_000, fits: false, quality: .low)
        #expect(plan.action == .compress(.low))
    }

    @Test(arguments: [Int64(10_000_000), 30_000_000, 50_000_000])
    func videosFromTenToFiftyMBAreCompressedEvenWhenTheyFit(bytes: Int64) throws {
        let plan = try makePlan(.matroska, bytes, fits: true, name: "/in/holiday.mkv", quality: .high)
        #expect(plan.action == .compress(.high))
        #expect(plan.filename == "holiday.mp4")
        #expect(plan.filetype == "video/mp4")
    }

    @Test func aVideoOverFiftyMBIsRefusedNamingTheLimitTheFileAndItsSize() throws {
        let error = #expect(throws: UploadError.self) {
            try makePlan(.mp4, 50_000_001, fits: true, name: "/in/big.mp4")
        }
        #expect(error?.kind == .rejected(code: "too_large"))
        #expect(error?.exitCode == 65)
        #expect(error?.message.contains("/in/big.mp4") == true)
        #expect(error?.message.contains("50000001 bytes") == true)
        #expect(error?.message.contains("video upload limit is 50.0 MB") == true)
    }

    @Test(arguments: [SniffedFormat.jpeg, .png, .webp, .heif])
    func imagesUpToTwentyMBAreSentAsIs(format: SniffedFormat) throws {
        let plan = try makePlan(format, 20_000_000, name: "/in/photo.\(format.name)")
        #expect(plan.kind == .image)
        #expect(plan.action == .uploadAsIs)
        #expect(plan.filetype.hasPrefix("image/"))
    }

    @Test func anImageOverTwentyMBIsRefused() throws {
        let error = #expect(throws: UploadError.self) { try makePlan(.png, 20_000_001, name: "/in/scan.png") }
        #expect(error?.kind == .rejected(code: "too_large"))
        #expect(error?.message.contains("image upload limit is 20.0 MB") == true)
    }

    @Test(arguments: [SniffedFormat.forbidden("HLS playlist"), .unsupported("avi"), .unknown])
    func otherFormatsAreRefused(format: SniffedFormat) throws {
        let error = #expect(throws: UploadError.self) { try makePlan(format, 1000) }
        #expect(error?.kind == .rejected(code: "unsupported_format"))
    }

    @Test func theLimitsComeFromTheAdmissionLimits() throws {
        var limits = AdmissionLimits.default
        limits.video.maxBytes = 1_000
        #expect(throws: UploadError.self) {
            try UploadPlan.make(
                .init(path: "a.mp4", format: .mp4, bytes: 1_001, fitsTier: true), quality: .high, limits: limits)
        }
    }

    @Test func mimeTypesFollowTheContainerAndName() throws {
        #expect(try makePlan(.mp4, 1000, fits: true, name: "/in/a.MOV").filetype == "video/quicktime")
        #expect(try makePlan(.matroska, 1000, fits: true, name: "/in/a.webm").filetype == "video/webm")
        #expect(try makePlan(.heif, 1000, name: "/in/a.HEIC").filetype == "image/heic")
        #expect(try makePlan(.jpeg, 1000, name: "/in/a.jpg").filetype == "image/jpeg")
    }
}
