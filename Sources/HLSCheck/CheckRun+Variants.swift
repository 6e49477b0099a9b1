/// The master playlist and what each EXT-X-STREAM-INF declares, against what its segments hold.
extension CheckRun {
    func checkPresentation() {
        guard let playlist = loadPlaylist(masterLocation, missing: .mediaExists, referencedBy: masterFile) else {
            return
        }
        guard playlist.isMaster else {
            report(.syntax, masterFile, "not a master playlist: it has no EXT-X-STREAM-INF")
            return
        }
        let master = MasterPlaylist(playlist)
        checkVersion(playlist, needs: master.versionNeeds, file: masterFile, usesProgramID: master.usesProgramID)
        for problem in master.problems {
            report(.syntax, masterFile, problem.line > 0 ? "line \(problem.line): \(problem.message)" : problem.message)
        }
        var checked: [(variant: MasterPlaylist.Variant, analysis: RenditionAnalysis)] = []
        for variant in master.variants {
            let analysis = analyzeMedia(reader.resolve(variant.uri, against: masterLocation))
            let group = renditions(of: variant, in: master)
            checkVariant(variant, analysis, group: group)
            if let analysis { checked.append((variant, analysis)) }
        }
        checkLadder(master, checked.map(\.analysis))
        checkRungColours(checked)
        checkIFrameVariants(master)
    }

    /// The analyses of the EXT-X-MEDIA renditions with a URI in the variant's AUDIO and VIDEO groups.
    private func renditions(of variant: MasterPlaylist.Variant, in master: MasterPlaylist) -> [RenditionAnalysis] {
        var result: [RenditionAnalysis] = []
        for kind in ["AUDIO", "VIDEO"] {
            guard let group = variant.attributes.quoted(kind) else { continue }
            for rendition in master.renditions
            where rendition.attributes.text("TYPE") == kind
                && rendition.attributes.quoted("GROUP-ID") == group
            {
                guard let uri = rendition.attributes.quoted("URI") else { continue }
                if let analysis = analyzeMedia(reader.resolve(uri, against: masterLocation)) { result.append(analysis) }
            }
        }
        return result
    }

    private func checkVariant(
        _ variant: MasterPlaylist.Variant, _ analysis: RenditionAnalysis?, group: [RenditionAnalysis]
    ) {
        let attributes = variant.attributes
        let name = variant.uri
        let bandwidth = attributes.integer("BANDWIDTH")
        let average = attributes.integer("AVERAGE-BANDWIDTH")
        if bandwidth == nil { report(.syntax, masterFile, "\(name): EXT-X-STREAM-INF has no valid BANDWIDTH") }
        if !attributes.has("AVERAGE-BANDWIDTH") { report(.averagePresent, masterFile, "\(name): no AVERAGE-BANDWIDTH") }
        let codecs = attributes.quoted("CODECS")
        if codecs == nil {
            report(
                .codecsPresent, masterFile,
                attributes.has("CODECS") ? "\(name): CODECS is not a quoted string" : "\(name): no CODECS")
        }
        guard let analysis else { return }
        let main = analysis.mainTrack
        var measuredCodecs = analysis.codecs
        for rendition in group { measuredCodecs += rendition.codecs.filter { !measuredCodecs.contains($0) } }
        if let codecs, !measuredCodecs.isEmpty {
            compareCodecs(declared: codecs, measured: measuredCodecs, file: masterFile, name: name)
        }
        let display = main.map { "\($0.displayWidth)x\($0.displayHeight)" }
        if analysis.hasVideo, let main {
            if let resolution = attributes.resolution("RESOLUTION") {
                let matches =
                    (resolution.width == main.displayWidth && resolution.height == main.displayHeight)
                    || (resolution.width == main.codedWidth && resolution.height == main.codedHeight)
                if !matches {
                    report(
                        .resolution, masterFile,
                        "\(name): RESOLUTION=\(attributes.text("RESOLUTION") ?? "") but the video is \(display ?? "?")")
                }
            } else {
                report(
                    .resolution, masterFile, "\(name): no valid RESOLUTION for a variant with video (\(display ?? "?"))"
                )
            }
            if let declared = attributes.decimal("FRAME-RATE") {
                if let measured = analysis.frameRate, abs(declared - measured) > max(0.002, measured * 0.001) {
                    report(
                        .frameRate, masterFile,
                        "\(name): FRAME-RATE=\(attributes.text("FRAME-RATE") ?? "") "
                            + "but the video runs at \(String(format3: measured)) fps")
                }
            } else {
                report(.frameRate, masterFile, "\(name): no valid FRAME-RATE for a variant with video")
            }
            checkVideoRange(attributes, name: name, video: main, analysis: analysis)
        }
        // Bit rates: the variant's own segments plus the largest rendition in its groups (RFC 8216 §4.3.4.2).
        let peak = analysis.peak
        let groupPeak = group.map(\.peak.bitsPerSecond).max() ?? 0
        let measuredPeak = peak.bitsPerSecond + groupPeak
        let measuredAverage = analysis.average + (group.map(\.average).max() ?? 0)
        if let bandwidth, bandwidth > 0, abs(measuredPeak - Double(bandwidth)) > 0.1 * Double(bandwidth) {
            report(
                .peakBandwidth, masterFile,
                "\(name): BANDWIDTH=\(bandwidth) but the measured peak is \(Self.whole(measuredPeak)) "
                    + "(\(peak.segment ?? "no segment")), \(Self.percent(measuredPeak, of: bandwidth)) off; allowed 10 %"
            )
        }
        if let average, average > 0, abs(measuredAverage - Double(average)) > 0.1 * Double(average) {
            report(
                .averageBandwidth, masterFile,
                "\(name): AVERAGE-BANDWIDTH=\(average) but the measured average is "
                    + "\(Self.whole(measuredAverage)), \(Self.percent(measuredAverage, of: average)) off; allowed 10 %"
            )
        }
        if measuredAverage > 0, measuredPeak > 2 * measuredAverage {
            report(
                .peakToAverage, masterFile,
                "\(name): the peak \(Self.whole(measuredPeak)) is "
                    + "\(Self.whole(100 * measuredPeak / measuredAverage)) % of the average \(Self.whole(measuredAverage))"
            )
        }
        variantReports.append(
            HLSVariantReport(
                playlist: name, bandwidth: bandwidth, measuredPeak: Self.whole(measuredPeak),
                averageBandwidth: average,
                measuredAverage: Self.whole(measuredAverage), codecs: codecs,
                measuredCodecs: measuredCodecs.joined(separator: ","),
                resolution: attributes.text("RESOLUTION"), measuredResolution: analysis.hasVideo ? display : nil,
                frameRate: attributes.decimal("FRAME-RATE"),
                measuredFrameRate: analysis.frameRate.map { ($0 * 1000).rounded() / 1000 },
                targetDuration: analysis.playlist.targetDuration, segments: analysis.segments.count,
                durationSeconds: (analysis.playlist.duration * 1000).rounded() / 1000,
                videoRange: attributes.values["VIDEO-RANGE"],
                measuredVideoRange: analysis.initSegment?.video?.colour.videoRange,
                measuredColour: analysis.initSegment?.video?.colour.description,
                measuredBitDepth: analysis.initSegment?.video?.bitDepth
            ))
    }

    /// CODECS must name every format the segments carry and nothing else (text formats of subtitle groups aside).
    func compareCodecs(declared: String, measured: [String], file: String, name: String) {
        let text: Set = ["wvtt", "stpp", "stpp.ttml.im1t", "c608"]
        let declaredList = declared.split(separator: ",").map { $0.trimmingCharacters().lowercased() }.filter {
            !text.contains($0)
        }
        let measuredList = measured.map { $0.lowercased() }
        let missing = measuredList.filter { !declaredList.contains($0) }
        let extra = declaredList.filter { !measuredList.contains($0) }
        guard !missing.isEmpty || !extra.isEmpty else { return }
        report(
            .codecsMatch, file,
            "\(name): CODECS=\"\(declared)\" but the init segment holds \"\(measured.joined(separator: ","))\"")
    }

    static func percent(_ measured: Double, of declared: Int) -> String {
        String(whole(100 * abs(measured - Double(declared)) / Double(declared))) + " %"
    }
}

extension String {
    init(format3 value: Double) {
        self = String((value * 1000).rounded() / 1000)
    }
}
