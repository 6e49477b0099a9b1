import ArgumentParser
import Catalog
import CatalogEngines
import Foundation
import Logging
import ViewerAnalytics

extension Reel {
    /// `reel stats`: the per-video figures `reel serve` rolls up from viewers' events once a minute.
    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print what viewers made of each video, from the last roll-up of their events.",
            discussion: """
                The figures cover the events `reel serve` keeps (--events-retention, 7 days by default) and are \
                rolled up by it once a minute. A video with no view has no figures.
                """)
        @OptionGroup var database: DatabaseOption
        @Option(name: .long, help: "Only this video.") var video: String?
        @Flag(name: .long, help: "Print JSON: an array of every video's figures, or one video's object.") var json =
            false

        func run() async throws {
            let location = try database.location()
            let video = self.video
            let stats = try await CatalogOpener.with(location, connections: 1, logger: Logger(label: "reel.stats")) {
                (log: any ViewerEventLog) in
                if let video { return try await log.videoStats(video: video).map { [$0] } ?? [] }
                return try await log.allVideoStats()
            }
            if let video, stats.isEmpty {
                throw ValidationError("video \(video) has no figures: no view of it was rolled up")
            }
            if json {
                if video != nil { JSONOutput.print(stats[0]) } else { JSONOutput.print(stats) }
                return
            }
            print(Self.table(stats))
        }

        /// One line per video: views, sessions, startup median and p90, rebuffering, watched share, completion and
        /// kilobytes per view.
        static func table(_ stats: [VideoStats]) -> String {
            func padded(_ text: String, _ width: Int) -> String {
                String(repeating: " ", count: max(0, width - text.count)) + text
            }
            let widest = max(5, stats.map(\.video.count).max() ?? 0)
            var lines = [
                "video".padding(toLength: widest, withPad: " ", startingAt: 0) + padded("views", 8)
                    + padded("sessions", 10) + padded("startup p50", 13) + padded("p90", 8) + padded("rebuffer", 10)
                    + padded("watched", 9) + padded("completed", 11) + padded("KB/view", 10)
            ]
            for row in stats {
                lines.append(
                    row.video.padding(toLength: widest, withPad: " ", startingAt: 0) + padded(String(row.views), 8)
                        + padded(String(row.sessions), 10)
                        + padded(row.startupMedianMilliseconds.map { "\($0) ms" } ?? "-", 13)
                        + padded(row.startupP90Milliseconds.map { "\($0) ms" } ?? "-", 8)
                        + padded(String(format: "%.1f %%", row.rebufferRatio * 100), 10)
                        + padded(String(format: "%.0f %%", row.meanWatchedFraction * 100), 9)
                        + padded(String(format: "%.0f %%", row.completionRate * 100), 11)
                        + padded(String(format: "%.0f", row.bytesPerView / 1000), 10))
            }
            return lines.joined(separator: "\n")
        }
    }
}
