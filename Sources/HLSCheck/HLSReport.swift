/// A rule broken by one file.
package struct HLSFinding: Codable, Sendable, Equatable {
    /// The rule's number: "7.4", "1.27", or "RFC8216 4.3.3.1".
    package let rule: String
    package let severity: Severity
    /// The file it concerns, relative to the master playlist's directory (or its URL's).
    package let file: String
    package let message: String
    /// True when the caller said this rule is broken on purpose: listed, but not a failure.
    package var waived: Bool

    package init(rule: String, severity: Severity, file: String, message: String, waived: Bool = false) {
        self.rule = rule
        self.severity = severity
        self.file = file
        self.message = message
        self.waived = waived
    }
}

/// What the checker measured for one variant, next to what the master declares.
package struct HLSVariantReport: Codable, Sendable, Equatable {
    package var playlist: String
    package var bandwidth: Int?
    package var measuredPeak: Int
    package var averageBandwidth: Int?
    package var measuredAverage: Int
    package var codecs: String?
    package var measuredCodecs: String?
    package var resolution: String?
    package var measuredResolution: String?
    package var frameRate: Double?
    package var measuredFrameRate: Double?
    package var targetDuration: Int?
    package var segments: Int
    package var durationSeconds: Double
    /// VIDEO-RANGE as the master writes it (nil when absent, which means SDR), and as the video's transfer calls it.
    package var videoRange: String? = nil
    package var measuredVideoRange: String? = nil
    /// The video's colour tags ("primaries 1 (bt709), transfer 1 (bt709), matrix 1 (bt709), limited range") and
    /// bits per luma sample, from its init segment.
    package var measuredColour: String? = nil
    package var measuredBitDepth: Int? = nil

    enum CodingKeys: String, CodingKey {
        case playlist, bandwidth, codecs, resolution, segments
        case measuredPeak = "measured_peak"
        case averageBandwidth = "average_bandwidth"
        case measuredAverage = "measured_average"
        case measuredCodecs = "measured_codecs"
        case measuredResolution = "measured_resolution"
        case frameRate = "frame_rate"
        case measuredFrameRate = "measured_frame_rate"
        case targetDuration = "target_duration"
        case durationSeconds = "duration_seconds"
        case videoRange = "video_range"
        case measuredVideoRange = "measured_video_range"
        case measuredColour = "measured_colour"
        case measuredBitDepth = "measured_bit_depth"
    }
}

/// Everything `HLSChecker` found for one master playlist. `passed` is what a publisher acts on: no MUST finding
/// that was not waived.
package struct HLSReport: Codable, Sendable, Equatable {
    package var master: String
    package var findings: [HLSFinding]
    package var variants: [HLSVariantReport]

    package var mustCount: Int { findings.filter { $0.severity == .must && !$0.waived }.count }
    package var shouldCount: Int { findings.filter { $0.severity == .should && !$0.waived }.count }
    package var passed: Bool { mustCount == 0 }

    /// Findings by file, files in the order first seen (master first).
    package var findingsByFile: [(file: String, findings: [HLSFinding])] {
        var order: [String] = []
        var groups: [String: [HLSFinding]] = [:]
        for finding in findings {
            if groups[finding.file] == nil { order.append(finding.file) }
            groups[finding.file, default: []].append(finding)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    enum CodingKeys: String, CodingKey {
        case master, findings, variants, passed
        case mustCount = "must_count"
        case shouldCount = "should_count"
    }

    package init(master: String, findings: [HLSFinding], variants: [HLSVariantReport]) {
        self.master = master
        self.findings = findings
        self.variants = variants
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        master = try container.decode(String.self, forKey: .master)
        findings = try container.decode([HLSFinding].self, forKey: .findings)
        variants = try container.decode([HLSVariantReport].self, forKey: .variants)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(master, forKey: .master)
        try container.encode(passed, forKey: .passed)
        try container.encode(mustCount, forKey: .mustCount)
        try container.encode(shouldCount, forKey: .shouldCount)
        try container.encode(findings, forKey: .findings)
        try container.encode(variants, forKey: .variants)
    }
}
