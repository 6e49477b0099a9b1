internal import FeedServer
internal import Foundation

/// tus `Upload-Metadata`: a header that parses, written again as key-value pairs, parses to the same pairs; the
/// filename it yields is never a path.
enum UploadMetadataContract {
    static let target = FuzzTarget(
        name: "upload-metadata", contract: "parsed pairs re-serialise to the same pairs; a filename has no slash"
    ) { (bytes: [UInt8]) throws(ContractBroken) in
        let header = String(decoding: bytes, as: UTF8.self)
        guard let metadata = try? UploadMetadata(header: header) else { return }
        let written = metadata.pairs.keys.sorted().map { key in
            let value = metadata.pairs[key] ?? []
            return value.isEmpty ? key : key + " " + Data(value).base64EncodedString()
        }
        .joined(separator: ",")
        let again = try? UploadMetadata(header: written)
        try expect(
            again == metadata, "\(header.debugDescription) parsed, but \(written.debugDescription) did not alike")
        if let name = metadata.filename {
            try expect(
                !name.contains(UInt8(ascii: "/")) && !name.isEmpty && name.count <= 255
                    && name != Array("..".utf8) && name != Array(".".utf8),
                "the filename \(name) from \(header.debugDescription) is a path")
        }
    }
}
