/// Which protections a job asks for (`reel worker --job-sandbox`).
package enum SandboxMode: String, Codable, Sendable, CaseIterable {
    /// Landlock and seccomp; where the kernel has no Landlock, user, mount and network namespaces and seccomp.
    case auto
    /// The namespace jail and seccomp even where Landlock exists (its fallback, chosen: for kernels whose Landlock
    /// misbehaves, and to test the fallback on any kernel).
    case namespaces
    /// Nothing: jobs see the whole file system and the network. For measurements; the worker warns about it.
    case off
}
