import Foundation

/// The repository's `Presets/` files, and misspelt copies of them for the strict loader's tests.
package enum PresetFixtures {
    /// One copy of a preset file with one key misspelt.
    package struct Misspelling: Sendable, CustomStringConvertible {
        /// Where the misspelt key sits, as the loader reports it: `rungs[1].short_sid`.
        package var keyPath: String
        /// The key it stands for: `short_side`.
        package var original: String
        /// The whole file with that one key changed.
        package var bytes: [UInt8]
        package var description: String { keyPath }
    }

    /// `Presets/` in this checkout (this file is Tests/Support/MediaFixtures/PresetFixtures.swift).
    package static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Presets").path

    /// The names of the files in `Presets/`, sorted.
    package static func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// The bytes of a shipped preset file.
    package static func bytes(of name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
    }

    /// Every copy of `json` that has exactly one key, at any depth, misspelt by dropping its last letter.
    package static func misspellings(of json: [UInt8]) throws -> [Misspelling] {
        let root = try JSONSerialization.jsonObject(with: Data(json))
        return try variants(of: root, path: "").map { variant in
            let data = try JSONSerialization.data(withJSONObject: variant.value, options: [.sortedKeys])
            return Misspelling(keyPath: variant.path, original: variant.original, bytes: Array(data))
        }
    }

    private static func variants(of value: Any, path: String) -> [(path: String, original: String, value: Any)] {
        if let object = value as? [String: Any] {
            var found: [(path: String, original: String, value: Any)] = []
            for (key, child) in object.sorted(by: { $0.key < $1.key }) {
                let childPath = path.isEmpty ? key : path + "." + key
                var renamed = object
                renamed[key] = nil
                let misspelt = String(key.dropLast())
                renamed[misspelt] = child
                let misspeltPath = path.isEmpty ? misspelt : path + "." + misspelt
                found.append((misspeltPath, key, renamed))
                for variant in variants(of: child, path: childPath) {
                    var copy = object
                    copy[key] = variant.value
                    found.append((variant.path, variant.original, copy))
                }
            }
            return found
        }
        if let list = value as? [Any] {
            return list.indices.flatMap { index in
                variants(of: list[index], path: path + "[\(index)]").map { variant in
                    var copy = list
                    copy[index] = variant.value
                    return (variant.path, variant.original, copy as Any)
                }
            }
        }
        return []
    }
}
