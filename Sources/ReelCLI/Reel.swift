import ArgumentParser

/// The `reel` command: one binary for ingest, transcode, images, the feed and the simulator. `Entry` runs it.
struct Reel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Short-video media pipeline and feed service.",
        subcommands: [
            Probe.self, Check.self, Webp.self, TranscodeCommand.self, Compress.self, Simulate.self, DB.self, Token.self,
            Serve.self, WorkerCommand.self, WorkerJob.self, Upload.self, HLSCheckCommand.self, Library.self, Stats.self,
            Delete.self, Webhook.self,
        ]
    )
}
