internal import Foundation
package import SigV4

extension S3Client {
    /// A URL that lets whoever holds it GET `key` until it expires, without credentials: for redirecting a viewer to
    /// the store while the bucket stays private.
    /// - Throws: `SigV4Error` when `expires` is outside 1 s...7 days.
    package func presignedURL(_ key: ObjectKey, expires: Duration) throws(SigV4Error) -> String {
        let host = location.endpoint.authority(prefixedWith: location.pathStyle ? nil : location.bucket)
        let path = (location.pathStyle ? "/" + location.bucket : "") + "/" + fullKey(key)
        let request = SigV4Request(method: "GET", path: path, headers: [("host", host)])
        let query = try signer.presignedQuery(
            for: request, expires: Int(expires.components.seconds), date: AmzDate(unixSeconds: now()))
        return location.endpoint.scheme + "://" + host + request.encodedPath + "?" + query
    }
}
