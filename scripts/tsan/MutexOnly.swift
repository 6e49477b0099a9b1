// Four threads insert into and remove from one Mutex<Set<String>>, nothing else. Every access is inside withLock, so
// there is no race; ThreadSanitizer on Linux still reports "Swift access race" on the set, because Synchronization's
// Mutex locks with futex system calls that TSan does not model. scripts/tsan/mutex-false-positive.sh runs it.
import Dispatch
import Synchronization

final class Shared: Sendable { let names = Mutex<Set<String>>([]) }

let shared = Shared()
let group = DispatchGroup()
for thread in 0..<4 {
    DispatchQueue.global().async(group: group) {
        for round in 0..<20_000 {
            let name = "\(thread)-\(round % 7)"
            _ = shared.names.withLock { $0.insert(name).inserted }
            _ = shared.names.withLock { $0.remove(name) }
        }
    }
}
group.wait()
print("left in the set: \(shared.names.withLock { $0.count }) (0 expected)")
