/// The storyboard's WebVTT file: one cue per thumbnail whose payload is the sheet's URL with a media fragment
/// (`#xywh=x,y,w,h`, pixels), the form JW Player, Video.js and Vidstack read for scrubbing previews.
extension StoryboardPlan {
    /// The WebVTT text; `image` is the sheet's URL relative to the VTT file (its file name, side by side).
    func webVTT(image: String) -> String {
        var text = "WEBVTT\n"
        for cue in cues {
            text += "\n\(Self.timestamp(cue.startMilliseconds)) --> \(Self.timestamp(cue.endMilliseconds))\n"
            text += "\(image)#xywh=\(cue.x),\(cue.y),\(cue.width),\(cue.height)\n"
        }
        return text
    }

    /// `hh:mm:ss.ttt`, the WebVTT timestamp with hours always written.
    static func timestamp(_ milliseconds: Int) -> String {
        let (seconds, millis) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let thousandths = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)).\(thousandths)"
    }
}
