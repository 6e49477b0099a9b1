import ArgumentParser
import Catalog
import CatalogEngines
import Foundation
import Logging

extension ReelBench {
    /// `reel-bench claims`: the job queue's claim path under contention, for scripts/bench-claims.sh. It queues
    /// `--jobs` jobs, lets `--claimers` concurrent claimers drain them (the pool has a connection for each, so they
    /// contend in the database as workers on different hosts would), and prints one JSON line: claims per second,
    /// latency percentiles, and how many jobs were claimed twice (must be 0).
    struct Claims: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "claims", abstract: "Measure concurrent job claims.")

        @Option(name: .long, help: "Catalog: a SQLite file or a postgres:// URL.") var database: String
        @Option(name: .long, help: "Jobs to queue and drain.") var jobs = 10_000
        @Option(name: .long, help: "Concurrent claimers.") var claimers = 8

        func validate() throws {
            _ = try location()
            guard (1...1_000_000).contains(jobs), (1...64).contains(claimers) else {
                throw ValidationError("--jobs must be from 1 to 1000000 and --claimers from 1 to 64")
            }
        }

        func run() async throws {
            let (jobs, claimers) = (jobs, claimers)
            let logger = Logger(label: "reel-bench.claims")
            let location = try location()
            let result = try await CatalogOpener.with(location, connections: claimers + 2, logger: logger) {
                (store: any JobQueue & UploadLedger) in
                let prefix = String(UUID().uuidString.prefix(8)).lowercased()
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                // Queued as uploads hand them over: one finished upload's job each, many at a time.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for part in 0..<claimers {
                        group.addTask {
                            for n in stride(from: part, to: jobs, by: claimers) {
                                try await store.finishUpload(
                                    id: "bench-\(prefix)-\(n)", jobID: String(format: "%@%08d", prefix, n),
                                    sourceName: Array("clip\(n).mp4".utf8), bytes: 1_000, post: PostFacts(), now: now)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let clock = ContinuousClock()
                let started = clock.now
                let claims = try await withThrowingTaskGroup(of: [(String, Duration)].self) { group in
                    for claimer in 0..<claimers {
                        group.addTask {
                            var mine: [(String, Duration)] = []
                            while true {
                                let before = clock.now
                                guard
                                    let job = try await store.claimNextJob(
                                        owner: "bench\(claimer)", now: now + 1, leaseMilliseconds: 60_000)
                                else { break }
                                mine.append((job.id, clock.now - before))
                            }
                            return mine
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                let elapsed = clock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                let latencies = claims.map {
                    Double($0.1.components.attoseconds) / 1e15 + Double($0.1.components.seconds) * 1000
                }.sorted()
                let ids = claims.map(\.0)
                let processing = try await store.jobCounts()[.processing] ?? 0
                return BenchClaimsResult(
                    engine: location.description.hasPrefix("postgres") ? "postgresql" : "sqlite", jobs: jobs,
                    claimers: claimers,
                    claims: claims.count, seconds: seconds, claimsPerSecond: Double(claims.count) / max(seconds, 1e-9),
                    p50Milliseconds: Self.percentile(latencies, 0.50),
                    p99Milliseconds: Self.percentile(latencies, 0.99),
                    doubleClaims: ids.count - Set(ids).count, unclaimed: jobs - Set(ids).count,
                    processingRows: processing)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
            guard result.doubleClaims == 0, result.unclaimed == 0 else {
                throw ValidationError("\(result.doubleClaims) jobs were claimed twice and \(result.unclaimed) never")
            }
        }

        func location() throws -> DatabaseLocation {
            do { return try DatabaseLocation.parse(database) } catch { throw ValidationError(error.description) }
        }

        /// The nearest-rank percentile of sorted values.
        static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(max(rank, 0), sorted.count - 1)]
        }
    }
}

/// `reel-bench claims`'s one line of JSON.
struct BenchClaimsResult: Encodable {
    let engine: String
    let jobs: Int
    let claimers: Int
    let claims: Int
    let seconds: Double
    let claimsPerSecond: Double
    let p50Milliseconds: Double
    let p99Milliseconds: Double
    let doubleClaims: Int
    let unclaimed: Int
    let processingRows: Int

    enum CodingKeys: String, CodingKey {
        case engine, jobs, claimers, claims, seconds
        case claimsPerSecond = "claims_per_s"
        case p50Milliseconds = "p50_ms"
        case p99Milliseconds = "p99_ms"
        case doubleClaims = "double_claims"
        case unclaimed
        case processingRows = "processing_rows"
    }
}
