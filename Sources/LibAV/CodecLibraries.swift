internal import CLazyLoader

/// libavformat, libavcodec, libswresample and libheif are opened on first use (`CLazyLoader`), so a process that
/// never decodes a video or a HEIF never maps them.
package enum CodecLibraries {
    /// Opens them all now: for a process that forks workers, which then inherit them instead of opening them each.
    package static func preload() { CLazyLoader_preload() }
}
