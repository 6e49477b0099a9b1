import Foundation

/// The `reel` binary the tests run: beside the test bundle in the build folder, else the package's debug build.
package enum ReelExecutable {
    package static var path: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("reel").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        // This file is Tests/Support/MediaFixtures/ReelExecutable.swift: four levels below the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/reel").path
    }
}
