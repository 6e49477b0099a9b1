internal import CFFmpeg

extension AVError {
    /// The POSIX errno behind the code when libav passed one through (`AVERROR(e)` is `-e`), so callers can tell a
    /// full disk from a refusing encoder without seeing libav's error macros.
    package var systemErrorCode: Int32? {
        // FFERRTAG codes are large negative four-character tags; errno values are small.
        code < 0 && code > -4096 ? -code : nil
    }
}
