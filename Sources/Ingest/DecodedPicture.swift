/// A decoded still picture as tightly packed 8-bit RGBA, in stored orientation.
package struct DecodedPicture: Sendable {
    package var width: Int
    package var height: Int
    package var rgba: [UInt8]
    /// True when the source format carries an alpha channel (it may still be fully opaque).
    package var hasAlphaChannel: Bool
    package var iccProfile: [UInt8]?

    package init(width: Int, height: Int, rgba: [UInt8], hasAlphaChannel: Bool, iccProfile: [UInt8]?) {
        self.width = width
        self.height = height
        self.rgba = rgba
        self.hasAlphaChannel = hasAlphaChannel
        self.iccProfile = iccProfile
    }
}
