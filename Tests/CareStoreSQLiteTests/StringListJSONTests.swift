import Foundation
import Testing
@testable import CareStoreSQLite

@Suite("StringListJSON")
struct StringListJSONTests {
    /// The hand-split fast path reads what the encoder writes exactly as the decoder does, and leaves every text it
    /// is not sure of (escapes, spaces, anything malformed) to the decoder.
    @Test func decodesLikeTheDecoder() throws {
        let lists: [[String]] = [[], [""], ["recover"], ["a", "b", "c"], ["knee", "膝", "rodilla 🦵"], ["a,b", "[x]"],
                                 ["quote \" inside"], ["back\\slash"], ["slash/ed"], ["tab\there"], ["line\nbreak"]]
        for list in lists {
            let text = try StringListJSON.encode(list)
            #expect(StringListJSON.decode(text) == list, "\(text)")
        }
        let texts = ["[]", "[ ]", "[\"a\" ]", "[\"a\",]", "[\"a\"", "\"a\"]", "[\"a\"\"b\"]", "[\"a\",\"b\"]", "[1]", "[\"a\",1]",
                     "[\"\\u0041\"]", "[\"é\"]", "[\"\"]", "", "[", "]", "[\"]", "[\"a\\\"]", "{\"a\":1}", "[\"a\",\"\"]"]
        for text in texts {
            let decoder = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
            #expect(StringListJSON.decode(text) == decoder, "\(text)")
            if let plain = StringListJSON.plainList(text) { #expect(plain == decoder, "\(text)") }
        }
    }
}
