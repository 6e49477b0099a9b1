import Foundation
import MediaModel

/// The human-readable `reel probe` table.
enum ProbeTable {
    static func render(_ info: MediaInfo) -> String {
        var rows: [(String, String)] = [
            ("file", info.path), ("kind", info.kind.rawValue), ("container", info.container),
            ("size", "\(info.fileSize) bytes"),
        ]
        if let duration = info.durationSeconds { rows.append(("duration", "\(fixed(duration, 3)) s")) }
        if let bitRate = info.bitRate { rows.append(("bit rate", "\(bitRate / 1000) kb/s")) }
        if let video = info.video {
            rows += [
                ("video codec", video.codec + (video.profile.map { " (\($0))" } ?? "")),
                ("pixel format", "\(video.pixelFormat), \(video.bitDepth)-bit"),
                ("coded size", "\(video.codedWidth)x\(video.codedHeight)"),
                ("display size", "\(video.displayWidth)x\(video.displayHeight)"),
                ("rotation", "\(video.rotation)°"),
                (
                    "frame rate",
                    "\(fixed(video.averageFrameRate, 3)) avg, \(fixed(video.realFrameRate, 3)) real"
                        + (video.isVariableFrameRate ? " (variable)" : "")
                ),
            ]
            if let colour = video.colour { rows += colourRows(colour) }
            if let frames = video.frameCount { rows.append(("frames", String(frames))) }
            if let duration = video.durationSeconds { rows.append(("video duration", "\(fixed(duration, 3)) s")) }
        }
        if let audio = info.audio {
            rows.append(("audio", "\(audio.codec), \(audio.channels) ch, \(audio.sampleRate) Hz"))
        }
        if let image = info.image {
            rows += [
                ("image size", "\(image.width)x\(image.height)"),
                ("display size", "\(image.displayWidth)x\(image.displayHeight)"),
                ("orientation", String(image.orientation)),
                ("alpha", image.hasAlpha ? "yes" : "no"),
                ("frames", String(image.frameCount)),
            ]
            if let pixelFormat = image.pixelFormat { rows.append(("pixel format", pixelFormat)) }
        }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(
            separator: "\n")
    }

    /// "colour" with the four tags, and "dynamic range" with what makes it HDR (Dolby Vision, mastering, light level).
    static func colourRows(_ colour: VideoColour) -> [(String, String)] {
        var range = colour.dynamicRange.rawValue
        var facts: [String] = []
        if let profile = colour.dolbyVision { facts.append("Dolby Vision \(profile)") }
        if let peak = colour.masteringPeakNits {
            facts.append(
                "mastered at \(fixed(peak, 1)) cd/m²" + (colour.masteringBlackNits.map { " / \(fixed($0, 4))" } ?? ""))
        }
        if let cll = colour.maxContentLightLevel { facts.append("MaxCLL \(cll)") }
        if let fall = colour.maxFrameAverageLightLevel { facts.append("MaxFALL \(fall)") }
        if !facts.isEmpty { range += " (" + facts.joined(separator: ", ") + ")" }
        return [
            (
                "colour",
                "\(colour.primaries) primaries, \(colour.transfer) transfer, \(colour.matrix) matrix, \(colour.range) range"
            ),
            ("dynamic range", range),
        ]
    }

    static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return String((value * scale).rounded() / scale)
    }
}
