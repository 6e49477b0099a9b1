extension Double {
    /// A decimal as a playlist writes it. `Double(_:)` hands its text to strtod as a C string, so `"4\u{0}junk"`
    /// read as 4 (docs/quirks.md): only printable ASCII is a number's text here.
    init?(playlistText text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }), let value = Double(text) else {
            return nil
        }
        self = value
    }
}
