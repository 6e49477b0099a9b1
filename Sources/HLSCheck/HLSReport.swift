/// A rule broken by one file.
public struct HLSFinding: Codable, Sendable, Equatable {
    /// The rule's number: "7.4", "1.27", or "RFC8216 4.3.3.1".
    public let rule: String
    public let severity: Severity
    /// The file it concerns, relative to the master playlist's directory (or its URL's).
    public let file: String
    public let message: String
    /// True when the caller said this rule is broken on purpose: listed, but not a failure.
    public var waived: Bool

    public init(rule: String, severity: Severity, file: String, message: String, waived: Bool = false) {
        self.rule = rule
        self.severity = severity
        self.file = file
        self.message = message
        self.waived = waived
    }
}

/// What the checker measured for one variant, next to what the master declares.
public struct HLSVariantReport: Codable, Sendable, Equatable {
    public var playlist: String
    public var bandwidth: Int?
    public var measuredPeak: Int
    public var averageBandwidth: Int?
    public var measuredAverage: Int
    public var codecs: String?
    public var measuredCodecs: String?
    public var resolution: String?
    public var measuredResolution: String?
    public var frameRate: Double?
    public var measuredFrameRate: Double?
    public var targetDuration: Int?
    public var segments: Int
    public var durationSeconds: Double
    /// VIDEO-RANGE as the master writes it (nil when absent, which means SDR), and as the video's transfer calls it.
    public var videoRange: String? = nil
    public var measuredVideoRange: String? = nil
    /// The video's colour tags ("primaries 1 (bt709), transfer 1 (bt709), matrix 1 (bt709), limited range") and
    /// bits per luma sample, from its init segment.
    public var measuredColour: String? = nil
    public var measuredBitDepth: Int? = nil

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
public struct HLSReport: Codable, Sendable, Equatable {
    public var master: String
    public var findings: [HLSFinding]
    public var variants: [HLSVariantReport]

    public var mustCount: Int { findings.filter { $0.severity == .must && !$0.waived }.count }
    public var shouldCount: Int { findings.filter { $0.severity == .should && !$0.waived }.count }
    public var passed: Bool { mustCount == 0 }

    /// Findings by file, files in the order first seen (master first).
    public var findingsByFile: [(file: String, findings: [HLSFinding])] {
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

    public init(master: String, findings: [HLSFinding], variants: [HLSVariantReport]) {
        self.master = master
        self.findings = findings
        self.variants = variants
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        master = try container.decode(String.self, forKey: .master)
        findings = try container.decode([HLSFinding].self, forKey: .findings)
        variants = try container.decode([HLSVariantReport].self, forKey: .variants)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(master, forKey: .master)
        try container.encode(passed, forKey: .passed)
        try container.encode(mustCount, forKey: .mustCount)
        try container.encode(shouldCount, forKey: .shouldCount)
        try container.encode(findings, forKey: .findings)
        try container.encode(variants, forKey: .variants)
    }
}
