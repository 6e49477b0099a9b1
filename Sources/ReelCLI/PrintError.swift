import FileSystem
import Foundation

/// Writes a line to standard error.
func printError(_ line: String) {
    StandardError.write(line + "\n")
}
