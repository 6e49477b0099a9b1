import Testing

@testable import Catalog

/// `PostFacts.validated`, the one door for a post's caption, title and creator: every rule at and past its limit.
@Suite(.timeLimit(.minutes(5))) struct PostFactsTests {
    typealias Reason = PostFacts.Invalid.Reason

    static func refusal(_ field: PostFacts.Field, _ bytes: [UInt8]) -> PostFacts.Invalid? {
        do {
            _ = try PostFacts.validated(
                caption: field == .caption ? bytes : nil, title: field == .title ? bytes : nil,
                creator: field == .creator ? bytes : nil)
            return nil
        } catch { return error }
    }

    @Test(arguments: PostFacts.Field.text)
    func eachFieldTakesItsLimitAndRefusesOneMore(field: PostFacts.Field) {
        let limit = field.maximumCharacters
        #expect(Self.refusal(field, Array(String(repeating: "ß", count: limit).utf8)) == nil)
        #expect(
            Self.refusal(field, Array(String(repeating: "ß", count: limit + 1).utf8))
                == PostFacts.Invalid(field: field, reason: .tooManyCharacters(limit + 1)))
        // Characters, not scalars: a family emoji of five scalars is one.
        #expect(Self.refusal(field, Array(String(repeating: "👩‍👩‍👧", count: limit / 2).utf8)) == nil)
        let heavy = Array(String(repeating: "a" + String(repeating: "\u{301}", count: 8), count: limit).utf8)
        #expect(
            Self.refusal(field, heavy) == PostFacts.Invalid(field: field, reason: .tooManyBytes(heavy.count)),
            "combining marks cannot make a field as large as they like")
    }

    @Test(arguments: PostFacts.Field.text)
    func everyControlCharacterIsRefusedButACaptionsLineFeed(field: PostFacts.Field) {
        let controls = Array(0x00...0x1F) + Array(0x7F...0x9F) + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in controls {
            let scalar = Unicode.Scalar(UInt32(value))!
            let refusal = Self.refusal(field, Array("a\(Character(scalar))b".utf8))
            if field == .caption, value == 0x0A {
                #expect(refusal == nil)
            } else {
                #expect(refusal == PostFacts.Invalid(field: field, reason: .controlCharacter(UInt32(value))))
            }
        }
        for allowed in ["\u{A0}", "\u{200D}", "\u{2028}", "مرحبا", "<b>&amp;</b>", "\"'\\"] {
            #expect(Self.refusal(field, Array("a\(allowed)b".utf8)) == nil, "\(allowed.unicodeScalars.first!.value)")
        }
    }

    @Test(arguments: PostFacts.Field.text)
    func bytesThatAreNotUTF8AreRefused(field: PostFacts.Field) {
        for bytes: [UInt8] in [
            [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x61, 0xF8, 0x88, 0x80, 0x80, 0x80],
        ] {
            #expect(Self.refusal(field, bytes) == PostFacts.Invalid(field: field, reason: .notUTF8))
        }
    }

    @Test func anEmptyCaptionIsNoneAndAnEmptyTitleOrCreatorIsRefused() throws {
        #expect(try PostFacts.validated(caption: [], title: nil, creator: nil) == PostFacts())
        #expect(Self.refusal(.title, []) == PostFacts.Invalid(field: .title, reason: .empty))
        #expect(Self.refusal(.creator, []) == PostFacts.Invalid(field: .creator, reason: .empty))
    }

    @Test func theDefaultCreatorStandsInOnlyForOneNotGiven() throws {
        #expect(try PostFacts.validated(caption: nil, title: nil, creator: nil, defaultCreator: "app").creator == "app")
        #expect(
            try PostFacts.validated(caption: nil, title: nil, creator: Array("bob".utf8), defaultCreator: "app")
                .creator == "bob")
    }

    @Test func theMessageNamesTheFieldAndTheLimit() {
        #expect(
            PostFacts.Invalid(field: .caption, reason: .tooManyCharacters(2_201)).description
                == "caption has 2201 characters; at most 2200 are allowed")
        #expect(
            PostFacts.Invalid(field: .caption, reason: .controlCharacter(7)).description
                == "caption holds the control character U+0007; only a line feed (U+000A) is allowed")
        #expect(
            PostFacts.Invalid(field: .title, reason: .controlCharacter(0x202E)).description
                == "title holds the control character U+202E")
    }

    @Test func theColumnReadsBackAndIsNullWhenEmpty() {
        let facts = PostFacts(caption: "a\n\"b\"", title: "t", creator: nil)
        #expect(PostFacts(column: facts.column) == facts)
        #expect(PostFacts().column == nil)
        #expect(PostFacts(column: nil) == PostFacts())
        #expect(PostFacts(column: "not json") == PostFacts(), "an edit outside Reel reads as none")
    }
}
