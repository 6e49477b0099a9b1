internal import Foundation
package import MediaModel

/// A video's loudness (`AudioLoudness`) as every engine stores it: one JSON text column, keys sorted, NULL when the
/// video has no audio or was published before Reel measured it. One encoding for both engines, so `reel db copy`
/// moves it as it is.
package enum LoudnessColumn {
    package static func text(_ loudness: AudioLoudness?) -> String? {
        guard let loudness else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(loudness)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The stored column's value; nil for NULL, and for text that is not an `AudioLoudness` (an edit outside Reel).
    package static func loudness(_ text: String?) -> AudioLoudness? {
        guard let text else { return nil }
        return try? JSONDecoder().decode(AudioLoudness.self, from: Data(text.utf8))
    }
}
