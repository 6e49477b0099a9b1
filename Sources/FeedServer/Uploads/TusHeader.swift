public import HTTPTypes

/// The tus 1.0.0 header names, and Reel's own `Reel-Job`.
public enum TusHeader {
    public static let resumable = HTTPField.Name("Tus-Resumable")!
    public static let version = HTTPField.Name("Tus-Version")!
    public static let extensions = HTTPField.Name("Tus-Extension")!
    public static let maxSize = HTTPField.Name("Tus-Max-Size")!
    public static let checksumAlgorithm = HTTPField.Name("Tus-Checksum-Algorithm")!
    public static let offset = HTTPField.Name("Upload-Offset")!
    public static let length = HTTPField.Name("Upload-Length")!
    public static let deferLength = HTTPField.Name("Upload-Defer-Length")!
    public static let metadata = HTTPField.Name("Upload-Metadata")!
    public static let expires = HTTPField.Name("Upload-Expires")!
    public static let checksum = HTTPField.Name("Upload-Checksum")!
    public static let reelJob = HTTPField.Name("Reel-Job")!

    public static let protocolVersion = "1.0.0"
    public static let supportedExtensions = "creation,creation-with-upload,termination,expiration,checksum"
    public static let offsetContentType = "application/offset+octet-stream"
}
