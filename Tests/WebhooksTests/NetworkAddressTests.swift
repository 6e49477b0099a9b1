import Testing

@testable import Webhooks

/// The SSRF policy (issue 65): only public addresses, judged by the IPv4 address an IPv6 one embeds.
@Suite(.timeLimit(.minutes(1))) struct NetworkAddressTests {
    static func v4(_ text: String) -> NetworkAddress? {
        NetworkAddress(bytes: text.split(separator: ".").compactMap { UInt8($0) })
    }

    static func v6(_ groups: [UInt16]) -> NetworkAddress? {
        NetworkAddress(bytes: groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }

    @Test(arguments: [
        ("0.0.0.0", false), ("0.1.2.3", false), ("10.0.0.1", false), ("10.255.255.255", false),
        ("100.63.255.255", true), ("100.64.0.1", false), ("100.127.255.255", false), ("100.128.0.0", true),
        ("127.0.0.1", false), ("127.255.0.9", false), ("169.254.169.254", false), ("169.253.1.1", true),
        ("172.15.255.255", true), ("172.16.0.1", false), ("172.31.255.255", false), ("172.32.0.0", true),
        ("192.0.0.8", false), ("192.0.1.1", true), ("192.0.2.1", false), ("192.88.99.1", false),
        ("192.168.1.1", false), ("192.169.0.1", true), ("198.17.255.255", true), ("198.18.0.1", false),
        ("198.19.255.255", false), ("198.20.0.0", true), ("198.51.100.7", false), ("203.0.113.9", false),
        ("203.0.114.1", true), ("223.255.255.255", true), ("224.0.0.1", false), ("239.1.2.3", false),
        ("240.0.0.1", false), ("255.255.255.255", false), ("1.1.1.1", true), ("8.8.8.8", true),
        ("93.184.216.34", true),
    ])
    func ipv4(_ text: String, isPublic: Bool) throws {
        let address = try #require(Self.v4(text))
        #expect(address.isPublic == isPublic, "\(text)")
        #expect(address.description == text)
    }

    /// Every first octet: the private and reserved ones are exactly these.
    @Test func everyFirstOctetOutsideTheSpecialRangesIsPublic() throws {
        let neverPublic: Set<UInt8> = [0, 10, 127]
        for octet in UInt8.min...UInt8.max {
            let address = try #require(NetworkAddress(bytes: [octet, 200, 1, 1]))
            let expected = !neverPublic.contains(octet) && octet < 224
            #expect(address.isPublic == expected, "\(address)")
        }
    }

    @Test func ipv6() throws {
        let cases: [([UInt16], Bool)] = [
            ([0, 0, 0, 0, 0, 0, 0, 0], false),  // unspecified
            ([0, 0, 0, 0, 0, 0, 0, 1], false),  // loopback
            ([0xFE80, 0, 0, 0, 0, 0, 0, 1], false),  // link-local
            ([0xFC00, 0, 0, 0, 0, 0, 0, 1], false), ([0xFD12, 0x3456, 0, 0, 0, 0, 0, 1], false),  // ULA
            ([0xFF02, 0, 0, 0, 0, 0, 0, 1], false),  // multicast
            ([0x2001, 0x0DB8, 0, 0, 0, 0, 0, 1], false),  // documentation
            ([0x3FFF, 0x0001, 0, 0, 0, 0, 0, 1], false),  // documentation 3fff::/20
            ([0x2001, 0, 0x4136, 0xE378, 0x8000, 0x63BF, 0x3FFF, 0xFDD2], false),  // Teredo
            ([0x2001, 0x4860, 0x4860, 0, 0, 0, 0, 0x8888], true),  // public
            ([0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111], true),
            ([0, 0, 0, 0, 0, 0xFFFF, 0x7F00, 0x0001], false),  // ::ffff:127.0.0.1
            ([0, 0, 0, 0, 0, 0xFFFF, 0xA9FE, 0xA9FE], false),  // ::ffff:169.254.169.254
            ([0, 0, 0, 0, 0, 0xFFFF, 0x0808, 0x0808], true),  // ::ffff:8.8.8.8
            ([0, 0, 0, 0, 0xFFFF, 0, 0x0A00, 0x0001], false),  // ::ffff:0:10.0.0.1
            ([0, 0, 0, 0, 0, 0, 0xC0A8, 0x0101], false),  // ::192.168.1.1
            ([0x0064, 0xFF9B, 0, 0, 0, 0, 0x0A00, 0x0001], false),  // NAT64 of 10.0.0.1
            ([0x0064, 0xFF9B, 0, 0, 0, 0, 0x0808, 0x0808], true),  // NAT64 of 8.8.8.8
            ([0x0064, 0xFF9B, 0x0001, 0, 0, 0, 0x7F00, 0x0001], false),  // local NAT64 of 127.0.0.1
            ([0x2002, 0x7F00, 0x0001, 0, 0, 0, 0, 1], false),  // 6to4 of 127.0.0.1
            ([0x2002, 0x0808, 0x0808, 0, 0, 0, 0, 1], true),  // 6to4 of 8.8.8.8
        ]
        for (groups, expected) in cases {
            let address = try #require(Self.v6(groups))
            #expect(address.isPublic == expected, "\(address)")
        }
        #expect(Self.v6([0x2001, 0x0DB8, 0, 0, 0, 0, 0, 1])?.description == "2001:db8:0:0:0:0:0:1")
    }

    @Test func onlyFourOrSixteenBytesAreAnAddress() {
        for count in [0, 1, 3, 5, 15, 17] { #expect(NetworkAddress(bytes: [UInt8](repeating: 1, count: count)) == nil) }
    }

    @Test func aHostIsRefusedWhenAnyOfItsAddressesIsNotPublic() async throws {
        let loopback = await WebhookSender.address(of: "127.0.0.1", allowingPrivate: false)
        guard case let .failure(refusal) = loopback else {
            Issue.record("127.0.0.1 was allowed")
            return
        }
        #expect(refusal.message.contains("127.0.0.1 is not a public address"), "\(refusal.message)")
        let localhost = await WebhookSender.address(of: "localhost", allowingPrivate: false)
        #expect((try? localhost.get()) == nil, "localhost resolves to loopback")
        let allowed = await WebhookSender.address(of: "127.0.0.1", allowingPrivate: true)
        #expect((try? allowed.get())?.description == "127.0.0.1")
        let unknown = await WebhookSender.address(of: "no-such-host.invalid", allowingPrivate: true)
        guard case let .failure(unresolved) = unknown else {
            Issue.record("an .invalid name resolved")
            return
        }
        #expect(unresolved.message.hasPrefix("cannot resolve no-such-host.invalid"), "\(unresolved.message)")
    }
}
