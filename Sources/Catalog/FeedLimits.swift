/// The feed's page size bound, the same on every engine.
package enum FeedLimits {
    package static let maximumPageSize = 50
}
