package import MediaModel

/// An upload opened the safe way and sniffed once. Every later step (the pipeline's choice, admission, the image
/// converter, the transcoder) takes this, so a job reads an upload's first bytes once and never sniffs it again.
package struct SniffedUpload: Sendable {
    package let file: UploadFile
    /// What the first 4 KiB say the file is.
    package let format: SniffedFormat

    package var path: String { file.path }
}

extension AdmissionPolicy {
    /// Opens `path` without following symlinks and sniffs its first bytes, without libav.
    /// - Throws: `Rejection` with `not_regular_file`, `empty_file` or `unreadable`.
    package func open(path: String) throws(Rejection) -> SniffedUpload {
        let file = try UploadFile(path: path)
        return SniffedUpload(file: file, format: SniffedFormat.sniff(try file.read(count: 4096)))
    }
}
