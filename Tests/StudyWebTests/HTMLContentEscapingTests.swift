import Foundation
import Mustache
import Testing
@testable import StudyWeb

@Suite("HTML escaping of template variables")
struct HTMLContentEscapingTests {
    /// The pages' escaping gives what swift-mustache's own HTML escaping gives, character for character.
    @Test func escapesLikeSwiftMustache() throws {
        let template = try MustacheTemplate(string: "{{x}}")
        let texts = ["", "plain", "<script>alert(1)</script>", "\"><script>alert(2)</script>", "Tom & Jerry's", "a<b>c&d\"e'f",
                     "&amp; already", "日本語 <b>太字</b>", "emoji 🦵 & flags 🇯🇵", "tab\tnew\nline", "<<<>>>&&&\"\"\"'''", "é ñ ü"]
        for text in texts {
            #expect(HTMLContentEscaping.escape(text) == template.render(["x": text]), "\(text)")
        }
    }

    /// A quote followed by a combining mark is one `Character`; it is escaped all the same, so that it cannot end an
    /// attribute value (swift-mustache's own escaping, which looks whole characters up, leaves it raw).
    @Test func aQuoteBeforeACombiningMarkIsEscaped() throws {
        let text = "\"\u{0301} onmouseover=alert(1) x=\"\u{0301}"
        let escaped = HTMLContentEscaping.escape(text)
        #expect(!escaped.contains("\""))
        #expect(escaped == "&quot;\u{0301} onmouseover=alert(1) x=&quot;\u{0301}")
        let context = SiteFixtures.context()
        let card = TaskCard(title: text, instructions: nil, timeText: "now", state: .toDo, body: .start(url: text, resumes: false))
        let html = try SiteFixtures.renderer().home(HomePage(dayTitle: "Today", onboardingRequired: false, cards: [card]), context: context)
        #expect(html.contains("href=\"&quot;\u{0301} onmouseover=alert(1) x=&quot;\u{0301}\""))
    }

    /// Every template selects the escaping with its first line: a partial starts with the library's default, so one
    /// without the pragma would escape with the slower escaping.
    @Test func everyTemplateSelectsIt() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/StudyWeb/Resources/templates")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mustache") }
        #expect(files.count >= 10)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(text.hasPrefix("{{% CONTENT_TYPE: \(HTMLContentEscaping.name)}}\n"), "\(file)")
        }
    }
}
