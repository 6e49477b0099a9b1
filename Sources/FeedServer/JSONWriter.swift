#if canImport(Glibc)
internal import Glibc
#endif

/// A minimal JSON writer for feed items (`FeedItemRenderer`): the known shape written straight into bytes. Foundation's
/// JSONEncoder cost a third of the server's CPU on a 20-item page when items were still rendered per request.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func array(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// A key inside an object; the next value written is its value.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = false }
    }

    mutating func string(_ value: String?) {
        guard let value else { return null() }
        separate()
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copy them in one go.
        if !value.utf8.contains(where: {
            $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
        }) {
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    hex[Int(byte >> 4)], hex[Int(byte & 0x0F)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// The shortest decimal that reads back as `value` (Swift's `description`); null for infinities and NaN, which
    /// JSON cannot express.
    mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        separate()
        bytes.append(contentsOf: value.description.utf8)
    }

    /// `value` as an integer when it is whole (`21`, as integers were written before), else as `double` does (`22.4`).
    mutating func number(_ value: Double) {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { int(Int(value)) } else { double(value) }
    }

    /// Milliseconds as seconds with up to three decimals, without binary floating-point noise.
    mutating func milliseconds(asSeconds value: Int) {
        separate()
        let (whole, fraction) = value.quotientAndRemainder(dividingBy: 1000)
        if value < 0 && whole == 0 { bytes.append(UInt8(ascii: "-")) }
        bytes.append(contentsOf: String(whole).utf8)
        guard fraction != 0 else { return }
        var text = String(abs(fraction))
        text = String(repeating: "0", count: 3 - text.count) + text
        while text.hasSuffix("0") { text.removeLast() }
        bytes.append(UInt8(ascii: "."))
        bytes.append(contentsOf: text.utf8)
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A value that is already valid JSON.
    mutating func raw(_ json: String) {
        separate()
        bytes.append(contentsOf: json.utf8)
    }

    /// RFC 3339 UTC with milliseconds, digits written straight in (Foundation's formatters cost more than the
    /// rest of a feed page).
    mutating func timestamp(milliseconds: Int64) {
        separate()
        var (whole, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        if fraction < 0 { (whole, fraction) = (whole - 1, fraction + 1000) }
        var seconds = time_t(whole)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        bytes.append(UInt8(ascii: "\""))
        digits(Int(parts.tm_year) + 1900, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), 2)
        bytes.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), 2)
        bytes.append(UInt8(ascii: "."))
        digits(Int(fraction), 3)
        bytes.append(contentsOf: [UInt8(ascii: "Z"), UInt8(ascii: "\"")])
    }

    private mutating func digits(_ value: Int, _ width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8((rest / divisor) % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    /// The URL of a library-relative path under `base`, or null. Bytes outside RFC 3986's unreserved set (and `/`)
    /// are percent-encoded; the base is checked when it is configured and needs no escaping.
    mutating func mediaURL(base: MediaBaseURL, _ path: String?) {
        guard let path else { return null() }
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: base.bytes)
        // By hand: a CharacterSet per call costs more than the rest of a feed item.
        let hex: StaticString = "0123456789ABCDEF"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                hex.withUTF8Buffer { hex in
                    bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    private mutating func separate() {
        guard !needsComma.isEmpty else { return }
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }
}
