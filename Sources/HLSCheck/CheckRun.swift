/// One pass of `HLSChecker` over a presentation: the findings so far, and what was read once and is shared (init
/// segments, analysed media playlists). Used by one thread, from start to end of `checkPresentation`.
final class CheckRun {
    let reader: any HLSResourceReader
    let masterLocation: String
    /// The master's directory (or URL up to its last slash): file names in findings are relative to it.
    let root: String
    private(set) var findings: [HLSFinding] = []
    var variantReports: [HLSVariantReport] = []
    private var initSegments: [String: InitSegment?] = [:]
    var analyses: [String: RenditionAnalysis?] = [:]

    init(reader: any HLSResourceReader, master: String) {
        self.reader = reader
        masterLocation = master
        root = master.lastIndex(of: "/").map { String(master[..<$0]) } ?? ""
    }

    var masterFile: String { display(masterLocation) }

    func display(_ location: String) -> String {
        let prefix = root + "/"
        return !root.isEmpty && location.hasPrefix(prefix) ? String(location.dropFirst(prefix.count)) : location
    }

    func report(_ rule: HLSRule, _ file: String, _ message: String) {
        findings.append(HLSFinding(rule: rule.id, severity: rule.severity, file: file, message: message))
    }

    /// Reads and splits a playlist; reports what makes it unreadable, a missing #EXTM3U, and repeated or
    /// inadequate EXT-X-VERSION tags against `needs` (which the caller derives after parsing).
    func loadPlaylist(_ location: String, missing rule: HLSRule, referencedBy: String) -> Playlist? {
        let file = display(location)
        let bytes: [UInt8]
        do { bytes = try reader.contents(of: location) } catch {
            report(
                rule, error.isNotFound ? referencedBy : file,
                error.isNotFound
                    ? "\(file) does not exist (\(error.reason))" : "\(file) cannot be read: \(error.reason)")
            return nil
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            report(.syntax, file, "the playlist is not UTF-8")
            return nil
        }
        if text.hasPrefix("\u{FEFF}") { report(.syntax, file, "the playlist starts with a byte order mark") }
        let playlist = Playlist(text: text)
        if !playlist.hasHeader { report(.header, file, "the first line is not #EXTM3U") }
        if playlist.versions.count > 1 {
            report(.oneVersion, file, "EXT-X-VERSION appears \(playlist.versions.count) times")
        }
        return playlist
    }

    func checkVersion(_ playlist: Playlist, needs: [VersionNeed], file: String, usesProgramID: Bool = false) {
        let declared = playlist.versions.first ?? 1
        let need = VersionNeed.highest(needs)
        if need.version > declared {
            let stated = playlist.versions.isEmpty ? "absent (version 1)" : String(declared)
            report(.version, file, "EXT-X-VERSION is \(stated), but \(need.reason) needs version \(need.version)")
        }
        if usesProgramID, declared >= 6 {
            report(
                .version, file, "the PROGRAM-ID attribute was removed in version 6, and EXT-X-VERSION is \(declared)")
        }
    }

    /// The init segment `map` names, read once per location and range; nil (with a finding) when unusable.
    func initSegment(_ map: MediaPlaylist.Map, playlist location: String) -> InitSegment? {
        let target = reader.resolve(map.uri, against: location)
        let key = target + (map.byteRange.map { "#\($0.offset)-\($0.length)" } ?? "")
        if let cached = initSegments[key] { return cached }
        let loaded = readInitSegment(target, range: map.byteRange, playlist: display(location))
        initSegments[key] = loaded
        return loaded
    }

    private func readInitSegment(_ location: String, range: MediaPlaylist.ByteRange?, playlist: String) -> InitSegment?
    {
        let file = display(location)
        do {
            let size = try reader.size(of: location)
            var bytes: [UInt8]
            if let range {
                guard range.end <= size else {
                    report(
                        .mapResolves, playlist,
                        "EXT-X-MAP BYTERANGE \(range.length)@\(range.offset) runs past the end of \(file) (\(size) bytes)"
                    )
                    return nil
                }
                bytes = try reader.read(location, offset: range.offset, count: Int(range.length))
            } else {
                bytes = try reader.contents(of: location)
            }
            let parsed = try InitSegment.parse(bytes)
            if !parsed.hasMovieExtends {
                report(.mapResolves, file, "the init segment has no 'mvex' box, so it cannot start fragments")
            }
            checkBitDepth(parsed, file: file)
            return parsed
        } catch let error as HLSResourceError {
            report(
                .mapResolves, error.isNotFound ? playlist : file,
                error.isNotFound
                    ? "EXT-X-MAP names \(file), which does not exist" : "\(file) cannot be read: \(error.reason)")
        } catch {
            report(.mapResolves, file, "\(file) is not a readable init segment: \(error)")
        }
        return nil
    }
}
