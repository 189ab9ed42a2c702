import Foundation
import Testing
@testable import StudyServer

@Suite("URLPath")
struct URLPathTests {
    /// Whatever the text, the result is Foundation's encoding for a path: the shortcut for plain identifiers changes
    /// nothing.
    @Test(arguments: ["knee-exercises", "pain_check.v2~", "", "two words", "ünïcode", "a/b", "50%", "?x=1#y", "日本語", "tab\there",
                      "\u{202E}rtl", "emoji 👍🏽", "semi;colon", "plus+sign"])
    func encodesAsFoundationDoesForAPath(text: String) {
        #expect(URLPath.encoded(text) == text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed))
    }

    @Test func anIdentifierIsLeftAsItIs() {
        #expect(URLPath.encoded("medication") == "medication")
        #expect(URLPath.encoded("two words") == "two%20words")
    }
}
