internal import Foundation

/// The key of a client's address budget (`EventRateLimiter`): an IPv4 address as it is, and an IPv6 address by its
/// /64 prefix. An IPv6 subscriber usually gets a whole /64, so keying on the full address would give one client
/// 2^64 budgets. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) counts as its IPv4 address.
enum ClientAddress {
    static func budgetKey(_ address: String?) -> String {
        guard var text = address, !text.isEmpty else { return "unknown" }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        guard text.contains(":") else { return text }
        let lowered = text.lowercased()
        if lowered.hasPrefix("::ffff:"), lowered.dropFirst(7).contains(".") { return String(lowered.dropFirst(7)) }
        guard let groups = expand(lowered) else { return lowered }
        return groups.prefix(4).map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }

    /// The eight 16-bit groups of an IPv6 address in text, or nil for text that is not one (or embeds IPv4).
    static func expand(_ text: String) -> [UInt16]? {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var values: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { return nil }
                values.append(value)
            }
            return values
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
