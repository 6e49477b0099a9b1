#if canImport(Glibc)
internal import Glibc
#endif

/// A private directory that receives a whole output before anyone can see it. Publishing fsyncs every file and
/// directory in it, renames it (or one entry of it) onto the final name, which must not exist yet, and fsyncs the
/// parent: readers see nothing or everything, after a crash too. `discard` removes what was never published.
package final class StagingDirectory: Sendable {
    package let path: String

    /// Creates `path`; it must not exist.
    package init(creating path: String) throws(FileSystemError) {
        guard mkdir(path, 0o755) == 0 else { throw FileSystemError("mkdir", path) }
        self.path = path
    }

    /// Creates a hidden, uniquely named sibling of `final` (same directory, so the publishing rename is atomic).
    package convenience init(besides final: String) throws(FileSystemError) {
        let parent = Directory.parent(of: final)
        let name = final.split(separator: "/").last.map(String.init) ?? final
        try self.init(creating: parent + "/." + name + ".staging-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    /// Wraps a directory another process created and filled (a job's staging directory).
    package init(existing path: String) {
        self.path = path
    }

    /// The whole directory becomes `final`. An existing empty directory at `final` is replaced; anything else there
    /// is an error (EEXIST or ENOTEMPTY), never overwritten.
    package func publish(to final: String) throws(FileSystemError) {
        try Directory.syncTree(path)
        if rmdir(final) != 0, errno != ENOENT {
            throw FileSystemError("rmdir", final)
        }
        try Directory.move(path, to: final)
        try Directory.sync(Directory.parent(of: final))
    }

    /// The entry `name` (a file or directory the job wrote) becomes `destination`, which must not exist.
    package func publish(_ name: String, to destination: String) throws(FileSystemError) {
        try Directory.syncTree(path + "/" + name)
        try Directory.move(path + "/" + name, to: destination)
        try Directory.sync(Directory.parent(of: destination))
    }

    package func discard() { Directory.remove(path) }
}
