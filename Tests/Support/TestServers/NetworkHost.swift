/// One simulated machine of a `NetworkHosts` set: a network namespace whose veth is a port of the root namespace's
/// bridge. Its processes share this machine's file system (only the network is separate).
package struct NetworkHost: Sendable, Hashable, CustomStringConvertible {
    /// Its position in `NetworkHosts.hosts`, from 0.
    package let index: Int
    /// The `ip netns` name, as `ip netns exec` takes it.
    package let namespace: String
    /// Its IPv4 address on the shared /24: servers inside the host bind it, and the root namespace reaches them there.
    package let address: String
    /// The veth end inside the namespace.
    package let interface: String
    /// The veth end in the root namespace (the bridge port); `cutLink` sets it down.
    package let rootInterface: String

    package var description: String { "host \(index) (\(namespace), \(address))" }
}
