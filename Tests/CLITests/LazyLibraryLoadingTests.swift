import Foundation
import MediaFixtures
import TestTraits
import Testing

/// libavformat, libavcodec, libswresample and libheif are opened on first use (`CLazyLoader`), not at start: a JPEG
/// or a PNG becomes a WebP without any of them, a HEIC loads libheif alone, and a video still gets libav. Seen from outside,
/// in the dynamic loader's own log.
@Suite(.offThePool, .timeLimit(.minutes(5))) struct LazyLibraryLoadingTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// Runs reel with `LD_DEBUG=files` and returns its result with the sonames ld.so opened (`libavcodec.so.59`, ...).
    func run(_ arguments: [String]) async throws -> (status: Int32, stderr: String, loaded: [String]) {
        let result = try await ChildProcess.run(
            [ReelProcess.executable] + arguments, environment: ["LD_DEBUG": "files"])
        let loaded = result.stderr.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            let name = line[start.upperBound...].prefix { $0 != " " }
            return String(name.split(separator: "/").last ?? name)
        }
        return (result.status, result.stderr, loaded)
    }

    func loads(_ library: String, _ loaded: [String]) -> Bool { loaded.contains { $0.hasPrefix(library + ".so") } }

    @Test func jpegBecomesWebPWithoutLoadingCodecLibraries() async throws {
        let photo = try directory.write("photo.jpg", try SyntheticPhoto(width: 640, height: 480).jpeg())
        let (status, stderr, loaded) = try await run(["webp", photo, "--output", directory.file("photo.webp")])
        #expect(status == 0, "\(stderr.suffix(2000))")
        // The log is there (libswscale resizes, linked at start) and names none of the lazily loaded libraries.
        #expect(loads("libswscale", loaded), "\(loaded)")
        for library in ["libavcodec", "libavformat", "libswresample", "libheif", "libx265", "libde265"] {
            #expect(!loads(library, loaded), "\(library) was loaded: \(loaded)")
        }
    }

    @Test func imageJobLoadsNoCodecLibrary() async throws {
        let source = try directory.write("upload", try SyntheticPhoto(width: 800, height: 600).jpeg(exifOrientation: 6))
        let staging = directory.file("staging")
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        let invocation: [String: Any] = [
            "jobID": "job", "source": source, "staging": staging, "memoryMegabytes": 1024, "cpuSeconds": 60,
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: invocation), as: UTF8.self)
        let (status, stderr, loaded) = try await run(["worker-job", "--invocation", json])
        #expect(status == 0, "\(stderr.suffix(2000))")
        let outcome =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: staging + "/outcome.json")))
            as? [String: Any]
        let image = try #require(outcome?["image"] as? [String: Any])
        #expect(image["width"] as? Int == 600 && image["height"] as? Int == 800)
        #expect(FileManager.default.fileExists(atPath: staging + "/media.webp"))
        #expect(loads("libswscale", loaded), "\(loaded)")
        #expect(!loads("libavcodec", loaded) && !loads("libavformat", loaded) && !loads("libheif", loaded), "\(loaded)")
    }

    @Test func pngBecomesWebPWithoutLoadingCodecLibraries() async throws {
        let photo = try directory.write(
            "sticker.png", try SyntheticPhoto(width: 640, height: 480, alpha: true).encoded(.png))
        let (status, stderr, loaded) = try await run(["webp", photo, "--output", directory.file("sticker.webp")])
        #expect(status == 0, "\(stderr.suffix(2000))")
        #expect(loads("libpng16", loaded), "\(loaded)")
        #expect(!loads("libavcodec", loaded) && !loads("libavformat", loaded) && !loads("libheif", loaded), "\(loaded)")
    }

    @Test func heicLoadsLibheifAloneOnFirstUse() async throws {
        let photo = directory.file("photo.heic")
        try SyntheticPhoto(width: 640, height: 480).writeHEIC(to: photo)
        let (status, stderr, loaded) = try await run(["webp", photo, "--output", directory.file("photo.webp")])
        #expect(status == 0, "\(stderr.suffix(2000))")
        #expect(loads("libheif", loaded) && stderr.contains("file=libheif.so.1 [0];  dynamically loaded"), "\(loaded)")
        #expect(!loads("libavcodec", loaded) && !loads("libavformat", loaded), "\(loaded)")
    }

    @Test func videoProbeLoadsLibavformatAndLibavcodecOnFirstUse() async throws {
        let clip = directory.file("clip.mp4")
        try SyntheticVideo(width: 320, height: 180, seconds: 1).write(to: clip)
        let (status, stderr, loaded) = try await run(["probe", clip, "--json"])
        #expect(status == 0, "\(stderr.suffix(2000))")
        #expect(loads("libavformat", loaded) && loads("libavcodec", loaded), "\(loaded)")
        #expect(stderr.contains("dynamically loaded"), "libavformat should be opened with dlopen, not at start")
    }
}
