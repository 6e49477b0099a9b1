/// Checks an HLS presentation against Apple's HLS Authoring Specification and RFC 8216: the master playlist, every
/// media and I-frame playlist it names, their init segments and the fMP4 segments themselves (codecs, picture size,
/// frame rate, durations from tfdt/trun, bit rates, IDRs at segment starts and across variants).
///
/// It never throws on bad input: what cannot be read is a finding. Reading is blocking (files or HTTP through the
/// reader); run it off the event loop.
package struct HLSChecker: Sendable {
    package struct Options: Sendable {
        /// Rules broken on purpose: still reported, marked `waived`, and not counted as failures.
        package var waivedRules: Set<String>

        package init(waivedRules: Set<String> = []) {
            self.waivedRules = waivedRules
        }
    }

    package let reader: any HLSResourceReader
    package var options: Options

    package init(reader: any HLSResourceReader = LocalFiles(), options: Options = Options()) {
        self.reader = reader
        self.options = options
    }

    /// Checks `directory/master.m3u8` and everything it references.
    package func check(directory: String) -> HLSReport {
        let trimmed = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        return check(master: trimmed + "/master.m3u8")
    }

    /// Checks the master playlist at `location` (a path, or whatever the reader resolves) and everything it
    /// references.
    package func check(master location: String) -> HLSReport {
        let run = CheckRun(reader: reader, master: location)
        run.checkPresentation()
        // The master's findings first, then each file's in the order the checker reached it.
        var findings =
            run.findings.filter { $0.file == run.masterFile } + run.findings.filter { $0.file != run.masterFile }
        for index in findings.indices where options.waivedRules.contains(findings[index].rule) {
            findings[index].waived = true
        }
        return HLSReport(master: location, findings: findings, variants: run.variantReports)
    }
}
