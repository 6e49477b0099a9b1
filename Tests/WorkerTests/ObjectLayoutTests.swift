import Catalog
import MediaModel
import SQLiteCatalog
import Testing

@testable import Worker

@Suite(.timeLimit(.minutes(5))) struct ObjectLayoutTests {
    static let id = "0123456789abcdef0123"

    @Test func outputKeysNameTheirClaimAndNothingElseParses() {
        let id = Self.id
        #expect(ObjectLayout.video(id, epoch: 3) == "videos/\(id).e3")
        #expect(ObjectLayout.image(id, epoch: 12) == "images/\(id).e12.webp")
        #expect(ObjectLayout.original(id) == "originals/\(id)")
        #expect(ObjectLayout.reason(id, rejected: true) == "rejected/\(id).reason.json")
        #expect(ObjectLayout.reason(id, rejected: false) == "failed/\(id).reason.json")
        let claim = ObjectLayout.Claim(id: id, epoch: 3)
        for key in [
            "videos/\(id).e3/master.m3u8", "videos/\(id).e3/720p/segment12.m4s", "videos/\(id).e3/x",
        ] {
            #expect(ObjectLayout.claim(ofOutput: key) == claim, "\(key)")
        }
        #expect(ObjectLayout.claim(ofOutput: "images/\(id).e3.webp") == claim)
        #expect(ObjectLayout.claim(ofOutput: ObjectLayout.image(id, epoch: 0)) == .init(id: id, epoch: 0))
        for key in [
            // A copied local library's keys, originals, verdicts and strangers' objects.
            "videos/\(id)/master.m3u8", "videos/\(id)/e3/master.m3u8", "images/\(id).webp", "originals/\(id)",
            "rejected/\(id).reason.json", "notes/\(id).e3/x",
            // Anything malformed.
            "videos/\(id).e3", "videos/\(id).e3/", "videos/\(id).e/x", "videos/\(id).e03/x", "videos/\(id).e+3/x",
            "videos/\(id).e-3/x", "videos/\(id).e3x/x", "videos/\(id.uppercased()).e3/x", "videos/abc.e3/x",
            "images/\(id).e3.jpg", "images/\(id).e3.webp/x", "images/\(id).e99999999999999999999.webp", "videos",
            "",
        ] {
            #expect(ObjectLayout.claim(ofOutput: key) == nil, "\(key)")
        }
        #expect(ObjectLayout.id(ofOriginal: "originals/\(id)") == id)
        #expect(ObjectLayout.id(ofOriginal: "originals/\(id)/x") == nil)
        #expect(ObjectLayout.id(ofOriginal: "originals/short") == nil)
        #expect(ObjectLayout.id(ofOriginal: "videos/\(id)") == nil)
    }

    /// Every state at every epoch relation: outputs stay only for the current claim while it processes, and for good
    /// once that claim published them as this job's own media.
    @Test func aClaimsOutputsAreKeptExactlyWhileTheyMayBeOrAreCommitted() {
        let claim = ObjectLayout.Claim(id: Self.id, epoch: 4)
        for state in FeedJob.State.allCases {
            for epoch: Int64 in [3, 4, 5] {
                for media in [nil, Self.id, "ffffffffffffffffffff"] {
                    var job = FeedJob(
                        id: Self.id, kind: .video, state: state, attempts: 1, lastError: nil, progress: 0,
                        createdAt: 0, updatedAt: 0, mediaID: media)
                    job.epoch = epoch
                    let kept = Worker.keepsOutputs(of: claim, job: job)
                    let expected =
                        epoch == 4 && (state == .processing || (state == .published && media == Self.id))
                    #expect(kept == expected, "\(state) epoch \(epoch) media \(media ?? "none")")
                }
            }
        }
    }
}
