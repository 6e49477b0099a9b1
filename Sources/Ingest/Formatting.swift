/// Human-readable numbers for rejection messages.
enum Formatting {
    static func megabytes(_ bytes: Int64) -> String {
        let value = Double(bytes) / 1_000_000
        return value >= 10 ? "\(Int(value.rounded())) MB" : "\(decimal(value, places: 2)) MB"
    }

    static func seconds(_ value: Double) -> String { "\(decimal(value, places: 2)) s" }

    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
