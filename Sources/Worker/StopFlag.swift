internal import Synchronization

/// A flag set once, from any thread.
package final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    package init() {}
    package var isSet: Bool { flag.load(ordering: .acquiring) }
    package func set() { flag.store(true, ordering: .releasing) }
}
