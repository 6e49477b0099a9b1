internal import LibAV

/// Chooses the poster from the first seconds: the first picture that is neither black nor flat, else the
/// liveliest seen. Frame 0 of a phone clip is often black (fade-in, lens opening).
/// `@unchecked Sendable`: only the poster rung's task of `LadderSession.emit` calls it, one picture at a time.
final class PosterPicker: @unchecked Sendable {
    let searchSlots: Int64
    let stride: Int64
    private(set) var chosen: (frame: Frame, slot: Int64)?
    private var bestDeviation = -1.0
    private(set) var isSettled = false

    init(searchSeconds: Double, frameRate: Double) {
        searchSlots = Int64(max(1, searchSeconds * frameRate))
        stride = Int64(max(1, frameRate / 4))
    }

    func consider(_ picture: Frame, slot: Int64) throws(AVError) {
        guard !isSettled, slot % stride == 0 else { return }
        if slot >= searchSlots {
            isSettled = true
            return
        }
        let (mean, deviation) = picture.lumaStatistics()
        let usable = mean >= 32 && mean <= 224 && deviation >= 12
        if usable || deviation > bestDeviation {
            chosen = (try picture.makeReference(), slot)
            bestDeviation = deviation
        }
        if usable { isSettled = true }
    }
}
