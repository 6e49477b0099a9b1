import Catalog
import FileSystem
import MediaModel
import Testing
import Worker

@Suite(.timeLimit(.minutes(5))) struct StabilityTrackerTests {
    @Test func aFileIsStableOnlyAfterItsFactsHoldForTheSettleTime() {
        var tracker = StabilityTracker(settle: 2)
        let name = Array("a.mp4".utf8)
        let stable1 = tracker.isStable(name: name, size: 10, modified: 1, listingStarted: 0, listingEnded: 0)
        #expect(!stable1)
        let stable2 = tracker.isStable(name: name, size: 10, modified: 1, listingStarted: 1.9, listingEnded: 1.9)
        #expect(!stable2)
        let stable3 = tracker.isStable(name: name, size: 10, modified: 1, listingStarted: 2.0, listingEnded: 2.0)
        #expect(stable3)
        // It grows: the clock starts again.
        let stable4 = tracker.isStable(name: name, size: 20, modified: 1, listingStarted: 2.5, listingEnded: 2.5)
        #expect(!stable4)
        let stable5 = tracker.isStable(name: name, size: 20, modified: 1, listingStarted: 4.4, listingEnded: 4.4)
        #expect(!stable5)
        let stable6 = tracker.isStable(name: name, size: 20, modified: 1, listingStarted: 4.5, listingEnded: 4.5)
        #expect(stable6)
        // Same size, newer mtime (rewritten in place): not stable.
        let stable7 = tracker.isStable(name: name, size: 20, modified: 2, listingStarted: 5, listingEnded: 5)
        #expect(!stable7)
    }

    /// A scan descheduled between listing and reading the clock must not count that stall as quiet time: here the
    /// file grows every 0.3 s, and no scan's window may make 2 s of quiet out of it.
    @Test func aStallDuringAListingIsNeverCountedAsQuietTime() {
        var tracker = StabilityTracker(settle: 2)
        let name = Array("slow.mp4".utf8)
        // First sighting listed during [0, 1.8]: facts counted from 1.8, not 0.
        let first = tracker.isStable(name: name, size: 7, modified: 7, listingStarted: 0, listingEnded: 1.8)
        #expect(!first)
        // Same facts listed in [2.05, 2.1] after a 1.8 s stall: only 0.25 s are sure to have passed.
        let second = tracker.isStable(name: name, size: 7, modified: 7, listingStarted: 2.05, listingEnded: 2.1)
        #expect(!second)
        // A listing that started 2 s after the first one ended is sure of 2 s of quiet.
        let third = tracker.isStable(name: name, size: 7, modified: 7, listingStarted: 3.85, listingEnded: 3.9)
        #expect(third)
        // A change seen in a stalled listing counts from that listing's end.
        let grown = tracker.isStable(name: name, size: 8, modified: 8, listingStarted: 4, listingEnded: 7)
        #expect(!grown)
        let early = tracker.isStable(name: name, size: 8, modified: 8, listingStarted: 8.9, listingEnded: 9)
        #expect(!early)
        let settled = tracker.isStable(name: name, size: 8, modified: 8, listingStarted: 9, listingEnded: 9)
        #expect(settled)
    }

    /// A file not written for the settle time before the listing (renamed in whole) is taken at once; one written
    /// since, or dated in the future, waits for its facts to hold as before.
    @Test func aFileAlreadyQuietForTheSettleTimeIsTakenAtItsFirstSighting() {
        var tracker = StabilityTracker(settle: 2)
        let second: Int64 = 1_000_000_000
        let now: Int64 = 1_800_000_000 * second
        for (age, expected) in [
            (2 * second, true), (10 * second, true), (2 * second - 1, false), (0, false), (-second, false),
        ] {
            let name = Array("clip-\(age).mp4".utf8)
            let stable = tracker.isStable(
                name: name, size: 10, modified: now - age, listingStarted: 5, listingEnded: 5,
                wallClockAtListingStart: now)
            #expect(stable == expected, "mtime \(age) ns before the listing")
        }
        // A file that changes after an old first sighting is judged by its new facts, as before.
        let name = Array("grows.mp4".utf8)
        let old = tracker.isStable(
            name: name, size: 10, modified: now - 60 * second, listingStarted: 5, listingEnded: 5,
            wallClockAtListingStart: now)
        #expect(old)
        let grown = tracker.isStable(
            name: name, size: 20, modified: now + second, listingStarted: 6, listingEnded: 6,
            wallClockAtListingStart: now + second)
        #expect(!grown)
        let settled = tracker.isStable(name: name, size: 20, modified: now + second, listingStarted: 8, listingEnded: 8)
        #expect(settled)
    }

    /// A file renamed (or chmod-ed) after its last write has a ctime later than its mtime: taken at once, unless it
    /// is empty (created, its mode set, not written yet). One being written has them equal and waits.
    @Test func aFileChangedWithoutAWriteSinceItsLastWriteIsTakenAtOnce() {
        var tracker = StabilityTracker(settle: 2)
        for (size, changedLater, expected) in [(10, 1, true), (10, 0, false), (0, 1, false), (10, -1, false)] {
            let name = Array("clip-\(size)-\(changedLater).mp4".utf8)
            let stable = tracker.isStable(
                name: name, size: Int64(size), modified: 1_000, listingStarted: 5, listingEnded: 5,
                changed: 1_000 + Int64(changedLater))
            #expect(stable == expected, "size \(size), ctime \(changedLater) ns after the mtime")
        }
    }

    @Test func forgottenAndRemovedNamesStartOver() {
        var tracker = StabilityTracker(settle: 1)
        let a = Array("a".utf8), b = Array("b".utf8)
        _ = tracker.isStable(name: a, size: 1, modified: 1, listingStarted: 0, listingEnded: 0)
        _ = tracker.isStable(name: b, size: 1, modified: 1, listingStarted: 0, listingEnded: 0)
        tracker.keepOnly([b])
        let stable8 = tracker.isStable(name: a, size: 1, modified: 1, listingStarted: 5, listingEnded: 5)
        #expect(!stable8)
        let stable9 = tracker.isStable(name: b, size: 1, modified: 1, listingStarted: 5, listingEnded: 5)
        #expect(stable9)
        tracker.forget(b)
        let stable10 = tracker.isStable(name: b, size: 1, modified: 1, listingStarted: 6, listingEnded: 6)
        #expect(!stable10)
    }

    @Test func zeroSettleTakesAFileAtOnce() {
        var tracker = StabilityTracker(settle: 0)
        let stable11 = tracker.isStable(name: [1], size: 1, modified: 1, listingStarted: 0, listingEnded: 0)
        #expect(stable11)
    }
}

@Suite(.timeLimit(.minutes(5))) struct BackoffTests {
    @Test func doublesFromTheBaseUpToTheCap() {
        let backoff = Backoff(baseSeconds: 2, maximumSeconds: 60)
        let delays = (0...8).map { backoff.delay(afterAttempt: $0) }
        #expect(delays == [0, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(backoff.delay(afterAttempt: 10_000) == 60)
    }
}

@Suite(.timeLimit(.minutes(5))) struct SourceNameTests {
    @Test(arguments: [
        (Array("plain.mp4".utf8), "plain.mp4", true),
        (Array("new\nline.mp4".utf8), "new\\u{a}line.mp4", true),
        (Array("rtl\u{202E}4pm.exe".utf8), "rtl\\u{202e}4pm.exe", true),
        (Array("日本 😂.jpg".utf8), "日本 😂.jpg", true),
        ([0x61, 0xFF, 0x0A, 0x62], "a\\xff\\u{a}b", false),
    ])
    func displayShowsControlBidiAndInvalidBytesAsEscapes(bytes: [UInt8], display: String, valid: Bool) {
        let name = SourceName(bytes)
        #expect(name.display == display)
        #expect(name.isValidUTF8 == valid)
    }
}

@Suite(.timeLimit(.minutes(5))) struct DirectoryEntryTests {
    @Test(arguments: [
        (".hidden.mp4", true), ("clip.mp4.part", true), ("clip.TMP", true), ("x.crdownload", true),
        ("clip.mp4", false), ("part", false), ("tmp.mp4", false),
    ])
    func ignoresDotfilesAndPartialDownloads(name: String, ignored: Bool) {
        #expect(DirectoryEntry(name: Array(name.utf8), kind: .regular, size: 1, modified: 1).isIgnored == ignored)
    }

    @Test(arguments: [
        ("clip.mp4.json", true), ("CLIP.JSON", true), (".json", false), ("json", false), ("a.jsonl", false),
    ])
    func aJSONFileIsASidecarNeverAnUpload(name: String, sidecar: Bool) {
        let entry = DirectoryEntry(name: Array(name.utf8), kind: .regular, size: 1, modified: 1)
        #expect(entry.isSidecar == sidecar)
        #expect(entry.sidecarName == Array((name + ".json").utf8))
    }
}

@Suite(.timeLimit(.minutes(5))) struct DiskPressureTests {
    @Test func pausesBelowTheMinimumAndResumesAtIt() {
        var disk = DiskPressure(minimumFreeBytes: 100, retrySeconds: 30)
        #expect(disk.observe(available: 500, now: 0) == nil)
        #expect(disk.observe(available: 99, now: 1) == .paused)
        #expect(disk.observe(available: 50, now: 2) == nil && disk.isPaused)
        #expect(disk.observe(available: 100, now: 3) == .resumed)
        #expect(!disk.isPaused)
    }

    @Test func afterENOSPCItWaitsForSpaceToGrowOrForTheRetryTime() {
        var disk = DiskPressure(minimumFreeBytes: 100, regrowthBytes: 10, retrySeconds: 30)
        #expect(disk.noteFull(available: 1000, now: 0) == .paused)
        #expect(disk.noteFull(available: 1000, now: 1) == nil)  // logged once per episode
        #expect(disk.observe(available: 1005, now: 5) == nil)
        #expect(disk.observe(available: 1010, now: 6) == .resumed)
        #expect(disk.noteFull(available: 1000, now: 10) == .paused)
        #expect(disk.observe(available: 1000, now: 39) == nil)
        #expect(disk.observe(available: 1000, now: 40) == .resumed)
        // Full again after the timed retry: the same episode.
        #expect(disk.noteFull(available: 1000, now: 41) == .stillFull)
        #expect(disk.observe(available: 1010, now: 42) == .resumed)
        #expect(disk.noteFull(available: 1000, now: 50) == .paused)
    }

    @Test func theRetryTimeNeverResumesBelowTheMinimum() {
        var disk = DiskPressure(minimumFreeBytes: 100, regrowthBytes: 10, retrySeconds: 1)
        #expect(disk.noteFull(available: 20, now: 0) == .paused)
        #expect(disk.observe(available: 20, now: 100) == nil)
        #expect(disk.observe(available: 99, now: 100) == nil)
        #expect(disk.observe(available: 100, now: 100) == .resumed)
    }
}

@Suite(.timeLimit(.minutes(5))) struct JobInvocationTests {
    @Test func theCommandLineCarriesTheWholeInvocation() throws {
        let invocation = JobInvocation(
            jobID: "abc", source: "/lib/.incoming/abc", staging: "/lib/.staging/abc", memoryMegabytes: 512,
            cpuSeconds: 60, ladderPath: "/p/ladder.json", limitsPath: nil, fault: "job-crash")
        let line = invocation.commandLine(executable: "/usr/bin/reel")
        #expect(
            line.count == 4 && line[0] == "/usr/bin/reel" && line[1] == JobInvocation.subcommand
                && line[2] == "--invocation")
        #expect(try JobInvocation(argument: line[3]) == invocation)
        #expect(invocation.outcomeFile == "/lib/.staging/abc/outcome.json")
    }
}

@Suite(.timeLimit(.minutes(5))) struct JobReasonTests {
    @Test func everyCodeParsesBackToItsCaseAndNoCodeMeansTwoThings() {
        let all =
            RejectionReason.allCases.map(JobReason.rejected) + FailureReason.allCases.map(JobReason.failed) + [
                .duplicate
            ]
        #expect(Set(all.map(\.code)).count == all.count)
        for reason in all { #expect(JobReason(code: reason.code) == reason) }
        #expect(JobReason(code: "no_such_reason") == nil)
    }
}

@Suite(.timeLimit(.minutes(5))) struct PostSidecarTests {
    @Test func aSidecarGivesItsFieldsAndNoCreatorUnlessNamed() throws {
        let facts = try PostSidecar.facts(
            from: Array(#"{"caption": "a\nb \u00e9", "title": "T", "visibility": "private"}"#.utf8))
        #expect(facts.caption == "a\nb é" && facts.title == "T" && facts.creator == nil)
        #expect(facts.visibility == .private)
        #expect(try PostSidecar.facts(from: Array("{}".utf8)).isEmpty)
    }

    @Test(arguments: [
        ("[1]", "not a JSON object"),
        ("{\"caption\": ", "not valid JSON"),
        ("{\"captoin\": \"x\"}", "the key \"captoin\""),
        ("{\"title\": 5}", "title is not a string"),
        ("{\"creator\": null}", "creator is not a string"),
        ("{\"visibility\": \"hidden\"}", "visibility must be one of public, unlisted, private"),
        ("{\"title\": \"a\\u0007\"}", "title holds the control character U+0007"),
        ("{\"caption\": \"" + String(repeating: "x", count: 2_201) + "\"}", "caption has 2201 characters"),
    ])
    func aBadSidecarSaysWhatIsWrong(json: String, says: String) {
        #expect(throws: PostSidecar.Invalid.self) { try PostSidecar.facts(from: Array(json.utf8)) }
        do { _ = try PostSidecar.facts(from: Array(json.utf8)) } catch {
            #expect(error.message.contains(says), "\(error.message)")
        }
    }

    @Test func aSidecarPastItsSizeIsRefusedUnread() {
        let big = [UInt8](repeating: 0x20, count: PostSidecar.maximumBytes + 1)
        #expect(throws: PostSidecar.Invalid(message: "the sidecar has 65537 bytes; at most 65536 are read")) {
            try PostSidecar.facts(from: big)
        }
    }
}
