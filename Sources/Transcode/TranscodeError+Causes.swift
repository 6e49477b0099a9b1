internal import FileSystem
internal import LibAV
internal import MediaModel

extension TranscodeError {
    /// A libav call failed. When libav passed an errno through (the muxer writing segments), the file system's
    /// classification decides: a full disk, or another output failure; otherwise the encoder failed.
    init(_ error: AVError, path: String) {
        if let code = error.systemErrorCode {
            let cause = FileSystemError(error.function, path, code: code)
            if cause.isDiskFull || cause.isTransient {
                self.init(cause, path: path)
                return
            }
        }
        self.init(.encodeFailed, "\(error.function) failed: \(error.message)", path: path)
    }

    /// Any error of a transcode, as the error it throws for `path`: its own kind kept, a libav or file-system call
    /// classified as above, anything else an output failure.
    init(wrapping error: any Error, path: String) {
        switch error {
        case let error as TranscodeError: self.init(error.kind, path: path)
        case let error as AVError: self.init(error, path: path)
        case let error as FileSystemError: self.init(error, path: path)
        default: self.init(.outputFailed, "\(error)", path: path)
        }
    }

    /// A file-system call failed while writing the output.
    init(_ error: FileSystemError, path: String) {
        self.init(
            error.isDiskFull ? .diskFull : .outputFailed, error.description, path: path, retryable: error.isTransient)
    }
}
