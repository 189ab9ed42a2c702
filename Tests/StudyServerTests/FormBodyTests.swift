import Foundation
import Testing
@testable import StudyServer

@Suite struct FormBodyTests {
    @Test func readsRepeatedFieldsPlusAndPercentEncoding() throws {
        let fields = try FormBody.fields("a=1&b=x+y&a=2&c=%E6%97%A5%26&empty=&flag")
        #expect(fields["a"] == ["1", "2"])
        #expect(fields["b"] == ["x y"])
        #expect(fields["c"] == ["日&"])
        #expect(fields["empty"] == [""])
        #expect(fields["flag"] == [""])
    }

    @Test func refusesBrokenEncodingNamingTheField() {
        #expect(throws: StudyServerError.badRequest("the value of the form field 'name' is not valid URL encoding")) {
            try FormBody.fields("name=%ZZ")
        }
        #expect(throws: StudyServerError.self) { try FormBody.fields("bad%FF=1") }
    }

    /// The decoding of one name or value agrees with Foundation's (`+` replaced, then `removingPercentEncoding`).
    @Test func decodesAsFoundationDoes() {
        let texts = ["", "plain", "a+b", "%41%42", "%e6%97%a5", "%E6%97%A5+%26+%2B", "%", "%4", "%4G", "%G4", "%%41", "100%25",
                     "%FF", "%C3", "%C3%A9", "%ED%A0%80", "%00", "caf%C3%A9+au+lait", "日本", "+++", "%2", "a%20b%20", "%F0%9F%A6%B5"]
        for text in texts {
            #expect(FormBody.decode(Substring(text)) == text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding, "\(text)")
        }
    }
}
