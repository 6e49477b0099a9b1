import Foundation
import MediaFixtures

/// An ext4 file system of its own, on a loop device, whose power can be cut. `cutPower` shuts the file system down
/// without flushing its journal or its dirty pages (`xfs_io -x -c shutdown`: `EXT4_IOC_SHUTDOWN` with
/// `EXT4_GOING_FLAGS_NOLOGFLUSH`, what xfstests' crash tests use); from then on nothing more reaches the disk, so after
/// `restart` (unmount, detach, attach, mount: the journal replays) the file system holds exactly what had been
/// fsynced, as after a power loss. This kernel has no device mapper, hence no dm-flakey or dm-log-writes
/// (docs/security.md, "Durable acknowledgements").
///
/// Mounted with `commit=600`: ext4's periodic journal commit (every 5 s by default) would otherwise write metadata back
/// behind a test's back and hide a missing fsync. Needs root (loop devices, mount).
/// `@unchecked Sendable`: one test's task drives it, one step at a time (`with` runs the body, then releases it).
final class PowerLossDisk: @unchecked Sendable {
    let image: String
    let mountPoint: String
    private var device: String?

    private init(in directory: TemporaryDirectory) {
        image = directory.file("disk.img")
        mountPoint = directory.file("disk")
    }

    /// A fresh file system for `body`, unmounted and detached after it whether it returned or threw.
    static func with<T>(in directory: TemporaryDirectory, _ body: (PowerLossDisk) async throws -> T) async throws -> T {
        let disk = PowerLossDisk(in: directory)
        do {
            try await disk.create()
            let value = try await body(disk)
            await disk.release()
            return value
        } catch {
            await disk.release()
            throw error
        }
    }

    private func create() async throws {
        try await Self.run(["/usr/bin/truncate", "-s", "256M", image])
        try await Self.run(["/usr/sbin/mkfs.ext4", "-q", "-F", image])
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try await attachAndMount()
    }

    private func attachAndMount() async throws {
        let attached = try await Self.run(["/usr/sbin/losetup", "--find", "--show", image])
        let device = attached.trimmingCharacters(in: .whitespacesAndNewlines)
        self.device = device
        try await Self.run(["/usr/bin/mount", "-t", "ext4", "-o", "commit=600", device, mountPoint])
    }

    /// The power cut: every write not yet fsynced is lost, and the file system answers EIO from now on.
    func cutPower() async throws {
        try await Self.run(["/usr/sbin/xfs_io", "-x", "-c", "shutdown", mountPoint])
    }

    /// Powers up again: the file system as the disk kept it, its journal replayed at mount.
    func restart() async throws {
        try await unmountAndDetach()
        try await attachAndMount()
    }

    private func unmountAndDetach() async throws {
        guard let device else { return }
        try await Self.run(["/usr/bin/umount", mountPoint])
        try await Self.run(["/usr/sbin/losetup", "--detach", device])
        self.device = nil
    }

    /// Best effort at the end: a lazy unmount when the plain one fails, then the loop device goes.
    private func release() async {
        guard let device else { return }
        if (try? await Self.run(["/usr/bin/umount", mountPoint])) == nil {
            _ = try? await ChildProcess.run(["/usr/bin/umount", "-l", mountPoint], within: .seconds(60))
        }
        _ = try? await ChildProcess.run(["/usr/sbin/losetup", "--detach", device], within: .seconds(60))
        self.device = nil
    }

    struct CommandFailed: Error, CustomStringConvertible {
        let command: [String]
        let status: Int32
        let stderr: String
        var description: String { "\(command.joined(separator: " ")) exited \(status): \(stderr)" }
    }

    /// Runs a system tool to the end (within 60 s); its stdout, or `CommandFailed`.
    @discardableResult
    static func run(_ command: [String]) async throws -> String {
        let result = try await ChildProcess.run(command, within: .seconds(60))
        guard result.status == 0 else {
            throw CommandFailed(command: command, status: result.status, stderr: result.stderr)
        }
        return result.stdout
    }
}
