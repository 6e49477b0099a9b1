import ArgumentParser
import Dispatch
import FileSystem
import Foundation
import Worker

/// The process entry. `reel worker-job-server` starts here, before ArgumentParser and the concurrency runtime have
/// started a thread: it forks every worker job, and a fork copies only the calling thread, so the server must never
/// have had another (`JobServer`). So does `reel worker-job`, which confines itself (Landlock and unshare apply to
/// the calling thread alone, so it must be the only one). Every other command runs through ArgumentParser in the
/// concurrency runtime, as an async `@main` would run it.
@main
enum Entry {
    static func main() {
        // No thread of reel's may ever run real time (`ThreadScheduling`); nothing reel does needs CAP_SYS_NICE.
        do { try ThreadScheduling.neverRealTime() } catch {
            FileHandle.standardError.write(Data("reel: warning: \(error)\n".utf8))
        }
        if CommandLine.arguments.count == 2, CommandLine.arguments[1] == JobServer.subcommand { JobServer.main() }
        if let job = JobInvocation.parse(commandLine: CommandLine.arguments) { exit(JobRunner.main(job)) }
        Task {
            await Reel.main()
            exit(0)
        }
        dispatchMain()
    }
}
