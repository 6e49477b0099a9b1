import Testing

@testable import FeedServer

/// The viewer writes' budgets on a fake clock: a batch takes a token from its session and from its address, or from
/// neither; an address is keyed by its IPv4 address or its IPv6 /64.
@Suite(.timeLimit(.minutes(1))) struct EventRateLimiterTests {
    let limits = ViewerEventLimits(
        perSession: RateLimit(requestsPerSecond: 1, burst: 2), perAddress: RateLimit(requestsPerSecond: 1, burst: 3))

    @Test func aRefusedBatchCostsNeitherBudget() {
        let limiter = EventRateLimiter(limits: limits)
        #expect(limiter.admit(session: "a", address: "192.0.2.1", now: 0) == nil)
        #expect(limiter.admit(session: "a", address: "192.0.2.1", now: 0) == nil)
        #expect(limiter.admit(session: "a", address: "192.0.2.1", now: 0) == .session(1))
        // The session's refusal took nothing from the address: it has one token left for another session.
        #expect(limiter.admit(session: "b", address: "192.0.2.1", now: 0) == nil)
        #expect(limiter.admit(session: "c", address: "192.0.2.1", now: 0) == .address(1))
        // Nor did the address's refusal take from session c.
        #expect(limiter.admit(session: "c", address: "192.0.2.2", now: 0) == nil)
        #expect(limiter.admit(session: "c", address: "192.0.2.2", now: 0) == nil)
        #expect(limiter.admit(address: "192.0.2.1", now: 0) == 1)
        #expect(limiter.admit(address: "192.0.2.1", now: 1) == nil)
    }

    @Test(arguments: [
        ("192.0.2.7", "192.0.2.7"), ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::9", "2001:db8:1:2::/64"), ("2001:DB8:0001:0002:ffff::", "2001:db8:1:2::/64"),
        ("::1", "0:0:0:0::/64"), ("fe80::1%eth0", "fe80:0:0:0::/64"), ("::ffff:192.0.2.7", "192.0.2.7"),
        ("1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8:9"), ("", "unknown"),
    ])
    func anAddressIsKeyedByItsIPv4OrItsIPv6Slash64(address: String, key: String) {
        #expect(ClientAddress.budgetKey(address) == key)
    }

    @Test func manyClientsOfOneIPv6Slash64ShareOneBudget() {
        let limiter = EventRateLimiter(limits: limits)
        let keys = (1...4).map { ClientAddress.budgetKey("2001:db8:0:7::\($0)") }
        let answers = keys.enumerated().map { limiter.admit(session: "s\($0.offset)", address: $0.element, now: 0) }
        #expect(answers == [nil, nil, nil, .address(1)])
    }
}
