/// Colour primaries by their CIE 1931 xy chromaticities, and the linear-light matrix from one set to another.
package struct Primaries: Sendable, Equatable {
    package var red: (x: Double, y: Double)
    package var green: (x: Double, y: Double)
    package var blue: (x: Double, y: Double)
    package var white: (x: Double, y: Double)

    package static func == (l: Primaries, r: Primaries) -> Bool {
        [l.red, l.green, l.blue, l.white].elementsEqual([r.red, r.green, r.blue, r.white]) { $0 == $1 }
    }

    private static let d65 = (x: 0.3127, y: 0.3290)
    /// ITU-R BT.709 (and sRGB).
    package static let bt709 = Primaries(
        red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060), white: d65)
    /// ITU-R BT.2020 and BT.2100.
    package static let bt2020 = Primaries(
        red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), white: d65)
    /// Display P3 (SMPTE EG 432-1, D65 white).
    package static let displayP3 = Primaries(
        red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: d65)

    /// RGB to CIE XYZ, rows X, Y, Z (SMPTE RP 177).
    package var toXYZ: Matrix3 {
        func xyz(_ c: (x: Double, y: Double)) -> [Double] { [c.x / c.y, 1, (1 - c.x - c.y) / c.y] }
        let (r, g, b) = (xyz(red), xyz(green), xyz(blue))
        let columns = Matrix3(rows: [[r[0], g[0], b[0]], [r[1], g[1], b[1]], [r[2], g[2], b[2]]])
        let scale = columns.inverse.apply(xyz(white))
        return Matrix3(rows: (0..<3).map { i in (0..<3).map { j in columns.rows[i][j] * scale[j] } })
    }

    /// The linear-light matrix taking RGB in these primaries to RGB in `target` (same white, no adaptation).
    package func conversion(to target: Primaries) -> Matrix3 { target.toXYZ.inverse.times(toXYZ) }
}

/// A 3×3 matrix, row-major: all the linear algebra colour conversion needs.
package struct Matrix3: Sendable, Equatable {
    package var rows: [[Double]]

    package init(rows: [[Double]]) {
        precondition(rows.count == 3 && rows.allSatisfy { $0.count == 3 }, "a Matrix3 has three rows of three")
        self.rows = rows
    }

    package static let identity = Matrix3(rows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    package func apply(_ v: [Double]) -> [Double] {
        rows.map { $0[0] * v[0] + $0[1] * v[1] + $0[2] * v[2] }
    }

    package func times(_ o: Matrix3) -> Matrix3 {
        Matrix3(rows: (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + rows[i][$1] * o.rows[$1][j] } } })
    }

    package var inverse: Matrix3 {
        let m = rows
        let c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1]
        let c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2]
        let c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0]
        let det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02
        precondition(det != 0, "primaries with collinear chromaticities have no inverse")
        return Matrix3(rows: [
            [c00 / det, (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det, (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det],
            [c01 / det, (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det, (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det],
            [c02 / det, (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det, (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det],
        ])
    }
}
