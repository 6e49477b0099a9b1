/// `DispatchQueue.concurrentPerform` on threads of this process's own (`ThreadPool`). A sandboxed job cannot use
/// libdispatch's pool: on Linux its monitor reads `/proc/<thread id>/stat` of every worker once a second while work
/// waits, and crashes the process (`_dispatch_workq_monitor_pools`, SIGILL) when it cannot, as under Landlock, where
/// only the job's own `/proc/self` is readable, and in the namespace jail, which has no `/proc`.
package enum ParallelLoop {
    /// Calls `body` once for every index in `0..<iterations`, on the calling thread and on pool threads at once, and
    /// returns when every call has returned. The calling thread takes indices too, so a loop finishes even when the
    /// pool has no thread to spare (a loop inside a loop). It blocks its caller until the last call returns, so it is
    /// `noasync`: the compiler keeps it off Swift's cooperative threads (the job's encode loop and table builds run
    /// on threads of their own).
    @available(*, noasync, message: "blocks its thread until every call returns; call it from a thread of your own")
    package static func perform(iterations: Int, _ body: @escaping (Int) -> Void) {
        guard iterations > 1 else {
            if iterations == 1 { body(0) }
            return
        }
        let batch = ParallelBatch(iterations: iterations, body: body)
        ThreadPool.shared.offer(batch, helpers: iterations - 1)
        batch.work()
        batch.waitUntilFinished()
    }
}
