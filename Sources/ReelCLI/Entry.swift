import ArgumentParser
import Dispatch
import Foundation
import Worker

/// The process entry. `reel worker-job-server` starts here, before ArgumentParser and the concurrency runtime have
/// started a thread: it forks every worker job, and a fork copies only the calling thread, so the server must never
/// have had another (`JobServer`). Every other command runs through ArgumentParser in the concurrency runtime, as
/// an async `@main` would run it.
@main
enum Entry {
    static func main() {
        if CommandLine.arguments.count == 2, CommandLine.arguments[1] == JobServer.subcommand { JobServer.main() }
        Task {
            await Reel.main()
            exit(0)
        }
        dispatchMain()
    }
}
