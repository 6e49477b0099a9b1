internal import CFFmpeg

#if canImport(Glibc)
internal import Glibc
#endif

/// libav's own stderr logging, which Reel replaces with errors that name the failing call.
package enum Logging {
    private static let silenced: Void = {
        CFFmpeg_silence_logging()
        // SVT-AV1 prints its configuration to stderr itself, past av_log: errors only, unless the user asked.
        setenv("SVT_LOG", "1", 0)
    }()

    /// Stops libav printing to stderr; safe to call from any thread, any number of times.
    package static func silence() { _ = silenced }
}
