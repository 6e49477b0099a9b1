/// `Presets/limits.json`. Operators write only the limits they change: a missing key keeps the default.
extension AdmissionLimits: PresetFile {
    public static var fileName: String { "limits.json" }

    public func validate(_ check: inout PresetCheck) {
        check.positive(video.maxBytes, at: "video.max_bytes")
        check.positive(video.maxDurationSeconds, at: "video.max_duration_seconds")
        check.nonNegative(video.durationToleranceSeconds, at: "video.duration_tolerance_seconds")
        check.nonNegative(video.minDurationSeconds, at: "video.min_duration_seconds")
        check.positive(video.maxFrameRate, at: "video.max_frame_rate")
        check.positive(video.maxSide, at: "video.max_side")
        check.positive(video.maxPixels, at: "video.max_pixels")
        check.positive(video.maxStreams, at: "video.max_streams")
        check.positive(image.maxBytes, at: "image.max_bytes")
        check.positive(image.maxSide, at: "image.max_side")
        check.positive(image.maxPixels, at: "image.max_pixels")
    }
}
