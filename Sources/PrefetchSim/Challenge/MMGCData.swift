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
        try trace(lines: try lines(path), name: (path as NSString).lastPathComponent, path: path)
    }

    /// A trace from its text, checked so the simulator can use it: every line is two finite numbers, times rise
    /// strictly from 0 or later, no rate is negative, and some interval delivers bytes. A trace whose rates are all 0,
    /// or whose times stand still, would keep a transfer looping for ever.
    /// - Throws: `LoadError` naming the line and what is wrong with it.
    public static func trace(text: String, name: String) throws(LoadError) -> NetworkTrace {
        try trace(lines: text.split(whereSeparator: \.isNewline).map(String.init), name: name, path: name)
    }

    private static func trace(lines: [String], name: String, path: String) throws(LoadError) -> NetworkTrace {
        var times: [Double] = []
        var rates: [Double] = []
        for (number, line) in lines.enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            func fail(_ problem: String) -> LoadError {
                LoadError(path: path, message: "line \(number + 1): \(problem) (\(line.prefix(60).debugDescription))")
            }
            // Double() reads a C string: "1\u{0}junk" is 1. Only printable ASCII is a number's text.
            guard fields.count >= 2, fields.prefix(2).allSatisfy({ $0.utf8.allSatisfy { (0x21...0x7E).contains($0) } }),
                let time = Double(fields[0]), let rate = Double(fields[1])
            else {
                throw fail("expected a time in seconds and a rate in Mbps")
            }
            guard time.isFinite, rate.isFinite else { throw fail("the time and the rate must be finite") }
            guard time >= 0 else { throw fail("the time may not be negative") }
            guard rate >= 0 else { throw fail("the rate may not be negative") }
            if let last = times.last, time <= last { throw fail("the time must be later than the line before's") }
            times.append(time)
            rates.append(rate)
        }
        guard times.count >= 2 else { throw LoadError(path: path, message: "a trace needs at least two rows") }
        // Row i's rate holds from time[i-1] to time[i]; row 0's rate is never used.
        guard rates.dropFirst().contains(where: { $0 > 0 }) else {
            throw LoadError(path: path, message: "every rate after the first line is 0: no byte would ever arrive")
        }
        return NetworkTrace(name: name, times: times, mbps: rates)
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

    /// A trace file, a directory of them, or `synthetic:N` (`SyntheticTraces`).
    public static func network(at path: String) throws -> [NetworkTrace] {
        if let count = try SyntheticTraces.count(parsing: path) { return SyntheticTraces.make(count: count) }
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
