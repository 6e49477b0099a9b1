internal import Catalog
internal import Foundation
internal import Synchronization

/// Renews one job's lease while a long step holds the worker's loop (uploading a ladder to a slow or retrying
/// store): the loop's heartbeat cannot run meanwhile, and a lease left to expire would hand the job to another worker
/// and waste this attempt. Called between steps; renews at most every third of the lease.
final class LeaseKeeper: Sendable {
    let store: any JobQueue & Publishing
    let lease: JobLease
    let leaseSeconds: Double
    private let lastRenewal: Mutex<Double>

    init(store: any JobQueue & Publishing, lease: JobLease, leaseSeconds: Double) {
        self.store = store
        self.lease = lease
        self.leaseSeconds = leaseSeconds
        lastRenewal = Mutex(ProcessInfo.processInfo.systemUptime)
    }

    /// - Throws: `CatalogError` `.leaseLost` when another worker holds the job now, or the catalog's error.
    func renewIfDue() async throws {
        let now = ProcessInfo.processInfo.systemUptime
        let due = lastRenewal.withLock { last in
            guard now - last >= leaseSeconds / 3 else { return false }
            last = now
            return true
        }
        guard due else { return }
        let wall = Int64(Date().timeIntervalSince1970 * 1000)
        guard try await store.renewLease(lease, until: wall + Int64(leaseSeconds * 1000), now: wall) else {
            throw CatalogError(.leaseLost, "\(lease) was taken over while its outputs were uploaded")
        }
    }
}
