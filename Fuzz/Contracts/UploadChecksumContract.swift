internal import FeedServer
internal import FileSystem
internal import Foundation

/// tus `Upload-Checksum`: a header that parses names sha1 or sha256 and a digest of its length, and writing it
/// again parses to the same.
enum UploadChecksumContract {
    static let target = FuzzTarget(
        name: "upload-checksum", contract: "a parsed digest has its algorithm's length and re-serialises to itself"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let header = String(decoding: bytes, as: UTF8.self)
        guard let checksum = try? UploadChecksum(header: header) else { return }
        try expect(
            checksum.digest.count == (checksum.algorithm == .sha1 ? 20 : 32),
            "\(header.debugDescription) gave a \(checksum.digest.count)-byte \(checksum.algorithm) digest")
        let written = checksum.algorithm.rawValue + " " + Data(checksum.digest).base64EncodedString()
        let again = try? UploadChecksum(header: written)
        try expect(
            again == checksum, "\(written.debugDescription) did not parse to what \(header.debugDescription) did")
    }
}
