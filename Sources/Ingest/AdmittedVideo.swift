package import LibAV
public import MediaModel

/// A video upload that passed admission and is still open, so the transcoder reads the very inode that was
/// checked, through the same hardened libav opening (whitelists, no nested opens, `max_pixels`).
public final class AdmittedVideo: @unchecked Sendable {
    public let upload: AdmittedUpload
    let file: UploadFile
    let inspector: VideoInspector

    init(upload: AdmittedUpload, file: UploadFile, inspector: VideoInspector) {
        self.upload = upload
        self.file = file
        self.inspector = inspector
    }

    public var path: String { file.path }
    public var info: MediaInfo { upload.info }
    public var limits: AdmissionLimits.Video { inspector.policy.limits.video }

    /// A fresh demuxer on the admitted file.
    package func openInput() throws(Rejection) -> InputContext { try inspector.open() }
}

extension AdmissionPolicy {
    /// Admission for the transcoder: every video check, then the file stays open for decoding.
    public func admitVideo(path: String) throws(Rejection) -> AdmittedVideo {
        let file = try UploadFile(path: path)
        let format = SniffedFormat.sniff(try file.read(count: 4096))
        let upload = try inspect(file, enforcing: true)
        guard upload.info.kind == .video else {
            throw Rejection(.noVideoStream, "\(format.name) is an image, not a video", path: path)
        }
        return AdmittedVideo(
            upload: upload, file: file,
            inspector: VideoInspector(policy: self, file: file, format: format, enforcing: true))
    }
}
