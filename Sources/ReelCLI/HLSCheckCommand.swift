import ArgumentParser
import Deadlines
import FileSystem
import Foundation
import HLSCheck
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Reel {
    /// `reel hls-check DIR|URL`: a ladder against Apple's HLS Authoring Specification, read from disk or over HTTP.
    struct HLSCheckCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hls-check",
            abstract: "Check an HLS ladder against Apple's HLS Authoring Specification (and RFC 8216).",
            discussion: """
                DIR is the directory holding master.m3u8 (or give the playlist itself); a URL is fetched over HTTP with \
                everything it references. Exit 0 when there is no MUST finding, 1 when there is one, 64 on a usage error.
                """
        )

        @Argument(
            help: ArgumentHelp(
                "A directory holding master.m3u8, a master playlist, or an http(s) URL of one.",
                valueName: "dir-or-url"))
        var source: String
        @Option(
            name: .long,
            help: ArgumentHelp(
                "A rule broken on purpose (e.g. 6.1): still listed, marked waived, not a "
                    + "failure. Repeatable.", valueName: "rule"))
        var waive: [String] = []
        @Flag(name: .long, help: "Print the report as JSON.") var json = false

        var isURL: Bool { source.hasPrefix("http://") || source.hasPrefix("https://") }

        func validate() throws {
            guard isURL || Directory.exists(source) else {
                throw ValidationError("\(source): no such directory or file")
            }
        }

        /// The checker reads synchronously (files, or HTTP GETs it waits for): it runs on a thread of its own.
        func run() async throws {
            let options = HLSChecker.Options(waivedRules: Set(waive))
            let (source, isURL) = (self.source, self.isURL)
            let report = try await onOwnThread("hls-check \(source)") { () -> HLSReport in
                if isURL {
                    let master =
                        source.hasSuffix(".m3u8")
                        ? source : (source.hasSuffix("/") ? source : source + "/") + "master.m3u8"
                    return HLSChecker(reader: HTTPResources(), options: options).check(master: master)
                } else if Directory.isDirectory(source) {
                    return HLSChecker(options: options).check(directory: source)
                } else {
                    return HLSChecker(options: options).check(master: source)
                }
            }
            if json { JSONOutput.print(report) } else { printHuman(report) }
            if !report.passed { throw ExitCode(1) }
        }

        private func printHuman(_ report: HLSReport) {
            print("\(report.master)")
            for variant in report.variants {
                let rate = variant.measuredFrameRate.map { String(format: "%.3f fps", $0) } ?? "no video"
                print(
                    "  \(variant.playlist)  \(variant.measuredResolution ?? "-")  \(rate)  \(variant.measuredCodecs ?? "-")  "
                        + "\(variant.segments) segments, \(String(format: "%.3f", variant.durationSeconds)) s")
                print(
                    "    BANDWIDTH \(variant.bandwidth.map(String.init) ?? "-") (measured peak \(variant.measuredPeak)), "
                        + "AVERAGE-BANDWIDTH \(variant.averageBandwidth.map(String.init) ?? "-") (measured \(variant.measuredAverage))"
                )
                if let colour = variant.measuredColour {
                    let depth = variant.measuredBitDepth.map { "\($0)-bit " } ?? ""
                    print(
                        "    VIDEO-RANGE \(variant.videoRange ?? "-") (measured \(variant.measuredVideoRange ?? "-")), "
                            + "\(depth)\(colour)")
                }
            }
            for group in report.findingsByFile {
                print(group.file)
                for finding in group.findings {
                    let severity = finding.severity.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
                    print("  \(severity) \(finding.rule): \(finding.message)\(finding.waived ? " (waived)" : "")")
                }
            }
            let waived = report.findings.filter(\.waived).count
            print(
                "\(report.passed ? "PASS" : "FAIL"): \(report.mustCount) MUST, \(report.shouldCount) SHOULD"
                    + (waived > 0 ? ", \(waived) waived" : ""))
        }
    }
}

/// Reads a ladder over HTTP for `reel hls-check URL`. Each resource is fetched whole once and the last few are
/// kept, because the checker reads a segment in several small pieces (box headers, the moof, a sample's start).
/// The checker is synchronous and runs on a thread of its own (`HLSCheckCommand.run`); each GET blocks that thread
/// only, for at most `requestTimeout`.
final class HTTPResources: HLSResourceReader, Sendable {
    private let recent = Mutex<[(location: String, body: [UInt8])]>([])
    private var session: URLSession { Self.session }
    static let requestTimeout: TimeInterval = 30

    /// One session for the process, never invalidated. Invalidated when a check ended, its libcurl handles were torn
    /// down on a dispatch thread after the report was printed, while the process exited and OpenSSL's exit handler
    /// ran: a loaded test run saw `reel hls-check` print a passing report, then die of SIGSEGV in libcrypto.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = requestTimeout
        configuration.timeoutIntervalForResource = requestTimeout * 2
        return URLSession(configuration: configuration)
    }()

    func resolve(_ uri: String, against base: String) -> String {
        guard let baseURL = URL(string: base), let resolved = URL(string: uri, relativeTo: baseURL) else { return uri }
        return resolved.absoluteURL.absoluteString
    }

    func size(of location: String) throws(HLSResourceError) -> Int64 { Int64(try body(location).count) }

    func read(_ location: String, offset: Int64, count: Int) throws(HLSResourceError) -> [UInt8] {
        let bytes = try body(location)
        let start = Int(min(Int64(bytes.count), max(0, offset)))
        return Array(bytes[start..<min(bytes.count, start + count)])
    }

    private func body(_ location: String) throws(HLSResourceError) -> [UInt8] {
        if let hit = recent.withLock({ $0.first { $0.location == location }?.body }) { return hit }
        guard let url = URL(string: location), url.scheme == "http" || url.scheme == "https" else {
            throw HLSResourceError(location: location, reason: "not an http(s) URL", isNotFound: true)
        }
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        session.dataTask(with: url) { data, response, error in
            outcome.set(data, response as? HTTPURLResponse, error)
            done.signal()
        }.resume()
        // URLSession ends every task by the resource timeout; the wait's own bound only guards against one it lost.
        guard done.wait(timeout: .now() + Self.requestTimeout * 3) == .success else {
            throw HLSResourceError(
                location: location, reason: "no answer within \(Int(Self.requestTimeout * 3)) s", isNotFound: false)
        }
        let (data, response, error) = outcome.get()
        if let error {
            throw HLSResourceError(location: location, reason: error.localizedDescription, isNotFound: false)
        }
        let status = response?.statusCode ?? 0
        guard (200..<300).contains(status), let data else {
            throw HLSResourceError(
                location: location, reason: "HTTP \(status)", isNotFound: status == 404 || status == 410)
        }
        let bytes = [UInt8](data)
        recent.withLock { recent in
            recent.insert((location, bytes), at: 0)
            if recent.count > 3 { recent.removeLast() }
        }
        return bytes
    }

    /// The completion handler's results, handed from URLSession's queue to the waiting thread.
    private final class Outcome: Sendable {
        // Foundation's Data and URLResponse are not Sendable on Linux: the Mutex guards the hand-over.
        private let value = Mutex<(Data?, HTTPURLResponse?, (any Error)?)>((nil, nil, nil))
        func set(_ data: Data?, _ response: HTTPURLResponse?, _ error: (any Error)?) {
            value.withLock { $0 = (data, response, error) }
        }
        func get() -> (Data?, HTTPURLResponse?, (any Error)?) { value.withLock { $0 } }
    }
}
