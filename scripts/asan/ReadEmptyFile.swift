// Reads a file with String(contentsOfFile:) four times: an empty one, or with an argument one of two bytes.
// FoundationEssentials (Swift 6.3.1) leaks 4,096 bytes, malloc'd in readBytesFromFile, per read of the empty file:
// LeakSanitizer reports 16,384 bytes for it and nothing for the other. MediaFixtures' ChildProcess reads a child's
// stdout and stderr files this way. scripts/asan/read-empty-file-leak.sh runs it.
import Foundation

let empty = NSTemporaryDirectory() + "/reel-empty-\(getpid())"
let full = empty + ".full"
_ = FileManager.default.createFile(atPath: empty, contents: Data())
_ = FileManager.default.createFile(atPath: full, contents: Data("x\n".utf8))
let path = CommandLine.arguments.count > 1 ? full : empty
for _ in 0..<4 { _ = try? String(contentsOfFile: path, encoding: .utf8) }
unlink(empty)
unlink(full)
fputs("read \(path == full ? "a two-byte file" : "an empty file") 4 times\n", stderr)
