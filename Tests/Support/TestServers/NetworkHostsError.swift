import Foundation

/// Why `NetworkHosts` could not set up, change or check the simulated network: the `ip` command that failed with
/// its exit status and stderr, or the condition that did not come true.
package struct NetworkHostsError: Error, CustomStringConvertible {
    /// The command that failed, `[]` when the failure is not a command's.
    package let command: [String]
    /// Its exit status (128 + signal when a signal ended it), nil when the failure is not a command's.
    package let status: Int32?
    package let stderr: String
    package let reason: String

    init(command: [String], status: Int32, stderr: String) {
        self.command = command
        self.status = status
        self.stderr = stderr
        reason = "exited with \(status)"
    }

    init(_ reason: String) {
        command = []
        status = nil
        stderr = ""
        self.reason = reason
    }

    package var description: String {
        if command.isEmpty { return reason }
        let output = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        return "`\(command.joined(separator: " "))` \(reason)" + (output.isEmpty ? "" : ": \(output)")
    }
}
