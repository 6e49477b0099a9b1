#if canImport(Glibc)
internal import Glibc
#endif

/// A host name's addresses, as the system resolver gives them (numeric hosts come back as they are). It blocks on
/// DNS: callers run it on a thread of their own, never on the concurrency pool.
package enum HostAddresses {
    /// Each address's bytes in network order: 4 for IPv4, 16 for IPv6; duplicates removed, in the resolver's order.
    package static func resolve(_ host: String) throws(FileSystemError) -> [[UInt8]] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            if status == EAI_SYSTEM { throw FileSystemError("getaddrinfo", host) }
            throw FileSystemError("getaddrinfo", host, code: status, text: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var entry = list
        while let current = entry {
            if let socket = current.pointee.ai_addr {
                var bytes: [UInt8]?
                switch current.pointee.ai_family {
                case AF_INET:
                    bytes = socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                        withUnsafeBytes(of: address.pointee.sin_addr) { Array($0) }
                    }
                case AF_INET6:
                    bytes = socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                        withUnsafeBytes(of: address.pointee.sin6_addr) { Array($0) }
                    }
                default: bytes = nil
                }
                if let bytes, !addresses.contains(bytes) { addresses.append(bytes) }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
