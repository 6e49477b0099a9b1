/// One parser's contract: `check` runs the parser on an input and throws `ContractBroken` when the parser breaks what
/// it promises (a round trip that changes the value, a range past the file), not only when it traps. libFuzzer
/// (`reel-fuzz` built by Fuzz/build.sh) turns a throw into a crash it keeps; the corpus replay in `make test` reports it.
package struct FuzzTarget: Sendable {
    package let name: String
    /// What the contract holds, for docs/records.md's campaign table and the replay's failures.
    package let contract: String
    package let check: @Sendable ([UInt8]) throws(ContractBroken) -> Void

    package static let all: [FuzzTarget] = [
        CursorContract.target, ByteRangeContract.target, UploadMetadataContract.target, UploadChecksumContract.target,
        BearerTokenContract.target, EntityTagContract.target, AcceptEncodingContract.target, PlaylistContract.target,
        ImageHeaderContract.target, JSONContract.target, EventBatchContract.target, PresetContract.target,
        TraceContract.target, MP4BoxContract.target, AdmissionContract.target, RankedCursorContract.target,
        MediaPathContract.target, SessionTokenContract.target,
    ]

    package static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// A parser broke its contract on one input: what was expected and what came out.
package struct ContractBroken: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = String(description.prefix(600)) }
}

/// Fails with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws(ContractBroken) {
    if !condition { throw ContractBroken(message()) }
}
