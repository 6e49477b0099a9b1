internal import CFileSystem

#if canImport(Glibc)
internal import Glibc
#endif

/// Limits a job process sets on itself before it opens the upload, so a hostile file cannot use more.
package enum ResourceLimits {
    /// Address space in bytes and CPU seconds (all threads together); nil leaves one as it is.
    package static func apply(addressSpace: Int?, cpuSeconds: Int?) throws(FileSystemError) {
        if let addressSpace {
            var limit = rlimit(rlim_cur: rlim_t(addressSpace), rlim_max: rlim_t(addressSpace))
            if setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) != 0 {
                throw FileSystemError("setrlimit(RLIMIT_AS)", "self")
            }
        }
        if let cpuSeconds {
            // The soft limit sends SIGXCPU; the hard limit, a little later, SIGKILL.
            var limit = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds + 5))
            if setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit) != 0 {
                throw FileSystemError("setrlimit(RLIMIT_CPU)", "self")
            }
        }
        // No core dumps of hostile input.
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
    }

    /// Dies with the parent: a job must not outlive the worker that would publish it.
    package static func dieWithParent() {
        dieWithParent(expected: getppid())
    }

    /// Dies with the parent, which is `expected` (read by the parent before it forked): a parent that died between
    /// the fork and this call is noticed here, where a `getppid()` taken in the child would already name the reaper.
    package static func dieWithParent(expected parent: Int32) {
        _ = CFileSystem_dieWithParent()
        if getppid() != parent { _exit(1) }
    }
}
