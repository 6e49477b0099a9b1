/// Who may see a post (issue 65): `public` is in the feeds; `unlisted` plays for whoever has its link but is in no
/// feed; `private` is in no feed and plays only through signed URLs, which its uploader or an admin gets.
package enum Visibility: String, Sendable, Codable, CaseIterable {
    case `public`, unlisted, `private`

    /// Whether the feeds list it.
    package var isListed: Bool { self == .public }
}
