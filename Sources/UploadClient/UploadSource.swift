internal import FileSystem
package import Ingest
package import MediaModel
package import Transcode

/// The file side of `reel upload`: checks the file locally (size first, then `AdmissionPolicy`), plans it, and
/// for a compressed upload runs `VideoCompressor` into the place the resume store keeps it.
package struct UploadSource: Sendable {
    package var policy: AdmissionPolicy
    package var preset: CompressPreset

    package init(policy: AdmissionPolicy = AdmissionPolicy(), preset: CompressPreset = .default) {
        self.policy = policy
        self.preset = preset
    }

    /// Checks and plans `path`. A file over its limit is refused from its size and first bytes alone, before any
    /// probing; anything else passes the full admission policy first.
    /// - Throws: `UploadError` `.rejected` with the admission reason code (`too_large`, `forbidden_format`, ...).
    package func plan(path: String, quality: CompressPreset.Quality) throws(UploadError) -> UploadPlan {
        let upload: SniffedUpload
        do { upload = try policy.open(path: path) } catch { throw Self.rejected(error) }
        if upload.format.isVideo || upload.format.isImage {
            try UploadPlan.checkSize(path, format: upload.format, bytes: upload.file.size, limits: policy.limits)
        }
        let admitted: AdmittedUpload
        do { admitted = try policy.check(upload) } catch { throw Self.rejected(error) }
        let fits = admitted.format.isVideo && preset.fits(admitted.info, quality: quality)
        return try UploadPlan.make(
            .init(path: path, format: admitted.format, bytes: admitted.info.fileSize, fitsTier: fits),
            quality: quality, limits: policy.limits, compressFromBytes: preset.remuxBelowBytes)
    }

    /// Compresses the plan's source into `output` (which must not exist), refusing a result over the video limit.
    /// - Parameter progress: percent done, 0...100.
    /// - Throws: `UploadError`: `.rejected` (the compressor's rejection, or `too_large` output), `.failed`, `.interrupted`.
    package func compress(
        _ plan: UploadPlan, quality: CompressPreset.Quality, to output: String,
        progress: @escaping @Sendable (Double) -> Void, isCancelled: @escaping @Sendable () -> Bool
    ) throws(UploadError) -> Int64 {
        let compressor = VideoCompressor(policy: policy, preset: preset)
        let summary: CompressSummary
        do {
            summary = try compressor.run(
                source: plan.path, output: output, quality: quality,
                progress: { progress($0.percent) }, isCancelled: isCancelled)
        } catch {
            switch error.kind {
            case let .rejected(rejection): throw Self.rejected(rejection)
            case .cancelled:
                throw UploadError(.interrupted, "interrupted while compressing \(plan.path); nothing was sent")
            case .failed:
                throw UploadError(.failed(code: error.code), "compressing \(plan.path) failed: \(error.message)")
            }
        }
        if summary.bytes > policy.limits.video.maxBytes {
            throw UploadError(
                .rejected(code: RejectionReason.tooLarge.rawValue),
                "\(plan.path) compressed at \(quality.rawValue) is still \(UploadPlan.megabytes(summary.bytes)); the video upload limit is \(UploadPlan.megabytes(policy.limits.video.maxBytes)); try --quality low"
            )
        }
        return summary.bytes
    }

    static func rejected(_ rejection: Rejection) -> UploadError {
        UploadError(.rejected(code: rejection.reason.rawValue), "\(rejection.path): \(rejection.message)")
    }
}
