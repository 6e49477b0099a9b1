internal import Foundation

/// Who posted a video, what they said about it, and who may see it: the caption, an optional title, the creator and
/// the visibility. The client gives them with the upload (tus `Upload-Metadata`, or a sidecar JSON beside a file in
/// the inbox); they travel with the job and are stored on the video. Only `validated` makes one from outside input,
/// so a stored value always holds.
package struct PostFacts: Sendable, Equatable, Codable {
    /// Empty when the upload had none.
    package var caption: String
    package var title: String?
    /// The token's name unless the upload named another; nil for an inbox file without one.
    package var creator: String?
    /// `public` unless the upload said otherwise; `PATCH /v1/videos/{id}` changes it.
    package var visibility: Visibility

    package init(
        caption: String = "", title: String? = nil, creator: String? = nil, visibility: Visibility = .public
    ) {
        self.caption = caption
        self.title = title
        self.creator = creator
        self.visibility = visibility
    }

    /// Facts stored before visibility (issue 65's first part) have no key for it: they are public.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        caption = try container.decode(String.self, forKey: .caption)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        creator = try container.decodeIfPresent(String.self, forKey: .creator)
        visibility = try container.decodeIfPresent(Visibility.self, forKey: .visibility) ?? .public
    }

    package var isEmpty: Bool { caption.isEmpty && title == nil && creator == nil && visibility == .public }

    /// One field an upload may give, and its limits: characters as a reader counts them (grapheme clusters, as TikTok
    /// counts its 2,200), and bytes, since one character may hold any number of combining marks: 16 per character
    /// leaves room for any emoji sequence in common use (a family of four is 25).
    package enum Field: String, Sendable, CaseIterable {
        case caption, title, creator, visibility

        package var maximumCharacters: Int {
            switch self {
            case .caption: 2200
            case .title: 100
            case .creator: 64
            case .visibility: 8
            }
        }

        package var maximumBytes: Int { maximumCharacters * 16 }

        /// The fields of free text (visibility is a name from a list).
        package static let text: [Field] = [.caption, .title, .creator]

        /// A caption may run over several lines; nothing else may hold a line break.
        var allowsLineBreaks: Bool { self == .caption }
    }

    /// Why a field was refused, naming it and the limit it broke.
    package struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        package enum Reason: Equatable, Sendable {
            case notUTF8
            case controlCharacter(UInt32)
            case tooManyCharacters(Int)
            case tooManyBytes(Int)
            case empty
            case notOneOf([String])
        }

        package let field: Field
        package let reason: Reason

        package var description: String {
            switch reason {
            case .notUTF8: "\(field.rawValue) is not valid UTF-8"
            case let .controlCharacter(scalar):
                "\(field.rawValue) holds the control character U+\(Self.hex(scalar))"
                    + (field.allowsLineBreaks ? "; only a line feed (U+000A) is allowed" : "")
            case let .tooManyCharacters(count):
                "\(field.rawValue) has \(count) characters; at most \(field.maximumCharacters) are allowed"
            case let .tooManyBytes(count):
                "\(field.rawValue) takes \(count) bytes of UTF-8; at most \(field.maximumBytes) are allowed"
            case .empty: "\(field.rawValue) is empty; leave it out instead"
            case let .notOneOf(names): "\(field.rawValue) must be one of \(names.joined(separator: ", "))"
            }
        }

        private static func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }

    /// The facts from raw field values (nil: not given); `defaultCreator` stands in for a creator not given.
    /// - Throws: `Invalid` for the first field, in `Field` order, that is not valid UTF-8, holds a control character,
    ///   is over its limits, or (title and creator) is empty; a visibility other than `public`, `unlisted` or
    ///   `private`.
    package static func validated(
        caption: [UInt8]?, title: [UInt8]?, creator: [UInt8]?, visibility: [UInt8]? = nil,
        defaultCreator: String? = nil
    ) throws(Invalid) -> PostFacts {
        PostFacts(
            caption: try text(caption, .caption) ?? "",
            title: try text(title, .title),
            creator: try text(creator, .creator) ?? defaultCreator,
            visibility: try Self.visibility(visibility))
    }

    /// A visibility's name; nil (not given) is `public`.
    package static func visibility(_ bytes: [UInt8]?) throws(Invalid) -> Visibility {
        guard let bytes else { return .public }
        guard let name = String(validating: bytes, as: UTF8.self), let visibility = Visibility(rawValue: name) else {
            throw Invalid(field: .visibility, reason: .notOneOf(Visibility.allCases.map(\.rawValue)))
        }
        return visibility
    }

    /// One field's text, checked; nil when it was not given (an empty caption is the same as none).
    static func text(_ bytes: [UInt8]?, _ field: Field) throws(Invalid) -> String? {
        guard let bytes else { return nil }
        if bytes.isEmpty {
            if field == .caption { return nil }
            throw Invalid(field: field, reason: .empty)
        }
        if bytes.count > field.maximumBytes { throw Invalid(field: field, reason: .tooManyBytes(bytes.count)) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Invalid(field: field, reason: .notUTF8) }
        for scalar in text.unicodeScalars where isControl(scalar) {
            if field.allowsLineBreaks, scalar == "\n" { continue }
            throw Invalid(field: field, reason: .controlCharacter(scalar.value))
        }
        let characters = text.count
        if characters > field.maximumCharacters {
            throw Invalid(field: field, reason: .tooManyCharacters(characters))
        }
        return text
    }

    /// C0 and C1 controls and DEL (Unicode's general category Cc), and the bidirectional overrides and isolates,
    /// which can make a caption display as something other than what it holds.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension PostFacts {
    /// The facts as an upload's and a job's `post` column on every engine: JSON with sorted keys, NULL when empty.
    /// One encoding for both engines, so `reel db copy` moves it as it is.
    package var column: String? {
        guard !isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The stored column's value: empty for NULL, and for text that is not facts (an edit outside Reel).
    package init(column text: String?) {
        guard let text, let facts = try? JSONDecoder().decode(PostFacts.self, from: Data(text.utf8)) else {
            self.init()
            return
        }
        self = facts
    }
}
