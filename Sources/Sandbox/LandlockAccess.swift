/// Landlock's access rights (`<linux/landlock.h>`), by the ABI version that introduced each: the values are the
/// kernel's, fixed by its ABI.
package struct LandlockAccess: OptionSet, Sendable, Hashable {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }

    package static let execute = Self(rawValue: 1 << 0)
    package static let writeFile = Self(rawValue: 1 << 1)
    package static let readFile = Self(rawValue: 1 << 2)
    package static let readDirectory = Self(rawValue: 1 << 3)
    package static let removeDirectory = Self(rawValue: 1 << 4)
    package static let removeFile = Self(rawValue: 1 << 5)
    package static let makeCharacterDevice = Self(rawValue: 1 << 6)
    package static let makeDirectory = Self(rawValue: 1 << 7)
    package static let makeRegularFile = Self(rawValue: 1 << 8)
    package static let makeSocket = Self(rawValue: 1 << 9)
    package static let makeFIFO = Self(rawValue: 1 << 10)
    package static let makeBlockDevice = Self(rawValue: 1 << 11)
    package static let makeSymlink = Self(rawValue: 1 << 12)
    /// ABI 2: link or rename into another directory.
    package static let refer = Self(rawValue: 1 << 13)
    /// ABI 3: truncate(2), ftruncate(2), open with O_TRUNC.
    package static let truncate = Self(rawValue: 1 << 14)
    /// ABI 5: ioctl(2) on a character or block device.
    package static let ioctlDevice = Self(rawValue: 1 << 15)

    /// The rights that may be granted on a file that is not a directory.
    package static let fileRights: Self = [.execute, .writeFile, .readFile, .truncate, .ioctlDevice]

    /// Read a file, or a tree's files and listings.
    package static let read: Self = [.readFile, .readDirectory]
    /// Read and write a device such as /dev/null (O_TRUNC included, as shells and stdio open it).
    package static let device: Self = [.readFile, .writeFile, .truncate]
    /// A scratch tree: read, write, create and remove files and directories, rename within it. No devices, FIFOs,
    /// sockets, symlinks, and nothing executed.
    package static let scratch: Self = [
        .readFile, .readDirectory, .writeFile, .truncate, .removeDirectory, .removeFile, .makeDirectory,
        .makeRegularFile, .refer,
    ]

    /// Every file-system right the kernel's Landlock ABI `abi` knows: a ruleset handles all of them, so whatever no
    /// rule grants is denied.
    package static func handled(byABI abi: Int) -> Self {
        var rights = Self(rawValue: (1 << 13) - 1)
        if abi >= 2 { rights.insert(.refer) }
        if abi >= 3 { rights.insert(.truncate) }
        if abi >= 5 { rights.insert(.ioctlDevice) }
        return rights
    }
}

/// Landlock's network rights (ABI 4) and scopes (ABI 6).
package enum LandlockLimits {
    /// bind(2) and connect(2) on TCP ports.
    package static let tcpBindAndConnect: UInt64 = (1 << 0) | (1 << 1)
    /// Abstract UNIX sockets and signals to processes outside the domain.
    package static let abstractSocketsAndSignals: UInt64 = (1 << 0) | (1 << 1)
}
