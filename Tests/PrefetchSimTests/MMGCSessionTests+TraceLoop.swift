import PrefetchSim
import Testing

/// The challenge's trace clock restarts at 0 when a trace wraps, not at the first row's time, so on a trace that
/// starts later than 0 s the first bandwidth row covers 0…time[1] after each wrap.
extension MMGCSessionTests {
    /// 8 Mbps from 10 s to 11 s, 16 Mbps from 11 s to 12 s; row 0 is never used.
    static let lateStart = NetworkTrace(name: "starts at 10 s", times: [10, 11, 12], mbps: [999, 8, 16])

    /// Downloads the playing video's chunks in order at the lowest rung, then lets it play.
    struct InOrder: MMGCPolicy {
        let name = "in order"
        func decide(_ view: MMGCView) -> MMGCDecision {
            view.hasChunkLeft(view.playing) ? .download(video: view.playing, rung: 0) : .sleep(milliseconds: 1000)
        }
    }

    @Test func afterAWrapTheFirstRowHoldsFromZeroToItsTime() {
        let trace = Self.lateStart
        var clock = trace.challengeStart
        // The first pass starts at 10 s: 1 MB in row 1's one second at 8 Mbps, 2 MB in row 2's at 16 Mbps.
        #expect(abs(trace.transfer(bytes: 3_000_000, efficiency: 1, from: &clock) - 2) < 1e-9)
        // Wrapped, row 1's 8 Mbps holds for 11 s (0–11 s), not 1 s: 11 MB take 11 s, then row 2 is back.
        #expect(abs(trace.transfer(bytes: 11_000_000, efficiency: 1, from: &clock) - 11) < 1e-9)
        #expect(abs(trace.transfer(bytes: 2_000_000, efficiency: 1, from: &clock) - 1) < 1e-9)
        // The client model's clock keeps looping back to 10 s, where row 1 holds for one second only.
        var client = trace.clock(at: 2)
        #expect(abs(trace.transfer(bytes: 3_000_000, efficiency: 1, from: &client) - 2) < 1e-9)
    }

    @Test func afterAWrapTheSessionSeesTheFirstRowFromZeroToItsTime() {
        // At 0.95 × 8 Mbps and 0.95 × 16 Mbps: chunk 0 takes the first row (10–11 s), chunk 1 the second (11–12 s).
        // Chunk 2 starts on the wrapped trace: 1.9 MB at 0.95 × 8 Mbps is 2 s, all of it in row 1's 0–11 s.
        let sizes = [950_000, 1_900_000, 1_900_000]
        let video = ShortVideo(name: "v", chunkBytes: [sizes, sizes, sizes], retention: [1, 1, 1, 1])
        var carried: [Double] = [-1]
        let result = MMGCSession(videos: [video], watch: [3000], trace: Self.lateStart).run(
            InOrder(), lastChunkBitrate: &carried)
        // Stalls: all of chunk 0's 1080 ms, then delay − the 1 s buffered: 1080 − 1000 and 2080 − 1000.
        // Restarting at 10 s instead would give chunk 2 one second of row 1, then 16 Mbps: 1580 ms, 1740 ms stalled.
        #expect(result.chunksDownloaded == 3)
        #expect(result.rebufferMilliseconds == 1080 + 80 + 1080)
    }
}
