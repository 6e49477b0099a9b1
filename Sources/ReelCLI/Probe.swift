import ArgumentParser
import Ingest
import MediaModel

extension Reel {
    /// `reel probe FILE`: what a video or image is, read in-process with the same safe opening as admission.
    struct Probe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Describe a video or image.")

        @Argument(help: "The file to probe.") var file: String
        @Flag(name: .long, help: "Print stable snake_case JSON.") var json = false

        func run() async throws {
            let info: MediaInfo
            do {
                info = try AdmissionPolicy().probe(path: file)
            } catch {
                if json {
                    JSONOutput.print(
                        Check.Refused(reason: error.reason.rawValue, message: error.message, path: error.path))
                } else {
                    printError("cannot probe \(error.path): \(error.reason.rawValue): \(error.message)")
                }
                throw ExitCode(65)
            }
            if json { JSONOutput.print(info) } else { print(ProbeTable.render(info)) }
        }
    }
}
