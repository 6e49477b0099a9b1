/// A decoded still picture as tightly packed 8-bit RGBA, in stored orientation.
public struct DecodedPicture: Sendable {
    public var width: Int
    public var height: Int
    public var rgba: [UInt8]
    /// True when the source format carries an alpha channel (it may still be fully opaque).
    public var hasAlphaChannel: Bool
    public var iccProfile: [UInt8]?

    public init(width: Int, height: Int, rgba: [UInt8], hasAlphaChannel: Bool, iccProfile: [UInt8]?) {
        self.width = width
        self.height = height
        self.rgba = rgba
        self.hasAlphaChannel = hasAlphaChannel
        self.iccProfile = iccProfile
    }
}
