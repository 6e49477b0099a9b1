internal import CFileSystem

#if canImport(Glibc)
internal import Glibc
#endif

/// CPU time by thread, from Linux's `/proc/self/task`: an encoder's work runs on threads the codec library starts
/// itself, so its cost is the CPU of those threads (found as the threads that appeared while it opened).
package enum ThreadCPU {
    /// The ids of this process's threads now; empty where `/proc` cannot be read.
    package static func threadIDs() -> Set<Int32> {
        guard let entries = try? Directory.entries(of: "/proc/self/task") else { return [] }
        return Set(entries.compactMap { Int32(String(decoding: $0.name, as: UTF8.self)) })
    }

    /// User plus system CPU seconds of one thread of this process; nil when it has ended or cannot be read.
    package static func seconds(ofThread id: Int32) -> Double? {
        guard let stat = readProcFile("/proc/self/task/\(id)/stat") else { return nil }
        return ticks(fromStat: stat).map { Double($0) / Double(sysconf(Int32(_SC_CLK_TCK))) }
    }

    /// The calling thread's id, as `/proc/self/task` names it.
    package static func currentThreadID() -> Int32 { CFileSystem_threadID() }

    /// CPU seconds of the calling thread (its own clock: nanosecond resolution).
    package static func currentThreadSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// CPU seconds of the whole process, every thread together.
    package static func processSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// utime + stime (fields 14 and 15) of a `stat` line. The command name (field 2) is in parentheses and may hold
    /// spaces or parentheses itself, so fields are counted after its last ')'.
    static func ticks(fromStat line: String) -> Int64? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        // After ')': field 3 (state) is fields[0], so field N is fields[N - 3].
        guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
        return user + system
    }

    /// A `/proc` file's text: its size reads as 0, so it is read until the end rather than by its size.
    private static func readProcFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }
}
