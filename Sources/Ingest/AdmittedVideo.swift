package import LibAV
package import MediaModel

/// A video upload that passed admission and is still open, so the transcoder reads the very inode that was
/// checked, through the same hardened libav opening (whitelists, no nested opens, `max_pixels`).
package final class AdmittedVideo: Sendable {
    package let upload: AdmittedUpload
    let file: UploadFile
    let inspector: VideoInspector

    init(upload: AdmittedUpload, file: UploadFile, inspector: VideoInspector) {
        self.upload = upload
        self.file = file
        self.inspector = inspector
    }

    package var path: String { file.path }
    package var info: MediaInfo { upload.info }
    package var limits: AdmissionLimits.Video { inspector.policy.limits.video }

    /// A fresh demuxer on the admitted file.
    package func openInput() throws(Rejection) -> InputContext { try inspector.open() }
}

extension AdmissionPolicy {
    /// Admission for the transcoder: every video check, then the file stays open for decoding.
    package func admitVideo(path: String) throws(Rejection) -> AdmittedVideo {
        try admitVideo(try open(path: path))
    }

    /// Admission for the transcoder of an upload already opened and sniffed: one libav open for the checks.
    package func admitVideo(_ sniffed: SniffedUpload) throws(Rejection) -> AdmittedVideo {
        guard !sniffed.format.isImage else {
            throw Rejection(.noVideoStream, "\(sniffed.format.name) is an image, not a video", path: sniffed.path)
        }
        let upload = try inspect(sniffed, enforcing: true)
        return AdmittedVideo(
            upload: upload, file: sniffed.file,
            inspector: VideoInspector(policy: self, file: sniffed.file, format: sniffed.format, enforcing: true))
    }
}
