internal import FileSystem
package import Foundation
package import MediaModel
internal import Synchronization

/// A directory of images converted in parallel, one file per core at a time. A failing file never stops the batch.
package struct BatchConversion: Sendable {
    package struct Outcome: Sendable {
        package var converted: [ChatImageResult] = []
        package var failed: [ProcessingError] = []
    }

    package let converter: ChatImageConverter
    package let quality: ImageQuality
    package let workers: Int

    package init(
        converter: ChatImageConverter, quality: ImageQuality,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.converter = converter
        self.quality = quality
        self.workers = max(1, workers)
    }

    /// The regular, visible files of `directory`, sorted by name, each with the output name it gets.
    /// Two sources with one stem (a.jpg, a.png) get distinct outputs (a.webp, a.png.webp).
    package static func plan(directory: String, output: String) throws -> [(source: String, output: String)] {
        let names = try Directory.entries(of: directory).map { String(decoding: $0.name, as: UTF8.self) }.filter {
            !$0.hasPrefix(".")
        }.sorted()
        var taken = Set<String>()
        return names.map { name in
            let stem = (name as NSString).deletingPathExtension
            var target = (stem.isEmpty ? name : stem) + ".webp"
            if taken.contains(target) { target = name + ".webp" }
            taken.insert(target)
            return (
                (directory as NSString).appendingPathComponent(name),
                (output as NSString).appendingPathComponent(target)
            )
        }
    }

    /// Runs the plan; `progress` is called after each file with (done, total), from any thread.
    package func run(
        _ plan: [(source: String, output: String)], progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) -> Outcome {
        // What the workers share: the next file to take, and the results so far.
        struct State {
            var outcome = Outcome()
            var next = 0
            var done = 0
        }
        let state = Mutex(State())
        let converter = self.converter, quality = self.quality
        DispatchQueue.concurrentPerform(iterations: min(workers, max(plan.count, 1))) { _ in
            while true {
                let index: Int? = state.withLock { state in
                    defer { state.next += 1 }
                    return state.next < plan.count ? state.next : nil
                }
                guard let index else { return }
                let item = plan[index]
                let converted: Result<ChatImageResult, ProcessingError>
                do throws(ProcessingError) {
                    converted = .success(try converter.convert(item.source, to: item.output, quality: quality))
                } catch {
                    converted = .failure(error)
                }
                let count: Int = state.withLock { state in
                    switch converted {
                    case let .success(result): state.outcome.converted.append(result)
                    case let .failure(error): state.outcome.failed.append(error)
                    }
                    state.done += 1
                    return state.done
                }
                progress(count, plan.count)
            }
        }
        var outcome = state.withLock { $0.outcome }
        outcome.converted.sort { $0.source < $1.source }
        outcome.failed.sort { $0.path < $1.path }
        return outcome
    }
}
