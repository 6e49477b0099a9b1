internal import LibAV
internal import MediaModel

/// Probes and verifies one video upload: container facts, limits, and a real decode of its first frame.
struct VideoInspector {
    let policy: AdmissionPolicy
    let file: UploadFile
    let format: SniffedFormat
    let enforcing: Bool

    private var limits: AdmissionLimits.Video { policy.limits.video }

    func reject(_ reason: RejectionReason, _ message: String) -> Rejection {
        Rejection(reason, message, path: file.path)
    }

    func run() throws(Rejection) -> AdmittedUpload {
        if enforcing && file.size > limits.maxBytes {
            throw reject(
                .tooLarge,
                "the video is \(Formatting.megabytes(file.size)); the limit is \(Formatting.megabytes(limits.maxBytes))"
            )
        }
        let input = try open()
        let streams = input.streams.filter { !$0.isAttachedPicture }
        if enforcing && streams.count > limits.maxStreams {
            throw reject(.tooManyStreams, "the file has \(streams.count) streams; the limit is \(limits.maxStreams)")
        }
        guard let videoIndex = input.bestStream(.video), !input.streams[videoIndex].isAttachedPicture else {
            throw reject(.noVideoStream, "the file has no video stream")
        }
        let video = input.streams[videoIndex]
        if enforcing && !limits.codecs.contains(video.codecName) {
            throw reject(
                .unsupportedFormat,
                "the video codec \(video.codecName) is not accepted (accepted: \(limits.codecs.joined(separator: ", ")))"
            )
        }
        if enforcing { try checkDimensions(width: video.width, height: video.height, what: "the container declares") }
        let audio = input.bestStream(.audio).map { input.streams[$0] }
        var duration = input.durationSeconds ?? video.durationSeconds
        if duration == nil { duration = try scanDuration(videoIndex: videoIndex) }
        if enforcing { try checkDuration(duration) }
        let frameRate =
            video.averageFrameRate.isValid ? video.averageFrameRate.doubleValue : video.realFrameRate.doubleValue
        if enforcing { try checkFrameRate(average: frameRate, real: video.realFrameRate.doubleValue) }
        if input.indexedEndOffset > file.size {
            throw reject(
                .truncated, "the file ends at byte \(file.size) but its index points to byte \(input.indexedEndOffset)")
        }
        let decoded = try decodeFirstFrame(input, videoIndex: videoIndex)
        if enforcing {
            try checkDimensions(width: decoded.width, height: decoded.height, what: "the bitstream decodes to")
        }

        let colour = Self.colour(
            stream: try streamHeader { () throws(AVError) in try input.colorDescription(ofStream: videoIndex) },
            picture: decoded.colour,
            metadata: input.hdrMetadata(ofStream: videoIndex).merging(decoded.hdr))
        if enforcing { try checkDolbyVision(colour) }
        let swaps = video.rotation == 90 || video.rotation == 270
        let real = video.realFrameRate.doubleValue
        let info = MediaInfo(
            path: file.path, kind: .video, container: format.name, fileSize: file.size, durationSeconds: duration,
            bitRate: input.bitRate > 0 ? input.bitRate : nil, streamCount: input.streams.count,
            video: MediaInfo.Video(
                index: videoIndex, codec: video.codecName, profile: video.profileName,
                pixelFormat: decoded.pixelFormat.name, bitDepth: decoded.pixelFormat.bitDepth,
                codedWidth: decoded.width, codedHeight: decoded.height,
                displayWidth: swaps ? decoded.height : decoded.width,
                displayHeight: swaps ? decoded.width : decoded.height,
                rotation: video.rotation, averageFrameRate: frameRate, realFrameRate: real,
                isVariableFrameRate: real > 0 && abs(frameRate - real) / real > 0.01,
                frameCount: video.frameCount > 0 ? video.frameCount : nil, durationSeconds: video.durationSeconds,
                bitRate: video.bitRate > 0 ? video.bitRate : nil, colour: colour
            ),
            audio: audio.map {
                MediaInfo.Audio(
                    index: $0.index, codec: $0.codecName, channels: $0.channelCount, sampleRate: $0.sampleRate,
                    durationSeconds: $0.durationSeconds)
            },
            image: nil
        )
        return AdmittedUpload(info: info, format: format, imageHeader: nil)
    }

    func inputPolicy() -> InputPolicy {
        let demuxers = Set(limits.containers.compactMap { AdmissionPolicy.videoDemuxers[$0] })
        return InputPolicy(
            format: format.demuxer!, formatWhitelist: demuxers.isEmpty ? [format.demuxer!] : demuxers.sorted(),
            codecWhitelist: limits.codecs + AdmissionPolicy.audioCodecs,
            // libav's max_streams is a C int; limits.json may say more (and 4 × Int.max would trap).
            maxStreams: max(min(limits.maxStreams, Int(Int32.max) / 4) * 4, 32), maxPixels: limits.maxPixels
        )
    }

    /// A fact of the video stream's headers; libav refusing the stream index is `probe_failed`, naming the call.
    private func streamHeader<T>(_ read: () throws(AVError) -> T) throws(Rejection) -> T {
        do { return try read() } catch {
            throw reject(.probeFailed, "the video stream's headers do not read (\(error.function): \(error.message))")
        }
    }

    func open() throws(Rejection) -> InputContext {
        let policy = inputPolicy()
        guard policy.formatWhitelist.contains(policy.format) else {
            throw reject(
                .unsupportedFormat,
                "the \(format.name) container is not accepted (accepted: \(limits.containers.joined(separator: ", ")))")
        }
        do {
            return try InputContext(path: file.libavPath, policy: policy)
        } catch {
            if error.isEndOfFile {
                throw reject(.truncated, "the file ends before its headers do (\(error.function): \(error.message))")
            }
            throw reject(
                .probeFailed, "the file could not be read as \(format.name) (\(error.function): \(error.message))")
        }
    }

    private func checkDimensions(width: Int, height: Int, what: String) throws(Rejection) {
        guard width > 0, height > 0 else {
            throw reject(.probeFailed, "\(what) an invalid picture size \(width)x\(height)")
        }
        if max(width, height) > limits.maxSide {
            throw reject(
                .dimensionsExceedLimit, "\(what) \(width)x\(height); the longest side may be at most \(limits.maxSide)")
        }
        if width * height > limits.maxPixels {
            throw reject(
                .pixelCountExceedsLimit,
                "\(what) \(width)x\(height) = \(width * height) pixels; the limit is \(limits.maxPixels)")
        }
    }

    private func checkDuration(_ duration: Double?) throws(Rejection) {
        guard let duration else { throw reject(.probeFailed, "the duration could not be determined") }
        if duration > limits.maxDurationSeconds + limits.durationToleranceSeconds {
            throw reject(
                .durationExceedsLimit,
                "the video lasts \(Formatting.seconds(duration)); the limit is \(Formatting.seconds(limits.maxDurationSeconds))"
            )
        }
        if duration < limits.minDurationSeconds {
            throw reject(
                .durationBelowLimit,
                "the video lasts \(Formatting.seconds(duration)); the minimum is \(Formatting.seconds(limits.minDurationSeconds))"
            )
        }
    }

    private func checkFrameRate(average: Double, real: Double) throws(Rejection) {
        // A 2 % margin keeps 60.0x fps phone clips in; a real rate far above any camera is a hostile timebase.
        if average > limits.maxFrameRate * 1.02 {
            throw reject(
                .frameRateExceedsLimit,
                "the video runs at \(Formatting.decimal(average, places: 2)) fps; the limit is \(Formatting.decimal(limits.maxFrameRate, places: 2)) fps"
            )
        }
        if real > max(limits.maxFrameRate * 4, 240) {
            throw reject(
                .frameRateExceedsLimit,
                "the stream declares \(Formatting.decimal(real, places: 2)) fps; the limit is \(Formatting.decimal(limits.maxFrameRate, places: 2)) fps"
            )
        }
    }

    /// Containers without a duration (some WebM writers) get one from the last packet's end time.
    private func scanDuration(videoIndex: Int) throws(Rejection) -> Double? {
        let input = try open()
        input.discardAll(except: [videoIndex])
        let timeBase = try streamHeader { () throws(AVError) in try input.timeBase(ofStream: videoIndex) }
        var start: Int64? = nil
        var end: Int64 = 0
        // Timestamps are the file's own 64-bit numbers: a packet's end, or the span, may not fit.
        var overflowing: (pts: Int64, duration: Int64)? = nil
        do {
            let packet = try Packet()
            while try input.read(into: packet) != .endOfStream {
                defer { packet.unref() }
                guard packet.streamIndex == videoIndex, packet.pts != noTimestamp else { continue }
                start = min(start ?? packet.pts, packet.pts)
                let (packetEnd, overflow) = packet.pts.addingReportingOverflow(max(packet.duration, 0))
                if overflow {
                    overflowing = (packet.pts, packet.duration)
                    break
                }
                end = max(end, packetEnd)
            }
        } catch {
            throw reject(.decodeError, "reading packets failed (\(error.function): \(error.message))")
        }
        if let overflowing {
            throw reject(
                .probeFailed, "a packet at \(overflowing.pts) lasting \(overflowing.duration) ends past 64-bit time")
        }
        guard let start else { return nil }
        let (span, overflow) = end.subtractingReportingOverflow(start)
        guard !overflow else {
            throw reject(.probeFailed, "the packets run from \(start) to \(end), a span past 64-bit time")
        }
        return Double(span) * timeBase.doubleValue
    }

    private struct DecodedFacts {
        var width: Int
        var height: Int
        var pixelFormat: PixelFormat
        var colour: ColorDescription
        var hdr: HDRMetadata
    }

    /// Decodes until the first video frame comes out: this catches garbage after a valid header and cut files.
    private func decodeFirstFrame(_ input: InputContext, videoIndex: Int) throws(Rejection) -> DecodedFacts {
        do {
            input.discardAll(except: [videoIndex])
            let decoder = try input.makeDecoder(
                streamIndex: videoIndex, threads: 1, maxPixels: limits.maxPixels, codecWhitelist: limits.codecs
            )
            let packet = try Packet()
            let frame = try Frame()
            var packets = 0
            var draining = false
            while true {
                if !draining {
                    if try input.read(into: packet) == .endOfStream {
                        draining = true
                        _ = try decoder.send(nil)
                    } else {
                        defer { packet.unref() }
                        guard packet.streamIndex == videoIndex else { continue }
                        packets += 1
                        _ = try decoder.send(packet)
                    }
                }
                switch try decoder.receive(into: frame) {
                case .output:
                    return DecodedFacts(
                        width: frame.width, height: frame.height, pixelFormat: frame.pixelFormat,
                        colour: frame.colorDescription, hdr: frame.hdrMetadata)
                case .endOfStream:
                    throw reject(
                        packets == 0 ? .truncated : .decodeError,
                        "no video frame could be decoded from \(packets) packets")
                case .needsInput:
                    if packets > 600 {
                        throw reject(.decodeError, "no video frame decoded from the first \(packets) packets")
                    }
                }
            }
        } catch let error as AVError {
            throw reject(.decodeError, "the first video frame does not decode (\(error.function): \(error.message))")
        } catch let rejection as Rejection {
            throw rejection
        } catch {
            throw reject(.decodeError, "the first video frame does not decode (\(error))")
        }
    }
}
