import Testing
import ViewerAnalytics

/// Sessions rebuilt from events: each tab's views in order with their measurements, and its fetches as samples.
@Suite(.timeLimit(.minutes(1))) struct ViewerSessionsTests {
    static func event(_ session: String, _ video: String?, _ kind: ViewerEvent.Kind) -> ViewerEvent {
        ViewerEvent(session: session, video: video, kind: kind)
    }

    @Test func viewsAreInOrderWithTheirStallsAndTheirEnds() throws {
        let sessions = ViewerSessions.build([
            Self.event("a", "v1", .segment(bytes: 200_000, milliseconds: 400)),
            Self.event("a", "v1", .viewStart(rendition: "360p", startupMilliseconds: 350)),
            Self.event("b", "v9", .viewStart(rendition: "720p", startupMilliseconds: 90)),  // another tab, between
            Self.event("a", "v1", .stall(milliseconds: 1200)),
            Self.event("a", "v1", .progress(positionSeconds: 4, watchedSeconds: 4)),
            Self.event("a", "v1", .stall(milliseconds: 300)),
            Self.event("a", "v1", .viewEnd(watchedSeconds: 9.5, completed: true, bytes: 900_000)),
            Self.event("a", "v1", .stall(milliseconds: 9999)),  // after its end: no view open
            Self.event("a", "v2", .viewStart(rendition: "360p", startupMilliseconds: 20)),
            Self.event("a", "v2", .progress(positionSeconds: 3, watchedSeconds: 3.25)),
            Self.event("a", "v1", .stall(milliseconds: 777)),  // not the open view's video
            Self.event("a", nil, .error(message: "x")),
            Self.event("a", "v2", .segment(bytes: 50_000, milliseconds: 100)),
            // v2 never sent its end; v3 starts, which closes it with its last progress.
            Self.event("a", "v3", .viewStart(rendition: "360p", startupMilliseconds: 500)),
        ])
        #expect(sessions.map(\.id) == ["a", "b"])
        let a = sessions[0]
        #expect(a.views.map(\.video) == ["v1", "v2", "v3"])
        #expect(a.views[0].startupMilliseconds == 350 && a.views[0].stalls == 2 && a.views[0].stallMilliseconds == 1500)
        #expect(a.views[0].watchedSeconds == 9.5 && a.views[0].completed && a.views[0].ended)
        #expect(a.views[0].dwellMilliseconds == 350 + 9500 + 1500)
        #expect(a.views[1].watchedSeconds == 3.25 && !a.views[1].ended && a.views[1].stalls == 0)
        #expect(a.views[2].startupMilliseconds == 500 && a.views[2].watchedSeconds == 0)
        #expect(
            a.samples == [
                ViewerSession.Sample(bytes: 200_000, milliseconds: 400),
                ViewerSession.Sample(bytes: 50_000, milliseconds: 100),
            ])
        #expect(a.samples[0].kbps == 4000)
        #expect(sessions[1].views.map(\.video) == ["v9"] && sessions[1].samples.isEmpty)
        #expect(ViewerSessions.build([]).isEmpty)
    }
}
