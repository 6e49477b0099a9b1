package import HTTPTypes

/// The tus 1.0.0 header names, and Reel's own `Reel-Job`.
package enum TusHeader {
    package static let resumable = HTTPField.Name("Tus-Resumable")!
    package static let version = HTTPField.Name("Tus-Version")!
    package static let extensions = HTTPField.Name("Tus-Extension")!
    package static let maxSize = HTTPField.Name("Tus-Max-Size")!
    package static let checksumAlgorithm = HTTPField.Name("Tus-Checksum-Algorithm")!
    package static let offset = HTTPField.Name("Upload-Offset")!
    package static let length = HTTPField.Name("Upload-Length")!
    package static let deferLength = HTTPField.Name("Upload-Defer-Length")!
    package static let metadata = HTTPField.Name("Upload-Metadata")!
    package static let expires = HTTPField.Name("Upload-Expires")!
    package static let checksum = HTTPField.Name("Upload-Checksum")!
    package static let reelJob = HTTPField.Name("Reel-Job")!

    package static let protocolVersion = "1.0.0"
    package static let supportedExtensions = "creation,creation-with-upload,termination,expiration,checksum"
    package static let offsetContentType = "application/offset+octet-stream"
}
