import Glibc

/// A TCP listener on 127.0.0.1 that counts the connections made to it, to prove nothing was contacted.
package final class LoopbackListener {
    let descriptor: Int32
    package let port: UInt16

    package init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        guard descriptor >= 0 else { throw ListenerError(call: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw ListenerError(call: "bind/listen") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw ListenerError(call: "getsockname") }
        port = UInt16(bigEndian: address.sin_port)
        _ = fcntl(self.descriptor, F_SETFL, O_NONBLOCK)
    }

    deinit { close(descriptor) }

    /// Accepts everything queued (completed handshakes stay queued even if the client hung up) and counts it.
    package func acceptedConnections() -> Int {
        var count = 0
        while true {
            let client = accept(descriptor, nil, nil)
            if client < 0 { return count }
            close(client)
            count += 1
        }
    }
}

package struct ListenerError: Error { package let call: String }

/// Watches one file with inotify and reports whether anything opened or read it.
package final class OpenWatcher {
    let descriptor: Int32

    package init(path: String) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK))
        guard descriptor >= 0, inotify_add_watch(descriptor, path, UInt32(IN_OPEN | IN_ACCESS)) >= 0 else {
            throw ListenerError(call: "inotify")
        }
    }

    deinit { close(descriptor) }

    package var wasOpened: Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        return read(descriptor, &buffer, buffer.count) > 0
    }

    /// How many times the file was opened since the last call (or since the watch began): IN_OPEN events, which a
    /// reopen through `/proc/self/fd/N` (libav's way in) makes too. Watch with a fresh watcher to count from zero.
    package func opens() -> Int {
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let length = read(descriptor, &buffer, buffer.count)
            guard length > 0 else { return count }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= length {
                let (mask, nameLength) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                if mask & UInt32(IN_OPEN) != 0 { count += 1 }
                offset += MemoryLayout<inotify_event>.size + nameLength
            }
        }
    }
}
