/// A deterministic model of the phone client: a virtual clock, one media connection on a bandwidth trace, a pool
/// of reusable players, a prefetch window around the current item, paging, memory warnings and a battery mode.
public struct FeedClientSimulator: Sendable {
    public let catalog: [ShortVideo]
    public let network: NetworkTrace
    public var configuration: ClientConfiguration

    public init(
        catalog: [ShortVideo], network: NetworkTrace, configuration: ClientConfiguration = ClientConfiguration()
    ) {
        precondition(!catalog.isEmpty, "a feed needs videos")
        precondition((3...5).contains(configuration.players), "the pool holds 3 to 5 players")
        self.catalog = catalog
        self.network = network
        self.configuration = configuration
    }

    public func run(_ script: [ScrollStep]) -> ClientReport {
        var state = ClientState(catalog: catalog, network: network, configuration: configuration)
        for step in script { state.perform(step) }
        return state.report()
    }
}

/// The mutable state of one simulated scroll.
struct ClientState {
    struct Item {
        var chunks: [Int] = []  // rung of each buffered chunk (index = chunk number)
        var paid: [Int] = []  // bytes each buffered chunk cost, with the init segment it brought
        var inits: Set<Int> = []  // rungs whose init segment this item's player holds
        var position = 0  // ms into the video (loops at the end)
        var furthest = 0  // furthest position ever played, ms
        var arrived: Int?  // when the user arrived here (startup clock)
        var started = false
        var dropped = 0  // bytes of unplayed chunks dropped on a memory warning
        var droppedPlayed = 0  // bytes of played chunks dropped with them
    }

    struct Download {
        let item: Int, chunk: Int, rung: Int, bytes: Int, start: Int, end: Int
    }

    let catalog: [ShortVideo]
    let network: NetworkTrace
    var config: ClientConfiguration
    var now = 0
    var items: [Item]
    var current = 0
    var loaded: Int
    var pageInFlight: (page: Int, done: Int)?
    var download: Download?
    var samples: [Double] = []
    var players: [Int?] = []  // item each player holds
    var playerStates: [PlayerState] = []  // last logged state of each player
    var events: [ClientEvent] = []
    var stallStart: Int?
    var startupDelays: [Int] = []
    var stallCount = 0, stallTime = 0, watchTime = 0
    var downloaded = 0, cancelledBytes = 0, peakBuffered = 0, pageRequests = 0, hits = 0, forwardSwipes = 0

    init(catalog: [ShortVideo], network: NetworkTrace, configuration: ClientConfiguration) {
        self.catalog = catalog
        self.network = network
        self.config = configuration
        loaded = min(configuration.pageSize, configuration.feedLength)
        items = [Item](repeating: Item(), count: max(1, configuration.feedLength))
        items[0].arrived = 0
        assignPlayers()
        updatePlayerStates()
    }

    func video(_ item: Int) -> ShortVideo { catalog[item % catalog.count] }
    func log(_ kind: ClientEvent.Kind) -> ClientEvent { ClientEvent(time: now, kind: kind) }

    var window: ClosedRange<Int> {
        let ahead = config.lowBattery ? max(0, config.ahead - 1) : config.ahead
        let behind = config.lowBattery ? 0 : config.behind
        return max(0, current - behind)...min(loaded - 1, current + ahead)
    }

    // MARK: Script steps

    mutating func perform(_ step: ScrollStep) {
        switch step {
        case let .watch(milliseconds): advance(to: now + milliseconds)
        case .swipe: move(to: current + 1)
        case .swipeBack: if current > 0 { move(to: current - 1) }
        case .waitForPage: if let pageInFlight { advance(to: pageInFlight.done) }
        case .memoryWarning: dropBuffers()
        case let .lowBattery(on):
            config.lowBattery = on
            events.append(log(.lowBattery(on)))
            cancelIfOutsideWindow()
        }
    }

    mutating func move(to target: Int) {
        guard target < config.feedLength else { return }
        if target >= loaded, let pageInFlight { advance(to: pageInFlight.done) }
        guard target < loaded else { return }
        endStall()
        if target > current {
            forwardSwipes += 1
            if !items[target].chunks.isEmpty { hits += 1 }
        }
        events.append(log(.swiped(from: current, to: target)))
        current = target
        var item = items[target]
        item.arrived = now
        item.started = false
        items[target] = item
        requestPageIfNeeded()
        cancelIfOutsideWindow()
        assignPlayers()
        updatePlayerStates()
    }

    // MARK: Clock

    /// Moves the clock to `time`: playback, downloads and page loads all progress; events happen in time order.
    mutating func advance(to time: Int) {
        while now < time {
            if download == nil { startDownload() }
            var next = time
            if let download { next = min(next, download.end) } else if let wake = idleWake() { next = min(next, wake) }
            if let pageInFlight { next = min(next, pageInFlight.done) }
            play(until: next)
            now = next
            if let finished = download, finished.end == now { finish(finished) }
            if let page = pageInFlight, page.done == now { loadPage(page.page) }
            updatePlayerStates()
        }
    }

    /// The state each player is in now; a change is logged.
    func playerState(_ player: Int) -> PlayerState {
        guard let index = players[player] else { return .idle }
        let item = items[index]
        if index == current {
            if !item.started { return item.chunks.isEmpty ? .loading : .ready }
            return stallStart != nil || bufferedAhead(index) == 0 ? .buffering : .playing
        }
        if item.chunks.isEmpty { return .loading }
        return item.furthest > 0 ? .paused : .ready
    }

    mutating func updatePlayerStates() {
        for player in players.indices {
            let state = playerState(player)
            if player >= playerStates.count {
                playerStates.append(state)
                events.append(log(.playerState(player: player, item: players[player], state: state)))
            } else if playerStates[player] != state {
                playerStates[player] = state
                events.append(log(.playerState(player: player, item: players[player], state: state)))
            }
        }
    }

    mutating func play(until time: Int) {
        var item = items[current]
        var t = now
        let duration = video(current).durationMilliseconds
        while t < time {
            let buffered = min(video(current).end(ofChunks: item.chunks.count), duration) - item.position
            if buffered <= 0 {
                if stallStart == nil, item.started {
                    stallStart = t
                    events.append(ClientEvent(time: t, kind: .stallStarted(item: current)))
                }
                break
            }
            if !item.started {
                item.started = true
                let startup = t - (item.arrived ?? t)
                startupDelays.append(startup)
                events.append(ClientEvent(time: t, kind: .playbackStarted(item: current, startupMilliseconds: startup)))
            }
            if let stallStart {
                stallCount += 1
                stallTime += t - stallStart
                events.append(ClientEvent(time: t, kind: .stallEnded(item: current, milliseconds: t - stallStart)))
                self.stallStart = nil
            }
            let step = min(time - t, buffered)
            item.position += step
            item.furthest = max(item.furthest, item.position)
            watchTime += step
            t += step
            if item.position >= duration {
                item.position = 0  // a video that ends loops
                events.append(ClientEvent(time: t, kind: .looped(item: current)))
            }
        }
        items[current] = item
    }

    mutating func endStall() {
        guard let stallStart else { return }
        stallCount += 1
        stallTime += now - stallStart
        events.append(log(.stallEnded(item: current, milliseconds: now - stallStart)))
        self.stallStart = nil
    }

    // MARK: Downloads

    mutating func startDownload() {
        guard let target = nextTarget() else { return }
        let chunk = items[target].chunks.count
        let video = video(target)
        let rung = rung(for: target)
        // A rung this player has not played yet costs its init segment first (hls.js keeps one per rung).
        let initBytes = items[target].inits.contains(rung) ? 0 : video.initBytes[rung]
        let bytes = initBytes + video.chunkBytes[rung][chunk]
        var clock = network.clock(at: Double(now) / 1000)
        let seconds = network.transfer(bytes: Double(bytes), efficiency: 1, from: &clock)
        let end = now + config.requestRTTMilliseconds + max(1, Int((seconds * 1000).rounded(.up)))
        download = Download(item: target, chunk: chunk, rung: rung, bytes: bytes, start: now, end: end)
        events.append(log(.downloadStarted(item: target, chunk: chunk, rung: rung)))
    }

    mutating func finish(_ finished: Download) {
        download = nil
        items[finished.item].chunks.append(finished.rung)
        items[finished.item].paid.append(finished.bytes)
        items[finished.item].inits.insert(finished.rung)
        downloaded += finished.bytes
        samples.append(Double(finished.bytes * 8) / Double(max(1, finished.end - finished.start)))
        if samples.count > 5 { samples.removeFirst() }
        events.append(
            log(
                .downloadFinished(
                    item: finished.item, chunk: finished.chunk, rung: finished.rung, bytes: finished.bytes)))
        peakBuffered = max(peakBuffered, bufferedBytes)
    }

    /// A prefetch for an item that left the window stops, and so does a neighbour's prefetch while the current
    /// item has nothing to play (startup comes first); what arrived of it is downloaded and wasted.
    mutating func cancelIfOutsideWindow() {
        guard let active = download else { return }
        let starving = active.item != current && items[current].chunks.isEmpty
        guard !window.contains(active.item) || starving else { return }
        let elapsed = max(0, now - active.start - config.requestRTTMilliseconds)
        let span = max(1, active.end - active.start - config.requestRTTMilliseconds)
        let received = min(active.bytes, active.bytes * elapsed / span)
        downloaded += received
        cancelledBytes += received
        download = nil
        events.append(log(.downloadCancelled(item: active.item, chunk: active.chunk, bytesReceived: received)))
    }

    mutating func dropBuffers() {
        let keep = (current - config.memoryKeepRadius)...(current + config.memoryKeepRadius)
        var dropped: [Int] = [], bytes = 0
        for (index, item) in items.enumerated() where !keep.contains(index) && !item.chunks.isEmpty {
            let played = playedChunks(index)
            let sizes = item.paid
            let unplayed = sizes.dropFirst(played).reduce(0, +)
            var emptied = item
            emptied.dropped += unplayed
            emptied.droppedPlayed += sizes.prefix(played).reduce(0, +)
            emptied.furthest = 0
            emptied.started = false
            emptied.chunks = []
            emptied.paid = []
            emptied.inits = []
            emptied.position = 0
            items[index] = emptied
            dropped.append(index)
            bytes += unplayed
        }
        events.append(log(.buffersDropped(items: dropped, bytes: bytes)))
    }

    // MARK: Pages and players

    mutating func requestPageIfNeeded() {
        guard pageInFlight == nil, loaded < config.feedLength, current >= loaded - config.pageTriggerDistance else {
            return
        }
        let page = loaded / config.pageSize
        pageInFlight = (page, now + 2 * config.requestRTTMilliseconds)
        pageRequests += 1
        events.append(log(.pageRequested(page: page)))
    }

    mutating func loadPage(_ page: Int) {
        pageInFlight = nil
        let before = loaded
        loaded = min(config.feedLength, loaded + config.pageSize)
        events.append(log(.pageLoaded(page: page, items: loaded - before)))
        requestPageIfNeeded()
    }

    /// Players go to the current item, then the nearest neighbours; existing players are reused by swapping items.
    mutating func assignPlayers() {
        let order = [current, current + 1, current - 1, current + 2, current - 2].filter {
            window.contains($0) || $0 == current
        }
        let wanted = Array(order.prefix(config.players))
        var free = players.indices.filter { players[$0].map { !wanted.contains($0) } ?? true }
        for item in wanted where !players.contains(item) {
            if let player = free.first {
                free.removeFirst()
                players[player] = item
                events.append(log(.playerAssigned(player: player, item: item)))
            } else if players.count < config.players {
                players.append(item)
                events.append(log(.playerCreated(player: players.count - 1)))
                events.append(log(.playerAssigned(player: players.count - 1, item: item)))
            }
        }
    }

    // MARK: Accounting

    /// Chunks whose start playback reached, for an item.
    func playedChunks(_ index: Int) -> Int {
        let item = items[index]
        let reached = item.started || item.furthest > 0 ? video(index).chunks(startingBefore: item.furthest) : 0
        return min(item.chunks.count, max(reached, item.started ? 1 : 0))
    }

    /// Unplayed bytes held across all items (plain loops: this runs after every chunk).
    var bufferedBytes: Int {
        var total = 0
        for index in items.indices where !items[index].chunks.isEmpty {
            let paid = items[index].paid
            var chunk = playedChunks(index)
            while chunk < paid.count {
                total += paid[chunk]
                chunk += 1
            }
        }
        return total
    }

    /// The figures so far; a stall still going when the script ends counts up to now.
    func report() -> ClientReport {
        var played = 0, wasted = cancelledBytes, still = 0
        for (index, item) in items.enumerated() {
            wasted += item.dropped
            played += item.droppedPlayed
            for (chunk, bytes) in item.paid.enumerated() {
                if chunk < playedChunks(index) {
                    played += bytes
                } else if index == current {
                    still += bytes
                } else {
                    wasted += bytes
                }
            }
        }
        return ClientReport(
            events: events, playersCreated: players.count, startupDelays: startupDelays,
            stallCount: stallCount + (stallStart == nil ? 0 : 1),
            stallMilliseconds: stallTime + (stallStart.map { now - $0 } ?? 0), watchMilliseconds: watchTime,
            bytesDownloaded: downloaded,
            bytesPlayed: played,
            bytesWasted: wasted, bytesStillBuffered: still, peakBufferedBytes: peakBuffered, pageRequests: pageRequests,
            prefetchHits: hits, forwardSwipes: forwardSwipes
        )
    }
}
