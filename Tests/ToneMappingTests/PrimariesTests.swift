import Testing
import ToneMapping

/// The primaries matrices against ITU-R BT.2087's published BT.2020 → BT.709 matrix.
@Suite(.timeLimit(.minutes(1))) struct PrimariesTests {
    @Test func bt2020ToBT709MatchesBT2087() {
        let m = Primaries.bt2020.conversion(to: .bt709).rows
        let published: [[Double]] = [
            [1.6605, -0.5876, -0.0728], [-0.1246, 1.1329, -0.0083], [-0.0182, -0.1006, 1.1187],
        ]
        for i in 0..<3 {
            for j in 0..<3 { #expect(abs(m[i][j] - published[i][j]) < 0.0005, "row \(i) column \(j)") }
        }
    }

    @Test func whiteStaysWhiteAndARoundTripIsTheIdentity() {
        for primaries in [Primaries.bt2020, .displayP3] {
            let there = primaries.conversion(to: .bt709), back = Primaries.bt709.conversion(to: primaries)
            for row in there.rows { #expect(abs(row.reduce(0, +) - 1) < 1e-9) }
            let identity = there.times(back).rows
            for i in 0..<3 {
                for j in 0..<3 { #expect(abs(identity[i][j] - (i == j ? 1 : 0)) < 1e-9) }
            }
        }
        #expect(Primaries.bt709.toXYZ.rows[1].reduce(0, +) > 0.999_999)
    }
}
