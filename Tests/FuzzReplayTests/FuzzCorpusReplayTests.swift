import Foundation
import FuzzContracts
import TestTraits
import Testing

/// The fuzz targets' corpora (Fuzz/Corpus: the seeds; Fuzz/Regressions: every input a campaign broke a contract
/// with, once fixed) replayed through each target's contract, as libFuzzer runs them.
@Suite(.offThePool, .timeLimit(.minutes(2))) struct FuzzCorpusReplayTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func inputs(_ folder: String, of target: String) throws -> [URL] {
        let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target)
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func everyCorpusInputKeepsItsTargetsContract(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let seeds = try Self.inputs("Corpus", of: name)
        #expect(!seeds.isEmpty, "\(name) has no seed corpus in Fuzz/Corpus/\(name)")
        for file in seeds + (try Self.inputs("Regressions", of: name)) {
            let input = Array(try Data(contentsOf: file))
            do throws(ContractBroken) { try target.check(input) } catch {
                Issue.record("\(name) \(file.lastPathComponent): \(error)")
            }
        }
    }

    /// Beyond the corpus, 2,000 inputs per target mutated from its seeds by a seeded generator (bytes changed,
    /// inserted, dropped, seeds spliced), the same on every run: a little of libFuzzer's search in every `make test`.
    @Test(arguments: FuzzTarget.all.map(\.name))
    func seededMutationsOfTheSeedsKeepTheContract(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let seeds = try Self.inputs("Corpus", of: name).map { Array(try Data(contentsOf: $0)) }
        var random = SeededGenerator(state: 0x5EED_0000 + UInt64(name.utf8.count))
        var broken: [String] = []
        for _ in 0..<2_000 {
            var input = seeds[Int(random.next() % UInt64(seeds.count))]
            for _ in 0...(random.next() % 4) {
                let at = input.isEmpty ? 0 : Int(random.next() % UInt64(input.count))
                switch random.next() % 4 {
                case 0 where !input.isEmpty: input[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: input.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
                case 2 where !input.isEmpty: input.remove(at: at)
                default: input.insert(contentsOf: seeds[Int(random.next() % UInt64(seeds.count))], at: at)
                }
            }
            do throws(ContractBroken) { try target.check(input) } catch {
                if broken.count < 3 { broken.append("\(input.prefix(48))... (\(input.count) bytes): \(error)") }
            }
        }
        #expect(broken.isEmpty, "\(name): \(broken.joined(separator: "; "))")
    }
}
