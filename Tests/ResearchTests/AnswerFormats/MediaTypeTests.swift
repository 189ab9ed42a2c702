import Testing
@testable import Research

/// RFC 2045's media types: type/subtype of token characters with optional parameters, and nothing else.
@Suite("Media types")
struct MediaTypeTests {
    @Test func aMediaTypeIsReadWithItsParametersAndWrittenBackLowercased() throws {
        let type = try MediaType(parsing: #" Text/Plain ; Charset=UTF-8;format="flowed; \"q\"" ;"#)
        #expect(type.type == "text" && type.subtype == "plain" && type.essence == "text/plain")
        #expect(type.parameters.map(\.attribute) == ["charset", "format"])
        #expect(type.parameters.map(\.value) == ["UTF-8", #""flowed; \"q\"""#])
        #expect(type.description == #"text/plain; charset=UTF-8; format="flowed; \"q\"""#)
        #expect(try MediaType(parsing: "application/vnd.openxmlformats-officedocument.wordprocessingml.document").subtype
                == "vnd.openxmlformats-officedocument.wordprocessingml.document")
    }

    @Test(arguments: [
        ("", "is empty"),
        ("image", "has no / and subtype"),
        ("image/", "ends where its subtype should be"),
        ("/png", "has '/' where its type should be, at byte 1"),
        ("=HYPERLINK(\"x\")/png", "has '=' where its type should be, at byte 1"),
        ("image/png x", "has 'x' at byte 11, where a ; and a parameter should be"),
        ("image/png; q", "has a parameter 'q' without =value"),
        ("image/png; q=\"open", "has a quoted value that is not closed"),
        ("image/png\r\nX: 1", "has the control character U+000D at byte 10"),
        ("image/pn\u{202E}g", "a character that is not US-ASCII"),
        ("image/png; q=a@b", "has '@' at byte 15"),
    ])
    func anythingElseIsRefusedSayingWhatAndWhere(text: String, reason: String) {
        #expect(throws: MediaTypeError.self) { try MediaType(parsing: text) }
        do {
            _ = try MediaType(parsing: text)
        } catch {
            #expect(error.reason.contains(reason), "\(text): \(error.reason)")
            #expect(error.description.hasPrefix("not a media type: it "))
        }
    }

    @Test func aMediaTypeLongerThanAnyRealOneIsRefused() {
        #expect(throws: MediaTypeError("is 256 bytes long; a media type has at most 255")) {
            try MediaType(parsing: "application/" + String(repeating: "x", count: 244))
        }
    }
}
