import Foundation

/// Fields of /proc/PID/stat after the command name: state, ppid, pgrp, ... (the start time, field 22, is at 19); nil
/// once the process is gone.
func procStat(_ pid: Int32) -> [String]? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let end = text.lastIndex(of: ")")
    else { return nil }
    return text[text.index(after: end)...].split(separator: " ").map(String.init)
}
