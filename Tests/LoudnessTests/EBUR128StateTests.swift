import Foundation
import LibEBUR128
import Testing

/// The libebur128 wrapper: BS.1770's reference readings, and errors that name the call.
@Suite(.timeLimit(.minutes(2))) struct EBUR128StateTests {
    /// BS.1770-4: a 997 Hz sine at -20 dBFS in both channels of a stereo pair reads -20 LUFS (the -0.691 constant
    /// cancels the K-weighting at 1 kHz); its true peak is its amplitude.
    @Test func readsTheReferenceSineAtItsLevel() throws {
        let sine = TestSignals.sine(seconds: 5, frequency: 997, amplitude: 0.1)
        let (lufs, peak) = try TestSignals.measure(sine)
        #expect(abs(lufs - -20) < 0.05, "read \(lufs) LUFS")
        #expect(abs(peak - -20) < 0.05, "read \(peak) dBTP")
    }

    @Test func silenceIsGatedOutEntirely() throws {
        let (lufs, peak) = try TestSignals.measure([
            [Float](repeating: 0, count: 96_000), [Float](repeating: 0, count: 96_000),
        ])
        #expect(lufs == -.infinity)
        #expect(peak == -.infinity)
    }

    @Test func refusesAPartialFrameNamingTheCall() throws {
        let state = try EBUR128State(channels: 2, sampleRate: 48_000, mode: .integrated)
        let error = #expect(throws: EBUR128Error.self) { try state.add(interleaved: [0, 0, 0]) }
        #expect(error?.function == "ebur128_add_frames_float")
    }

    @Test func truePeakNeedsItsModeAndARealChannel() throws {
        let state = try EBUR128State(channels: 2, sampleRate: 48_000, mode: .integrated)
        let wrongMode = #expect(throws: EBUR128Error.self) { try state.truePeak(channel: 0) }
        #expect(wrongMode?.function == "ebur128_true_peak")
        #expect(wrongMode?.code != nil)
        let noChannel = #expect(throws: EBUR128Error.self) { try state.truePeak(channel: 2) }
        #expect(noChannel?.description.contains("no channel 2") == true)
    }

    /// The last block's peak is that block's alone (once the interpolator's few samples of reach have passed the
    /// loud part; the block just after it still sees its tail), where the running peak keeps the loudest so far.
    @Test func lastTruePeakReadsOnlyTheLastBlock() throws {
        let state = try EBUR128State(channels: 2, sampleRate: 48_000, mode: .truePeak)
        try state.add(interleaved: TestSignals.interleave(TestSignals.sine(seconds: 1, frequency: 997, amplitude: 0.5)))
        let quiet = TestSignals.interleave(TestSignals.sine(seconds: 1, frequency: 997, amplitude: 0.1))
        try state.add(interleaved: quiet)
        try state.add(interleaved: quiet)
        let last = 20 * log10(try state.lastTruePeak(channel: 0))
        let running = 20 * log10(try state.truePeak(channel: 0))
        #expect(abs(last - -20) < 0.1, "last block: \(last) dBTP")
        #expect(abs(running - -6.02) < 0.1, "so far: \(running) dBTP")
        let noChannel = #expect(throws: EBUR128Error.self) { try state.lastTruePeak(channel: 2) }
        #expect(noChannel?.function == "ebur128_prev_true_peak")
    }

    @Test func refusesImpossibleFormatsNamingInit() {
        let error = #expect(throws: EBUR128Error.self) {
            _ = try EBUR128State(channels: 0, sampleRate: 48_000, mode: .integrated)
        }
        #expect(error?.function == "ebur128_init")
    }
}
