import ArgumentParser
import Ingest
import MediaModel

extension Reel {
    /// `reel check FILE`: the admission policy, with exit code 65 and a reason when a file is refused.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check an upload against the admission limits (exit 0 accepted, 65 rejected)."
        )

        @Argument(help: "The uploaded file.") var file: String
        @OptionGroup var limits: LimitsOption
        @Flag(name: .long, help: "Print JSON.") var json = false

        struct Accepted: Encodable {
            let accepted = true
            let kind: MediaKind
            let info: MediaInfo
        }

        struct Refused: Encodable {
            let accepted = false
            let reason: String
            let message: String
            let path: String
        }

        func run() async throws {
            let policy = AdmissionPolicy(limits: try limits.load())
            do {
                let admitted = try policy.check(path: file)
                if json {
                    JSONOutput.print(Accepted(kind: admitted.info.kind, info: admitted.info))
                } else {
                    print("accepted: \(file) (\(admitted.info.kind.rawValue), \(admitted.info.container))")
                }
            } catch {
                if json {
                    JSONOutput.print(Refused(reason: error.reason.rawValue, message: error.message, path: error.path))
                } else {
                    printError("rejected: \(error.path): \(error.reason.rawValue): \(error.message)")
                }
                throw ExitCode(65)
            }
        }
    }
}
