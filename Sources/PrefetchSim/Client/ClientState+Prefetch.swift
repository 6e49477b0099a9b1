/// What the one media connection fetches next, and at which rung.
extension ClientState {
    func bufferedAhead(_ index: Int) -> Int {
        let item = items[index]
        return max(0, video(index).end(ofChunks: item.chunks.count) - item.position)
    }

    /// The current item first while it has under 3 s; then each neighbour (next ones, then the previous) up to
    /// ~3 s; then the current item up to 10 s. With `retentionPrefetch`, neighbours fill breadth first to their
    /// retention caps, and the current item also comes first while its buffer is short of a few neighbour fetches.
    func nextTarget() -> Int? {
        func wants(_ index: Int, _ limit: Int) -> Bool {
            items[index].chunks.count < video(index).chunkCount && bufferedAhead(index) < limit
        }
        if wants(current, config.retentionPrefetch?.playingFirstMilliseconds ?? config.neighbourBufferMilliseconds) {
            return current
        }
        var neighbours = window.filter { $0 > current } + window.filter { $0 < current }.reversed()
        if config.retentionPrefetch != nil {
            // Breadth first: every neighbour's first second before any neighbour's second one.
            neighbours = neighbours.enumerated().sorted {
                (bufferedAhead($0.element) / 1000, $0.offset) < (bufferedAhead($1.element) / 1000, $1.offset)
            }.map(\.element)
        }
        if let neighbour = neighbours.first(where: { wants($0, neighbourLimit($0)) }) {
            if let prefetch = config.retentionPrefetch, let kbps = samples.harmonicMean,
                wants(current, Int(prefetch.fetchTimeMultiple * estimatedMilliseconds(neighbour, kbps: kbps)))
            {
                return current
            }
            return neighbour
        }
        return wants(current, config.currentBufferMilliseconds) ? current : nil
    }

    /// With nothing to fetch, the connection wakes when playback has drained the current item below its buffer
    /// target; without this an idle client slept until the next script step and stalled on a full-speed link.
    func idleWake() -> Int? {
        guard items[current].chunks.count < video(current).chunkCount, items[current].started else { return nil }
        return now + max(1, bufferedAhead(current) - config.currentBufferMilliseconds + 1)
    }

    /// Time to fetch `index`'s next chunk at the rung it would get, at `kbps`.
    func estimatedMilliseconds(_ index: Int, kbps: Double) -> Double {
        let video = video(index), rung = rung(for: index), chunk = items[index].chunks.count
        let bytes = video.chunkBytes[rung][chunk] + (items[index].inits.contains(rung) ? 0 : video.initBytes[rung])
        return Double(config.requestRTTMilliseconds) + Double(bytes) * 8 / max(kbps, 1)
    }

    /// How far a neighbour is preloaded: the window's fixed buffer, or its retention cap.
    func neighbourLimit(_ index: Int) -> Int {
        config.retentionPrefetch?.neighbourCapMilliseconds(video(index)) ?? config.neighbourBufferMilliseconds
    }

    /// Measured throughput picks the rung from the video's own rates, capped by the network class; low battery drops
    /// one rung. With `retentionPrefetch`, a first chunk and a playing item short of buffer use the cautious share.
    func rung(for index: Int) -> Int {
        let video = video(index)
        var share = 0.8
        if let prefetch = config.retentionPrefetch {
            let first = items[index].chunks.isEmpty
            let low = index == current && bufferedAhead(index) < prefetch.lowBufferMilliseconds
            if first || low { share = prefetch.cautiousShare }
        }
        var rung = video.rung(forMeasuredKbps: samples.harmonicMean, share: share)
        if let cap = config.networkClass?.rungCap { rung = samples.isEmpty ? cap : min(rung, cap) }
        return min(video.rungCount - 1, config.lowBattery ? max(0, rung - 1) : rung)
    }
}
