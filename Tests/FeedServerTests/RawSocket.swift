import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to the server under test, driven byte by byte: for what a well-behaved client never does
/// (trickle a request, stop before the body, send more than the server reads). Every call is bounded; run a whole
/// exchange on a thread of its own with `RawSocket.offThePool`, never on the concurrency pool the server needs.
final class RawSocket: @unchecked Sendable {  // used by one thread at a time
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0, "connect: errno \(errno)")
    }

    deinit { close(fd) }

    /// Sends all of `text`, waiting up to 60 s for room.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            try #require(waitUntilWritable(seconds: 60), "the server read nothing for 60 s")
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { continue }
            try #require(count > 0, "send: errno \(errno) after \(sent) bytes")
            sent += count
        }
    }

    /// Sends what fits without waiting: the byte count taken (0 when the buffers are full), or nil once the
    /// connection is closed or reset.
    func sendWithoutWaiting(_ bytes: [UInt8]) -> Int? {
        let count = bytes.withUnsafeBytes {
            Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        if count >= 0 { return count }
        return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : nil
    }

    func waitUntilWritable(seconds: Double) -> Bool { poll(POLLOUT, seconds: seconds) }

    /// Whether bytes (or the end of the stream) are there to read within `seconds`.
    func waitUntilReadable(seconds: Double) -> Bool { poll(POLLIN, seconds: seconds) }

    private func poll(_ events: Int32, seconds: Double) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
        return Glibc.poll(&entry, 1, Int32(seconds * 1000)) > 0
    }

    /// What arrives until the server closes the connection or `seconds` pass without a byte.
    /// - Returns: the bytes, and whether the connection ended (EOF or reset) rather than went quiet.
    func receiveUntilClosed(quietSeconds seconds: Double = 60) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while waitUntilReadable(seconds: seconds) {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { continue }
            guard count > 0 else { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// What arrives within `seconds` of waiting for the first byte (after it, as long as more comes at once).
    func receiveAvailable(waiting seconds: Double) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var wait = seconds
        while waitUntilReadable(seconds: wait) {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { break }
            received += buffer[0..<count]
            wait = 0.2
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Header `name` (lowercase) of the first response in `response`, or nil.
    static func header(_ name: String, in response: String) -> String? {
        let head = response.components(separatedBy: "\r\n\r\n")[0]
        return head.components(separatedBy: "\r\n").dropFirst().first { $0.lowercased().hasPrefix(name + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    /// Runs `body` on a thread of its own: its blocking calls must not hold a thread of the concurrency pool, which
    /// the server in this process needs to answer.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
