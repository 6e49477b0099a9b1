/// The paths a confined process may use, and how. Everything else on the file system is out of its reach: under
/// Landlock it is denied, in the namespace jail it does not exist.
package struct SandboxPolicy: Sendable, Equatable {
    package enum Access: Sendable, Equatable {
        /// Read a file, or the files of a tree.
        case read
        /// Read and write a character device (/dev/null).
        case device
        /// Read, write, create, rename and remove beneath a directory; nothing in it is ever executed.
        case scratch
    }

    package struct Rule: Sendable, Equatable {
        package var path: String
        package var access: Access
        /// A missing required path fails the set-up; a missing optional one is left out.
        package var isRequired: Bool
    }

    package var rules: [Rule] = []

    package init() {}

    package mutating func allow(_ access: Access, _ path: String, required: Bool = true) {
        rules.append(Rule(path: path, access: access, isRequired: required))
    }

    /// A job's: its upload (read), its scratch directory (read and write), /dev/null, and what the process must load
    /// from disk after it is confined (`loadedLibraryDirectories` and the loader's cache). The minimal
    /// set was found by running every kind of job under `strace` (docs/security.md).
    package static func forJob(input: String, scratch: String) throws(SandboxError) -> SandboxPolicy {
        var policy = SandboxPolicy()
        policy.allow(.read, input)
        policy.allow(.scratch, scratch)
        policy.allow(.device, "/dev/null", required: false)
        // libavformat, libavcodec, libswresample and libheif are opened on first use (CLazyLoader), after the
        // sandbox is up, through the loader's cache, from the directories the libraries already loaded live in.
        policy.allow(.read, "/etc/ld.so.cache", required: false)
        for directory in try loadedLibraryDirectories() { policy.allow(.read, directory, required: false) }
        // The transcoder measures each encoder's CPU by its threads' /proc/self/task/*/stat (ThreadCPU); this process's
        // own /proc directory, read-only, and no other process's.
        policy.allow(.read, "/proc/self")
        // The CPU and NUMA topology: libnuma reads node*/cpumap for x265's thread pools, which otherwise pin their
        // threads to an empty CPU set (sched_setaffinity fails with EINVAL: seen under strace); glibc's get_nprocs
        // reads cpu/online (it would fall back to sched_getaffinity).
        policy.allow(.read, "/sys/devices/system/cpu", required: false)
        // SVT-AV1 counts cores and sockets from /proc/cpuinfo to size its thread pools.
        policy.allow(.read, "/proc/cpuinfo", required: false)
        policy.allow(.read, "/sys/devices/system/node", required: false)
        return policy
    }

    /// The directories of the shared objects this process has mapped (/proc/self/maps): the system's library
    /// directory and, for a build linked against the Swift runtime, the toolchain's.
    /// - Throws: `SandboxError` from reading /proc/self/maps.
    package static func loadedLibraryDirectories() throws(SandboxError) -> [String] {
        let maps = String(decoding: try ProcFile.contents(of: "/proc/self/maps"), as: UTF8.self)
        var directories: [String] = []
        for line in maps.split(separator: "\n") {
            // address perms offset dev inode path: the path starts at the first "/" after the five fields.
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = line[slash...]
            guard path.contains(".so"), !path.hasSuffix(" (deleted)"), let end = path.lastIndex(of: "/") else {
                continue
            }
            let directory = String(path[..<end])
            if !directories.contains(directory) { directories.append(directory) }
        }
        return directories
    }
}
