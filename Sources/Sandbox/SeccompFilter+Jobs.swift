internal import CSandbox

#if canImport(Glibc)
internal import Glibc
#endif

extension SeccompFilter {
    /// What a job process never needs and an exploit would: each call below fails with EPERM instead of running.
    /// A job reports through files in its scratch directory (its outcome, progress and logs) and its exit status,
    /// so it opens no socket of any family, not even AF_UNIX.
    static let deniedForJobs: [(group: String, calls: [String])] = [
        ("network", ["socket", "socketpair"]),
        (
            "other processes",
            [
                "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "kcmp", "pidfd_getfd",
                "pidfd_send_signal", "tkill",
            ]
        ),
        ("programs", ["execve", "execveat"]),
        (
            "mounts and namespaces",
            [
                "mount", "umount2", "pivot_root", "chroot", "mount_setattr", "move_mount", "open_tree", "fsopen",
                "fsconfig", "fsmount", "fspick", "unshare", "setns",
            ]
        ),
        (
            "kernel interfaces an upload never needs",
            [
                "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
                "keyctl", "add_key", "request_key", "open_by_handle_at", "name_to_handle_at", "lookup_dcookie",
            ]
        ),
        (
            "the machine's administration",
            [
                "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load", "reboot", "swapon",
                "swapoff", "acct", "quotactl", "quotactl_fd", "iopl", "ioperm", "syslog", "settimeofday",
                "clock_settime", "clock_adjtime", "adjtimex", "sethostname", "setdomainname", "vhangup",
            ]
        ),
    ]

    /// Signals go to the job process itself (its threads: glibc's raise and pthread_kill are tgkill(getpid(), tid))
    /// and nowhere else: not the worker, the job server or another job, which run as the same user. Landlock's
    /// signal scope (ABI 6) says the same where the kernel has it; this holds on every kernel.
    static let signalsToSelfOnly = ["kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"]

    /// The filter every job process loads: `deniedForJobs`, signals to `process` only, clone(2) with any namespace
    /// flag refused (threads are clone(2) calls too, so clone itself stays) and clone3(2) answered ENOSYS, which makes
    /// glibc fall back to clone(2), whose flags a filter can see.
    /// - Throws: `SandboxError` from libseccomp.
    package static func forJobs(process: Int32) throws(SandboxError) -> SeccompFilter {
        let filter = try SeccompFilter()
        for (_, calls) in deniedForJobs {
            for call in calls { try filter.deny(call, errno: EPERM) }
        }
        // pid_t reaches the kernel sign-extended to 64 bits (glibc casts each argument to long).
        for call in signalsToSelfOnly {
            try filter.deny(call, errno: EPERM, unlessArgument: 0, is: UInt64(bitPattern: Int64(process)))
        }
        let namespaces = [
            CSandbox_CLONE_NEWUSER, CSandbox_CLONE_NEWNS, CSandbox_CLONE_NEWNET, CSandbox_CLONE_NEWIPC,
            CSandbox_CLONE_NEWUTS, CSandbox_CLONE_NEWPID, CSandbox_CLONE_NEWCGROUP,
        ].map { UInt64(UInt32(bitPattern: $0)) }
        try filter.deny("clone", errno: EPERM, whenArgument: 0, hasAnyOf: namespaces)
        try filter.deny("clone3", errno: ENOSYS)
        return filter
    }
}
