// A global holds a class instance only through a multi-payload enum, as swift-nio's NIOThreadPool holds its work
// queue (`State.running(Deque)` beside `.shuttingDown([Bool])`). Swift stores the case in spare high bits of the
// payload's pointer, so LeakSanitizer, which looks for exact pointers, finds none to the instance and reports a
// direct leak of memory that is still reachable. scripts/asan/enum-payload-false-positive.sh runs it.
#if canImport(Glibc)
import Glibc
#endif

final class Box { var bytes = [UInt8](repeating: 1, count: 500) }
enum State {
    case first([Bool])
    case second(Box)
    case empty
}
var state: State = .empty

@inline(never) func fill(second: Bool) { state = second ? .second(Box()) : .first([true]) }

fill(second: CommandLine.arguments.count > 1)
// Used right before exit, so the memory LeakSanitizer is about to call leaked is certainly reachable.
switch state {
case .second(let box): fputs("case second, its box holds \(box.bytes.count) bytes\n", stderr)
case .first(let flags): fputs("case first, \(flags.count) flag\n", stderr)
case .empty: break
}
