/// What a job holder proves on every transition: the job, the epoch of its claim, and its owner token.
public struct JobLease: Sendable, Hashable, CustomStringConvertible {
    public var id: String
    public var epoch: Int64
    public var owner: String

    public init(id: String, epoch: Int64, owner: String) {
        self.id = id
        self.epoch = epoch
        self.owner = owner
    }

    public var description: String { "job \(id) at epoch \(epoch) held by \(owner)" }
}
