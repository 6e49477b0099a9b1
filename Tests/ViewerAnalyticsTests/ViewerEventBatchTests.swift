import MediaModel
import Testing
import ViewerAnalytics

@Suite(.timeLimit(.minutes(1))) struct ViewerEventBatchTests {
    func parse(_ text: String) throws(ViewerEventError) -> [ViewerEvent] {
        try ViewerEventBatch.parse(Array(text.utf8), session: "tab-1")
    }

    @Test func everyEventTypeReadsBack() throws {
        let events = try parse(
            """
            [{"type":"view_start","video":"v1","rendition":"720p","startup_ms":340},
             {"type":"stall","video":"v1","duration_ms":1200},
             {"type":"progress","video":"v1","position_s":4.5,"watched_s":4},
             {"type":"segment","video":"v1","bytes":350000,"ms":420},
             {"type":"view_end","video":"v1","watched_s":9.25,"completed":false,"bytes":900000},
             {"type":"error","message":"decode error"},
             {"type":"error","video":"v2","message":""}]
            """)
        #expect(
            events == [
                ViewerEvent(
                    session: "tab-1", video: "v1", kind: .viewStart(rendition: "720p", startupMilliseconds: 340)),
                ViewerEvent(session: "tab-1", video: "v1", kind: .stall(milliseconds: 1200)),
                ViewerEvent(session: "tab-1", video: "v1", kind: .progress(positionSeconds: 4.5, watchedSeconds: 4)),
                ViewerEvent(session: "tab-1", video: "v1", kind: .segment(bytes: 350_000, milliseconds: 420)),
                ViewerEvent(
                    session: "tab-1", video: "v1",
                    kind: .viewEnd(watchedSeconds: 9.25, completed: false, bytes: 900_000)),
                ViewerEvent(session: "tab-1", video: nil, kind: .error(message: "decode error")),
                ViewerEvent(session: "tab-1", video: "v2", kind: .error(message: "")),
            ])
        #expect(try parse("[]").isEmpty)
    }

    @Test(arguments: [
        (#"{"a":1}"#, ViewerEventError.notAnArray),
        ("[1]", .badEvent(index: 0, field: "the event", problem: .notAnObject)),
        (#"[{"video":"v"}]"#, .badEvent(index: 0, field: "type", problem: .missing)),
        (#"[{"type":"watch"}]"#, .badEvent(index: 0, field: "type", problem: .unknownType("watch"))),
        (
            #"[{"type":"stall","session":"tab-1","video":"v","duration_ms":1}]"#,
            .badEvent(index: 0, field: "session", problem: .setByServer)
        ),
        (
            #"[{"type":"stall","video":"v","duration_ms":1},{"type":"stall","session":"","video":"v","duration_ms":1}]"#,
            .badEvent(index: 1, field: "session", problem: .setByServer)
        ),
        (
            #"[{"type":"stall","video":"a b","duration_ms":1}]"#,
            .badEvent(index: 0, field: "video", problem: .badCharacters)
        ),
        (
            #"[{"type":"stall","video":"v","duration_ms":-1}]"#,
            .badEvent(index: 0, field: "duration_ms", problem: .outOfRange(0...600_000))
        ),
        (
            #"[{"type":"stall","video":"v","duration_ms":1.5}]"#,
            .badEvent(index: 0, field: "duration_ms", problem: .wrongType(expected: "a whole number"))
        ),
        (
            #"[{"type":"stall","video":"v","duration_ms":"1"}]"#,
            .badEvent(index: 0, field: "duration_ms", problem: .wrongType(expected: "a whole number"))
        ),
        (
            #"[{"type":"stall","video":"v","duration_ms":null}]"#,
            .badEvent(index: 0, field: "duration_ms", problem: .missing)
        ),
        (
            #"[{"type":"stall","video":"v","duration_ms":1,"ip":"1.2.3.4"}]"#,
            .badEvent(index: 0, field: "ip", problem: .unknownField)
        ),
        (
            #"[{"type":"progress","video":"v","position_s":3601,"watched_s":1}]"#,
            .badEvent(index: 0, field: "position_s", problem: .outOfRange(0...3600))
        ),
        (
            #"[{"type":"view_end","video":"v","watched_s":1,"completed":1,"bytes":0}]"#,
            .badEvent(index: 0, field: "completed", problem: .wrongType(expected: "true or false"))
        ),
        (
            #"[{"type":"segment","video":"v","bytes":0,"ms":10}]"#,
            .badEvent(index: 0, field: "bytes", problem: .outOfRange(1...10_000_000_000))
        ),
        (
            #"[{"type":"stall","video":"v","duration_ms":1},{"type":"stall","duration_ms":1}]"#,
            .badEvent(index: 1, field: "video", problem: .missing)
        ),
    ])
    func aBadBatchNamesItsFirstBadEventAndField(body: String, error: ViewerEventError) {
        #expect(throws: error) { try parse(body) }
    }

    @Test(arguments: [
        ("", JSONSyntaxError.Reason.endOfInput(expected: "a value"), 0),
        ("[", .endOfInput(expected: "a value or ']'"), 1),
        (#"[{"type":"stall",}]"#, .unexpected(found: UInt8(ascii: "}"), expected: "a key in double quotes"), 17),
        (#"[{"type":"stall","type":"view_end"}]"#, .duplicateKey("type"), 17),
    ])
    func aBodyThatIsNotJSONSaysWhereAndWhy(body: String, reason: JSONSyntaxError.Reason, offset: Int) {
        let error = #expect(throws: ViewerEventError.self) { try parse(body) }
        guard case let .notJSON(syntax)? = error else {
            Issue.record("expected notJSON, got \(String(describing: error))")
            return
        }
        #expect(syntax.reason == reason)
        #expect(syntax.offset == offset)
        #expect(
            error?.description.hasPrefix("the body is not JSON: line 1, column \(offset + 1) (byte \(offset)): ")
                == true)
    }

    @Test func limitsOnSizeCountAndLengthsAreEnforced() throws {
        let one = #"{"type":"stall","video":"v","duration_ms":1}"#
        #expect(try parse("[" + [String](repeating: one, count: 100).joined(separator: ",") + "]").count == 100)
        #expect(throws: ViewerEventError.tooManyEvents(count: 101, limit: 100)) {
            try parse("[" + [String](repeating: one, count: 101).joined(separator: ",") + "]")
        }
        let padded = "[" + one + String(repeating: " ", count: 64 * 1024) + "]"
        #expect(throws: ViewerEventError.tooLarge(bytes: padded.utf8.count, limit: 65_536)) { try parse(padded) }
        let longVideo = String(repeating: "a", count: 65)
        #expect(throws: ViewerEventError.badEvent(index: 0, field: "video", problem: .tooLong(limit: 64))) {
            try parse(#"[{"type":"stall","video":"\#(longVideo)","duration_ms":1}]"#)
        }
        let message = String(repeating: "x", count: 501)
        #expect(throws: ViewerEventError.badEvent(index: 0, field: "message", problem: .tooLong(limit: 500))) {
            try parse(#"[{"type":"error","message":"\#(message)"}]"#)
        }
    }

    @Test func everyEventIsOfTheSessionTheCallerGives() throws {
        let events = try ViewerEventBatch.parse(
            Array(#"[{"type":"stall","video":"v","duration_ms":1},{"type":"error","message":"m"}]"#.utf8),
            session: "0123456789abcdef0123456789abcdef")
        #expect(events.map(\.session) == ["0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"])
    }

    @Test func messagesSayWhatWasWrongAndWhichLimit() {
        #expect(
            ViewerEventError.badEvent(index: 3, field: "startup_ms", problem: .outOfRange(0...600_000)).description
                == "event 3: startup_ms must be from 0 to 600000")
        #expect(
            ViewerEventError.tooManyEvents(count: 150, limit: 100).description
                == "the batch has 150 events; the limit is 100")
        #expect(
            ViewerEventError.badEvent(index: 0, field: "type", problem: .unknownType("watch")).description.contains(
                "view_start"))
        #expect(
            ViewerEventError.badEvent(index: 2, field: "session", problem: .setByServer).description
                == "event 2: session is not taken from an event: a batch's session is the one its Reel-Session token names"
        )
    }
}
