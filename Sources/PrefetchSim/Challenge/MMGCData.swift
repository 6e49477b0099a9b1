internal import Foundation

/// Reads the challenge's data files (traces, chunk sizes, retention curves). The simulator core does no I/O;
/// only this loader touches files.
public enum MMGCData {
    public struct LoadError: Error, CustomStringConvertible {
        public let path: String
        public let message: String
        public var description: String { "\(path): \(message)" }
    }

    /// One trace file: `time_s Mbps` per line, separated by spaces or tabs.
    public static func trace(at path: String) throws -> NetworkTrace {
        let rows = try lines(path).compactMap { line -> (Double, Double)? in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let time = Double(fields[0]), let rate = Double(fields[1]) else { return nil }
            return (time, rate)
        }
        guard rows.count >= 2 else { throw LoadError(path: path, message: "a trace needs at least two rows") }
        return NetworkTrace(name: (path as NSString).lastPathComponent, times: rows.map(\.0), mbps: rows.map(\.1))
    }

    /// Every trace in a directory: numeric names in numeric order (0..19), other names byte-wise sorted.
    public static func traces(in directory: String) throws -> [NetworkTrace] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }
        let ordered =
            names.allSatisfy { Int($0) != nil }
            ? names.sorted { Int($0)! < Int($1)! }
            : names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return try ordered.map { try trace(at: directory + "/" + $0) }
    }

    /// A trace file or a directory of them.
    public static func network(at path: String) throws -> [NetworkTrace] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LoadError(path: path, message: "no such file or directory")
        }
        return isDirectory.boolValue ? try traces(in: path) : [try trace(at: path)]
    }

    /// `catalog/<video>/video_size_{0,1,2}` and, when given, `retention/<video>`; videos in name order.
    public static func catalog(at directory: String, retention: String?) throws -> [ShortVideo] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".") }
            .sorted()
        guard !names.isEmpty else { throw LoadError(path: directory, message: "no videos") }
        return try names.map { name in
            let rungs = try (0..<3).map { rung in
                try lines(directory + "/" + name + "/video_size_\(rung)").compactMap {
                    Int($0.trimmingCharacters(in: .whitespaces))
                }
            }
            guard let first = rungs.first, !first.isEmpty, rungs.allSatisfy({ $0.count == first.count }) else {
                throw LoadError(
                    path: directory + "/" + name, message: "the three rungs must list the same number of chunks")
            }
            var curve: [Double] = []
            if let retention {
                let rows = try lines(retention + "/" + name).compactMap { line -> Double? in
                    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    return fields.count >= 2 ? Double(fields[1]) : nil
                }
                curve = Array(rows.dropLast())  // the last row (N+1, 0) only marks the end
            }
            return ShortVideo(name: name, chunkBytes: rungs, retention: curve)
        }
    }

    private static func lines(_ path: String) throws -> [String] {
        do {
            return try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
        } catch {
            throw LoadError(path: path, message: "cannot read: \(error.localizedDescription)")
        }
    }
}
