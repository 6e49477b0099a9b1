internal import Foundation

/// A hidden sibling of the output directory that receives everything, then becomes the output by one rename.
/// Readers therefore see either no directory or a complete one; a failure or Ctrl-C removes the sibling.
final class StagingDirectory: @unchecked Sendable {
    let path: String
    let final: String

    init(final: String, source: String) throws(TranscodeError) {
        let url = URL(fileURLWithPath: final).standardizedFileURL
        let parent = url.deletingLastPathComponent().path
        // The HLS muxer expands printf patterns in segment names, so a '%' in the path would be misread.
        guard !url.path.contains("%") else {
            throw TranscodeError(.failed(call: "output", message: "the output path may not contain '%': \(final)", retryable: false), path: source)
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? ["?"]
            guard isDirectory.boolValue, contents.isEmpty else {
                throw TranscodeError(.failed(call: "output", message: "\(final) already exists and is not an empty directory", retryable: false), path: source)
            }
        }
        self.final = url.path
        path = parent + "/." + url.lastPathComponent + ".staging-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        } catch {
            throw TranscodeError(.failed(call: "mkdir", message: "cannot create \(path): \(error.localizedDescription)", retryable: true), path: source)
        }
    }

    /// Syncs every file and renames the staging directory onto the final name.
    func publish() throws(TranscodeError) {
        for name in (FileManager.default.enumerator(atPath: path)?.allObjects as? [String]) ?? [] {
            let fd = open(path + "/" + name, O_RDONLY)
            if fd >= 0 { fsync(fd); close(fd) }
        }
        let fd = open(path, O_RDONLY)
        if fd >= 0 { fsync(fd); close(fd) }
        guard rename(path, final) == 0 else {
            let message = String(cString: strerror(errno))
            discard()
            throw TranscodeError(.failed(call: "rename", message: "\(final): \(message)", retryable: false), path: final)
        }
    }

    func discard() { try? FileManager.default.removeItem(atPath: path) }
}
