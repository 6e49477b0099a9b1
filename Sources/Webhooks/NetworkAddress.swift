/// An IPv4 or IPv6 address, and whether a webhook may go there. Reel refuses, unless the operator allowed it for an
/// endpoint, every address that is not on the public internet: loopback, private (RFC 1918, ULA), carrier-grade NAT,
/// link-local (cloud metadata services live there), multicast, reserved and unspecified ranges, and the IPv6 forms
/// that embed an IPv4 address (mapped, translated, NAT64, 6to4), judged by that address.
package struct NetworkAddress: Sendable, Equatable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), network order.
    package let bytes: [UInt8]

    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    package var isIPv4: Bool { bytes.count == 4 }

    /// Whether it is an address on the public internet.
    package var isPublic: Bool {
        if let embedded = embeddedIPv4 { return embedded.isPublic }
        return isIPv4 ? Self.isPublicIPv4(bytes) : Self.isPublicIPv6(bytes)
    }

    /// The IPv4 address an IPv6 one stands for: `::ffff:a.b.c.d` (mapped), `::ffff:0:a.b.c.d` (translated),
    /// `::a.b.c.d` (compatible, deprecated), `64:ff9b::a.b.c.d` and `64:ff9b:1::/48` (NAT64), `2002:a.b.c.d::/16`
    /// (6to4).
    var embeddedIPv4: NetworkAddress? {
        guard bytes.count == 16 else { return nil }
        let head = Array(bytes[0..<12])
        let mapped = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF]
        let translated = [UInt8](repeating: 0, count: 8) + [0xFF, 0xFF, 0, 0]
        if head == mapped || head == translated { return NetworkAddress(bytes: Array(bytes[12..<16])) }
        // `::a.b.c.d`, but not `::` or `::1` (their own ranges below).
        if head == [UInt8](repeating: 0, count: 12), bytes[12] != 0 || bytes[13] != 0 {
            return NetworkAddress(bytes: Array(bytes[12..<16]))
        }
        if head == [0, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8) {
            return NetworkAddress(bytes: Array(bytes[12..<16]))
        }
        if Array(bytes[0..<6]) == [0, 0x64, 0xFF, 0x9B, 0, 1] { return NetworkAddress(bytes: Array(bytes[12..<16])) }
        if bytes[0] == 0x20, bytes[1] == 0x02 { return NetworkAddress(bytes: Array(bytes[2..<6])) }
        return nil
    }

    static func isPublicIPv4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _): false  // "this network"
        case (10, _): false  // RFC 1918
        case (100, 64...127): false  // carrier-grade NAT
        case (127, _): false  // loopback
        case (169, 254): false  // link-local, cloud metadata
        case (172, 16...31): false  // RFC 1918
        case (192, 168): false  // RFC 1918
        case (192, 0) where b[2] == 0 || b[2] == 2: false  // IETF protocol assignments, TEST-NET-1
        case (192, 88) where b[2] == 99: false  // 6to4 relay anycast (deprecated)
        case (198, 18...19): false  // benchmarking
        case (198, 51) where b[2] == 100: false  // TEST-NET-2
        case (203, 0) where b[2] == 113: false  // TEST-NET-3
        case (224...255, _): false  // multicast, reserved, broadcast
        default: true
        }
    }

    static func isPublicIPv6(_ b: [UInt8]) -> Bool {
        // Only global unicast (2000::/3) is public; within it, documentation and other special ranges are not.
        guard b[0] & 0xE0 == 0x20 else { return false }
        if b[0] == 0x20, b[1] == 0x01 {
            if b[2] == 0x0D, b[3] == 0xB8 { return false }  // documentation 2001:db8::/32
            if b[2] == 0, b[3] == 0 { return false }  // Teredo 2001::/32 (tunnels to anywhere)
            if b[2] == 0, b[3] & 0xF0 == 0x10 { return false }  // ORCHID 2001:10::/28
            if b[2] == 0, b[3] & 0xF0 == 0x20 { return false }  // ORCHIDv2 2001:20::/28
            if b[2] == 0, b[3] == 0x02, b[4] == 0, b[5] == 0 { return false }  // benchmarking 2001:2::/48
        }
        if b[0] == 0x3F, b[1] == 0xFF, b[2] & 0xF0 == 0 { return false }  // documentation 3fff::/20
        return true
    }

    /// Dotted quad, or eight hexadecimal groups: what a connection to exactly this address is asked with.
    package var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
