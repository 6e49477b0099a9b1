/// Why Reel or the machine failed to process an upload that may well be fine. The raw values are stable codes in
/// JSON, reason files and the jobs table; they never collide with `RejectionReason`'s.
public enum FailureReason: String, Codable, Sendable, CaseIterable {
    /// An encoder or muxer refused (libav, libwebp, libjpeg-turbo).
    case encodeFailed = "encode_failed"
    /// Writing or moving an output failed for a reason other than space.
    case outputFailed = "output_failed"
    /// The file system holding the output or the library is full (ENOSPC, EDQUOT).
    case diskFull = "disk_full"
    /// The job ran past its wall-clock or CPU-time limit.
    case timeout
    /// The job process died by a signal or exited without an outcome.
    case crashed
    /// The job process could not be started.
    case spawnFailed = "spawn_failed"
    /// The upload disappeared from the library while its job was queued.
    case uploadMissing = "upload_missing"
    /// The catalog could not be read or written (busy, locked, or its disk full).
    case catalogUnavailable = "catalog_unavailable"
    /// The object store holding the library did not answer (down, overloaded) through the client's own retries.
    case storageUnavailable = "storage_unavailable"
    /// Stopped on request before the output was complete.
    case cancelled

    /// Whether another attempt may succeed when nothing else is known.
    public var isRetryableByDefault: Bool {
        switch self {
        case .encodeFailed, .uploadMissing: false
        case .outputFailed, .diskFull, .timeout, .crashed, .spawnFailed, .catalogUnavailable, .storageUnavailable,
            .cancelled:
            true
        }
    }
}
