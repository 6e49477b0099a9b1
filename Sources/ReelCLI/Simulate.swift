import ArgumentParser
import Foundation
import PrefetchSim

extension Reel {
    /// `reel simulate`: prefetch policies on real bandwidth traces and chunk sizes, in the challenge's terms.
    struct Simulate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Simulate feed-scroll prefetch policies on bandwidth traces (ACM MM'22 challenge semantics).",
            discussion:
                "Modes: client (the phone client: player pool, prefetch window, paging; policies none, next1, window, window:K, aware) and mmgc (the challenge's exact semantics; also W0 W1 W2 W4 A2 no_save fixed_preload pdas lookahead). From a Reel catalog's viewer events: --retention-from and --network-from take measured retention curves and bandwidth traces, and --replay predicts each real session and reports the error against what its page measured."
        )

        @Option(name: .long, help: "A trace file, a directory of traces, or synthetic:N (N generated traces).")
        var network: String?
        @Option(
            name: .long,
            help:
                "A Reel catalog (catalog.sqlite) whose viewers' segment fetches make the bandwidth traces: one per session."
        )
        var networkFrom: String?
        @Option(
            name: .long,
            help:
                "A Reel catalog whose viewers' figures give each --feed-catalog video its measured retention curve (with --users N)."
        )
        var retentionFrom: String?
        @Option(
            name: .long,
            help:
                "A Reel catalog: replay each of its viewers' sessions in the client model (on the session's own fetches, with --policy and --players as the web client has them) and report the error against what was measured."
        )
        var replay: String?
        @Option(name: .long, help: "Catalog directory: <video>/video_size_{0,1,2}.") var catalog: String?
        @Option(
            name: .long,
            help:
                "A Reel catalog (catalog.sqlite), read only: its published videos with their real init and first-segment sizes (client mode)."
        )
        var feedCatalog: String?
        @Option(name: .long, help: "Retention curves directory (needed by A2, aware and sampled users).") var retention:
            String?
        @Option(
            name: .long, help: "Policy: \(PolicyName.validNames.joined(separator: ", ")) (default: window).",
            transform: { try PolicyName(parsing: $0) })
        var policy: PolicyName = .window
        @Option(
            name: .long,
            help:
                "sample0 (the challenge's default user), a number of users seeded by Reel, challenge:N (users 0..<N drawn as the challenge's run.py draws them; --seed is its RANDOM_SEED, 42 there), or challenge-after-sample0:N (the same, drawn after the default user's run, as the data's reference table was).",
            transform: { text in
                do { return try SimulatedUsers(parsing: text) } catch { throw ValidationError("\(error)") }
            })
        var users: SimulatedUsers = .sample0
        @Option(name: .long, help: "Seed for sampled users.") var seed: UInt64 = 1
        @Option(name: .long, help: "client (the phone client model) or mmgc (the challenge's semantics).") var mode:
            String = "client"
        @Option(name: .long, help: "Players in the pool (client mode, 3–5).") var players: Int = 3
        @Option(name: .long, help: "Chance that a user swipes back after a video (client mode, 0–1).") var backSwipes:
            Double = 0
        @Option(name: .long, help: "Milliseconds of scroll gesture between videos (client mode).") var scrollPause:
            Int = 0
        @Flag(name: .long, help: "Print JSON.") var json = false

        func validate() throws {
            guard mode == "mmgc" || mode == "client" else {
                throw ValidationError("--mode takes client or mmgc, not \(mode)")
            }
            if replay != nil {
                guard network == nil, networkFrom == nil, catalog == nil, feedCatalog == nil, retention == nil,
                    retentionFrom == nil, mode == "client"
                else {
                    throw ValidationError(
                        "--replay takes its videos, sessions and traces from its catalog: give it alone (with --policy, --players, --json)"
                    )
                }
                guard policy.runsInClientMode else {
                    throw ValidationError(PolicyNameError.challengeOnly(policy).description)
                }
                guard (3...5).contains(players) else { throw ValidationError("--players takes 3 to 5") }
                return
            }
            guard (network == nil) != (networkFrom == nil) else {
                throw ValidationError("give either --network or --network-from")
            }
            guard (catalog == nil) != (feedCatalog == nil) else {
                throw ValidationError("give either --catalog or --feed-catalog")
            }
            if retentionFrom != nil, feedCatalog == nil {
                throw ValidationError(
                    "--retention-from goes with --feed-catalog: its curves are for a Reel catalog's videos (the challenge's have --retention)"
                )
            }
            if feedCatalog != nil, mode != "client" {
                throw ValidationError(
                    "--feed-catalog runs in client mode: the challenge's semantics need its 1 s chunks and three rungs")
            }
            if feedCatalog != nil, retention != nil {
                throw ValidationError("--retention goes with --catalog: a Reel catalog has no retention curves")
            }
            if mode == "client", !policy.runsInClientMode {
                throw ValidationError(PolicyNameError.challengeOnly(policy).description)
            }
            guard (3...5).contains(players) else { throw ValidationError("--players takes 3 to 5") }
            guard (0...1).contains(backSwipes) else { throw ValidationError("--back-swipes takes a probability 0...1") }
            // Added to the simulated clock (an Int of ms): near Int.max the first swipe trapped.
            guard (0...3_600_000).contains(scrollPause) else {
                throw ValidationError("--scroll-pause takes 0 to 3600000 milliseconds (an hour)")
            }
            if case .challenge = users, UInt32(exactly: seed) == nil {
                throw ValidationError(SimulatedUsers.ParseError.seedTooLarge(seed).description)
            }
            if case .challengeAfterSample0 = users, UInt32(exactly: seed) == nil {
                throw ValidationError(SimulatedUsers.ParseError.seedTooLarge(seed).description)
            }
        }

        /// The challenge's figures at the top level (score, qoe, bytes_downloaded, wasted_bytes, rebuffer_ms,
        /// watch_ms, download_watch_ratio, chunks_downloaded), then Reel's own.
        struct Report: Encodable {
            let policy: String
            let traces: Int
            let users: String
            let result: MMGCResult
            let stallRatio: Double
            let wasteRatio: Double
            let chunkEventsPerSecond: Double

            enum CodingKeys: String, CodingKey {
                case policy, traces, users, result
                case stallRatio = "stall_ratio"
                case wasteRatio = "waste_ratio"
                case chunkEventsPerSecond = "chunk_events_per_second"
            }

            func encode(to encoder: any Encoder) throws {
                try result.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(policy, forKey: .policy)
                try container.encode(traces, forKey: .traces)
                try container.encode(users, forKey: .users)
                try container.encode(stallRatio, forKey: .stallRatio)
                try container.encode(wasteRatio, forKey: .wasteRatio)
                try container.encode(chunkEventsPerSecond, forKey: .chunkEventsPerSecond)
            }
        }

        func run() async throws {
            if let replay {
                try await self.replay(catalogPath: replay)
                return
            }
            let traces: [NetworkTrace]
            let videos: [ShortVideo]
            do {
                if let networkFrom {
                    traces = try await Self.measuredTraces(at: networkFrom)
                } else {
                    traces = try MMGCData.network(at: network ?? "")
                }
                if let feedCatalog {
                    var curves: [String: [Double]] = [:]
                    if let retentionFrom { curves = try await Self.measuredRetention(at: retentionFrom) }
                    videos = try await Self.feedVideos(at: feedCatalog).map {
                        $0.shortVideo(retention: curves[$0.name] ?? [])
                    }
                } else {
                    videos = try MMGCData.catalog(at: catalog ?? "", retention: retention)
                }
            } catch {
                throw ValidationError("\(error)")
            }
            if mode == "client" {
                try runClient(traces: traces, videos: videos)
                return
            }
            let chosen = policy.makeMMGCPolicy()
            let runner = MMGCRunner(catalog: videos, traces: traces)
            let started = Date()
            let result: MMGCResult
            if users == .sample0 {
                result = runner.run(chosen).average
            } else {
                let people = try watchTimes(videos: runner.sessionVideos)
                result = runner.run(chosen, users: people, unscoredFirst: users.unscoredFirst)
            }
            let elapsed = max(Date().timeIntervalSince(started), 1e-9)
            let sessions = Double(traces.count) * Double(users.count)
            let report = Report(
                policy: policy.rawValue, traces: traces.count, users: users.spelling, result: result,
                stallRatio: result.stallRatio,
                wasteRatio: result.wasteRatio, chunkEventsPerSecond: result.chunksDownloaded * sessions / elapsed)
            if json {
                JSONOutput.print(report)
            } else {
                print(
                    String(
                        format:
                            "%@ on %d traces, users %@: score %.4f, QoE %.4f, downloaded %.0f B, wasted %.0f B (%.1f%%), rebuffer %.0f ms of %.0f ms (%.1f%%)",
                        policy.rawValue, traces.count, users.spelling, result.score, result.qoe, result.bytesDownloaded,
                        result.wastedBytes,
                        100 * result.wasteRatio, result.rebufferMilliseconds, result.watchMilliseconds,
                        100 * result.stallRatio))
            }
        }

        private func watchTimes(videos: [ShortVideo]) throws -> [[Int]] {
            do { return try users.watchTimes(videos: videos, seed: seed) } catch { throw ValidationError("\(error)") }
        }

        private func runClient(traces: [NetworkTrace], videos: [ShortVideo]) throws {
            let session = (0..<7).map { videos[$0 % videos.count] }
            let people = try watchTimes(videos: session)
            var base = ClientConfiguration()
            base.players = players
            let started = Date()
            var summary = try ClientRun.run(
                catalog: session, traces: traces, users: people, policy: policy, base: base,
                backSwipeProbability: backSwipes, pauseMilliseconds: scrollPause, seed: seed)
            summary.chunkEventsPerSecond =
                Double(summary.chunksDownloaded) / max(Date().timeIntervalSince(started), 1e-9)
            if json {
                JSONOutput.print(summary)
            } else {
                print(
                    "\(policy) (client model, \(players) players) on \(summary.sessions) sessions: startup p50 \(summary.startupP50Milliseconds) ms, "
                        + "p95 \(summary.startupP95Milliseconds) ms, "
                        + String(format: "mean %.0f ms; ", summary.startupMeanMilliseconds)
                        + "\(summary.stallCount) stalls, \(summary.stallMilliseconds) ms; "
                        + String(format: "stall ratio %.1f%%; ", 100 * summary.stallRatio)
                        + "downloaded \(summary.bytesDownloaded) B, wasted \(summary.bytesWasted) B "
                        + String(
                            format: "(%.1f%%); prefetch hit rate %.1f%%; ", 100 * summary.wasteRatio,
                            100 * summary.prefetchHitRate)
                        + "\(summary.playersCreated) players; peak buffer \(summary.peakBufferedBytes) B; \(summary.pageRequests) page requests"
                )
            }
        }
    }
}
