/// What a job holder proves on every transition: the job, the epoch of its claim, and its owner token.
package struct JobLease: Sendable, Hashable, CustomStringConvertible {
    package var id: String
    package var epoch: Int64
    package var owner: String

    package init(id: String, epoch: Int64, owner: String) {
        self.id = id
        self.epoch = epoch
        self.owner = owner
    }

    package var description: String { "job \(id) at epoch \(epoch) held by \(owner)" }
}
