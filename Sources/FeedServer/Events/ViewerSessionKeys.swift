/// The secrets that sign viewer-session tokens (`ViewerSessionToken`). The first key signs and every key verifies.
/// To rotate, put a new key first and drop the old one once the tokens it signed have expired. Hosts that share a
/// catalog need the same keys, or a token issued by one host is refused by the others (docs/security.md).
package struct ViewerSessionKeys: Sendable {
    /// Each key's bytes. The swift-crypto `SymmetricKey` is made per use because it is not `Sendable`.
    let keys: [[UInt8]]

    /// 256 bits, the size of the HMAC-SHA256 output (RFC 2104 advises no less).
    package static let minimumBytes = 32

    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case noKey
        /// Line `line` (from 1) is not hex, or is shorter than `minimumBytes`.
        case badLine(Int)

        package var description: String {
            switch self {
            case .noKey: "the key file holds no key (one per line, at least 64 hex digits: openssl rand -hex 32)"
            case let .badLine(line):
                "line \(line) of the key file is not a key: at least 64 hex digits (openssl rand -hex 32)"
            }
        }
    }

    package init(keys: [[UInt8]]) {
        precondition(!keys.isEmpty && keys.allSatisfy { $0.count >= Self.minimumBytes }, "checked by the callers")
        self.keys = keys
    }

    /// A key file's text: one key per line in hex, the signing key first. Blank lines and lines that start with `#`
    /// are skipped.
    /// - Throws: `Failure.badLine` for a line that is not a key of at least 32 bytes; `Failure.noKey` when none is.
    package init(keyFile bytes: [UInt8]) throws(Failure) {
        var keys: [[UInt8]] = []
        let blank: Set<UInt8> = [0x20, 0x09, 0x0D]
        for (index, raw) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            var line = raw
            while let first = line.first, blank.contains(first) { line.removeFirst() }
            while let last = line.last, blank.contains(last) { line.removeLast() }
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            guard let key = Self.hexBytes(line), key.count >= Self.minimumBytes else { throw .badLine(index + 1) }
            keys.append(key)
        }
        guard !keys.isEmpty else { throw .noKey }
        self.keys = keys
    }

    /// One fresh random key.
    package static func random() -> ViewerSessionKeys {
        ViewerSessionKeys(keys: [randomKey()])
    }

    /// A new key file's text: one fresh random key in hex and a newline.
    package static func makeKeyFile() -> [UInt8] {
        Array((hex(randomKey()) + "\n").utf8)
    }

    static func randomKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<minimumBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func hexBytes(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8?
        for character in text {
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }
}
