internal import Crypto
internal import Foundation

/// Signs and checks the URLs of private posts (issue 65): `/media/s/<token>/videos/<id>...`, where the token is an
/// expiry and an HMAC-SHA256 over the post's path prefix (`videos/<id>`), its access epoch and that expiry. The token
/// sits in the path, not the query, so a player resolving a playlist's relative URIs carries it to every segment.
/// The first key signs and every key verifies: a rotation puts a new key first and drops the old one after the
/// longest URL lifetime (24 h). Raising the post's access epoch revokes every URL signed before.
package struct PlaybackSigner: Sendable {
    let keys: [[UInt8]]
    /// How long a URL plays by default, and at most (Cloudflare Stream's defaults: 1 h, and 24 h).
    package static let defaultLifetime: Int64 = 3_600
    package static let maximumLifetime: Int64 = 86_400

    package init(keys: ViewerSessionKeys) { self.keys = keys.keys }

    /// What a check found.
    package enum Verdict: Equatable, Sendable {
        case valid(expires: Int64)
        case expired(at: Int64)
        case invalid
    }

    /// The token for video `id` at `epoch`, good until `expires` (Unix seconds).
    package func token(id: String, epoch: Int64, expires: Int64) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Self.message(id: id, epoch: epoch, expires: expires), using: SymmetricKey(data: keys[0]))
        return "\(expires).\(Base64URL.encode(Array(mac)))"
    }

    /// Checks `token` for video `id` at its current `epoch`, in constant time for the MAC, before any file is read.
    package func verify(_ token: Substring, id: String, epoch: Int64, now: Int64) -> Verdict {
        guard let dot = token.firstIndex(of: "."), let expires = Int64(token[..<dot]), expires > 0,
            let mac = Base64URL.decode(token[token.index(after: dot)...]), mac.count == SHA256.byteCount
        else { return .invalid }
        let message = Self.message(id: id, epoch: epoch, expires: expires)
        // Every key is tried, so the time taken does not say which one matched.
        var matched = false
        for key in keys {
            let valid = HMAC<SHA256>.isValidAuthenticationCode(
                mac, authenticating: message, using: SymmetricKey(data: key))
            matched = matched || valid
        }
        guard matched else { return .invalid }
        // An expiry further ahead than any URL is given is a forgery with a stolen key or a bug: refused.
        guard expires <= now + Self.maximumLifetime + 60 else { return .invalid }
        return expires > now ? .valid(expires: expires) : .expired(at: expires)
    }

    static func message(id: String, epoch: Int64, expires: Int64) -> [UInt8] {
        Array("reel-playback-v1\nvideos/\(id)\n\(epoch)\n\(expires)".utf8)
    }
}
