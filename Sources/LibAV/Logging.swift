internal import CFFmpeg

/// libav's own stderr logging, which Reel replaces with errors that name the failing call.
package enum Logging {
    private static let silenced: Void = { CFFmpeg_silence_logging() }()

    /// Stops libav printing to stderr; safe to call from any thread, any number of times.
    package static func silence() { _ = silenced }
}
