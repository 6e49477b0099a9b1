import ArgumentParser

/// `reel-bench`: measurements for `make bench` that a production binary has no business carrying. It is built by
/// `make bench` only, never by `make release`.
@main
struct ReelBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel-bench", abstract: "Reel's benchmark drivers (make bench).",
        subcommands: [Claims.self, PrefetchTune.self])
}
