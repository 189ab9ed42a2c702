import Foundation
import Research
import Testing
@testable import Consent

@Suite struct ConsentReviewRendererTests {
    static let attack = "<script>alert('x')</script>"

    func renderer(language: String? = nil, locale: String = "en_US", timeZone: TimeZone = ConsentFixtures.tokyo) -> ConsentReviewRenderer {
        ConsentReviewRenderer(context: ConsentFixtures.context(language: language, locale: locale, timeZone: timeZone))
    }

    @Test func pageIsACompletePrintableDocument() throws {
        let page = renderer(language: "ja").page(for: try ConsentFixtures.recover())
        #expect(page.hasPrefix("<!doctype html>\n<html lang=\"ja\">"))
        #expect(page.contains("<meta charset=\"utf-8\">"))
        #expect(page.contains("@page { size: A4;"))
        #expect(page.contains("\"Noto Sans CJK JP\""))
        #expect(page.contains("<title>Recover: knee rehabilitation study</title>"))
        #expect(page.hasSuffix("</html>\n"))
        #expect(ConsentReviewRenderer.fontStack(language: "zh-Hans-CN").hasPrefix("\"Noto Sans CJK SC\""))
        #expect(ConsentReviewRenderer.fontStack(language: "ko").hasPrefix("\"Noto Sans CJK KR\""))
    }

    @Test func sectionsUseFormalTitleThenTitleThenLocalizedDefault() throws {
        let document = try ConsentFixtures.recover()
        let english = renderer().documentBody(for: document)
        #expect(english.contains("<h1>Recover: knee rehabilitation study</h1>"))
        #expect(english.contains("<h2>Welcome</h2>"))
        #expect(english.contains("<h2>Risks and discomforts</h2>"))
        #expect(!english.contains("<h2>Risks</h2>"))
        #expect(english.contains("<h2>Contact</h2>"), "an onlyInDocument section is in the document")
        #expect(english.contains("<h2>Time Commitment</h2>\n<p>About ten minutes a day.</p>"), "a section without content shows its summary")
        let japanese = renderer(language: "ja").documentBody(for: document)
        #expect(japanese.contains("<h2>ようこそ</h2>"))
        #expect(japanese.contains("<h2>プライバシー</h2>"))
        #expect(!english.contains("signature-page"), "the body has no signature page")
    }

    @Test func plainTextBecomesEscapedParagraphs() throws {
        let body = renderer().documentBody(for: try ConsentFixtures.recover())
        #expect(body.contains("<p>This study follows your recovery for twelve weeks.</p>\n<p>You can stop at any time.</p>"))
        #expect(HTMLEscaping.paragraphs(fromPlainText: "a\nb\n\n\nc & d") == "<p>a<br>\nb</p>\n<p>c &amp; d</p>")
    }

    @Test func htmlContentIsTheStudysOwn() throws {
        let body = renderer().documentBody(for: try ConsentFixtures.recover())
        #expect(body.contains("<p>Your name is stored <strong>apart</strong> from your answers.</p>"))
    }

    @Test func markdownIsRendered() throws {
        let body = renderer().documentBody(for: try ConsentFixtures.recover())
        #expect(body.contains("<h4>What we collect</h4>"), "## inside a section sits two levels below the section's own <h2>")
        #expect(body.contains("<ul><li>Knee range of motion</li><li><em>Daily</em> pain ratings</li><li>Steps from your phone</li></ul>"), "\(body)")
        let html = SafeMarkdown.html(from: "# Title\n\nSome **bold** and *soft* words, [a link](https://example.org/a?b=1&c=2).\n\n1. one\n2. two")
        #expect(html.contains("<h1>Title</h1>"))
        #expect(html.contains("<strong>bold</strong>"))
        #expect(html.contains("<em>soft</em>"))
        #expect(html.contains("<a href=\"https://example.org/a?b=1&c=2\">a link</a>"))
        #expect(html.contains("<ol><li>one</li><li>two</li></ol>"))
        #expect(SafeMarkdown.html(from: "# A\n\n##### B", headingOffset: 2) == "<h3>A</h3><h6>B</h6>")
    }

    @Test func rawHTMLInMarkdownIsInert() {
        let html = SafeMarkdown.html(from: "Hello \(Self.attack)\n\n\(Self.attack)\n\n<img src=x onerror=alert(1)>\n\n`<b>code</b>`")
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;script&gt;") || html.contains("&lt;script>"))
        #expect(html.contains("<code>&lt;b&gt;code&lt;/b&gt;</code>"), "code shows the characters as written: \(html)")
    }

    @Test func unsafeLinksLoseTheirAddress() {
        let html = SafeMarkdown.html(from: "[click](javascript:alert(1)) [x](JaVaScRiPt&#58;alert(1)) [y](\"onmouseover=\"alert(1)) ![i](javascript:x) [ok](/help) [mail](mailto:team@example.org)")
        #expect(!html.lowercased().contains("javascript"), "\(html)")
        #expect(!html.contains("\"onmouseover"), "\(html)")
        #expect(html.contains("click"))
        #expect(html.contains("<a href=\"/help\">ok</a>"))
        #expect(html.contains("<a href=\"mailto:team@example.org\">mail</a>"))
    }

    @Test func scriptInTextTitlesAndNamesComesOutInert() throws {
        var document = try ConsentFixtures.recover()
        document.title = Self.attack
        document.sections[0].content = .plainText("Before \(Self.attack) after")
        document.sections[0].title = Self.attack
        document.sections[1].content = .markdown("# \(Self.attack)\n\n\(Self.attack)")
        document.sections[4].formalTitle = Self.attack
        document.signaturePageContent = Self.attack
        document.signatures[0].title = Self.attack
        let signed = try document.applying(ConsentSignatureResult(signatureIdentifier: "participant", givenName: Self.attack,
                                                                  familyName: "\"><script>x</script>", signature: ConsentFixtures.drawing(),
                                                                  signedDate: Date(timeIntervalSince1970: 0), consented: true))
        let page = renderer().page(for: signed)
        #expect(!page.contains("<script"), "raw script in: \(page)")
        #expect(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(page.contains("<title>&lt;script&gt;"))
        #expect(page.contains("&quot;&gt;&lt;script&gt;x&lt;/script&gt;"))
    }

    /// A `<` after a prepended mark (U+0600) or a quote before a combining mark is one `Character` with the mark: a
    /// name typed so must still come out inert, or the printed PDF would embed whatever the participant asked for.
    @Test func marksAroundMarkupInANameDoNotUnescapeIt() throws {
        let given = "A\u{600}<iframe src=file:///etc/passwd\u{600}>", family = "\"\u{301}><img src=x>"
        let signed = try ConsentFixtures.recover().applying(ConsentSignatureResult(
            signatureIdentifier: "participant", givenName: given, familyName: family, signature: ConsentFixtures.drawing(),
            signedDate: Date(timeIntervalSince1970: 0), consented: true))
        let page = renderer().page(for: signed)
        #expect(!page.contains("<iframe") && !page.contains("<img src=x"), "raw markup in: \(page)")
        #expect(page.contains("A\u{600}&lt;iframe src=file:///etc/passwd\u{600}&gt;"))
        #expect(HTMLEscaping.escape(family) == "&quot;\u{301}&gt;&lt;img src=x&gt;")
    }

    @Test func reviewHTMLReplacesTheSectionsButNotTheSignaturePage() throws {
        var document = try ConsentFixtures.recover()
        document.reviewHTML = "<h1>Our own consent</h1><p>Written by the study.</p>"
        let page = renderer().page(for: document)
        #expect(page.contains("<h1>Our own consent</h1><p>Written by the study.</p>"))
        #expect(!page.contains("<h2>Welcome</h2>"))
        #expect(page.contains("<section class=\"signature-page\""))
        #expect(page.contains("<h2>Consent</h2>"))
        #expect(page.contains("<p>By signing, I agree to take part in the Recover study.</p>"))
    }

    @Test func signatureIsInlineSVGWithOnePathPerStroke() throws {
        let drawing = ConsentFixtures.drawing(strokes: 4)
        let svg = SignatureSVG.svg(for: drawing, label: "Signature")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("viewBox=\"0 0 320 120\""))
        #expect(svg.components(separatedBy: "<path ").count - 1 == 4)
        #expect(svg.contains("d=\"M250 20 l0 0\""), "a single point is still drawn: \(svg)")
        #expect(svg.contains("L50.25 70.5"))
        #expect(svg.contains("stroke-linecap=\"round\""))
        let document = try ConsentFixtures.recover().applying(ConsentSignatureResult(
            signatureIdentifier: "participant", givenName: "Ana", familyName: "García", signature: drawing,
            signedDate: Date(timeIntervalSince1970: 1_774_771_200), consented: true))
        let page = renderer().signaturePage(for: document)
        #expect(page.components(separatedBy: "<svg ").count - 1 == 2, "participant and the investigator's pre-filled drawing")
        #expect(page.contains("viewBox=\"0 0 300 100\""))
    }

    @Test func unsignedSignatureLeavesBlankLines() throws {
        let page = renderer().signaturePage(for: try ConsentFixtures.recover())
        #expect(page.contains("<div class=\"signature-block\" data-signature=\"participant\">\n<h3>Participant</h3>\n<div class=\"signature-drawing\"><div class=\"signature-blank\"></div>"))
        #expect(page.contains("<dd class=\"signature-name\"></dd>"))
    }

    @Test func namesFollowTheParticipantsLanguage() {
        #expect(PrintedName.format(givenName: "太郎", familyName: "山田", language: "ja") == "山田 太郎")
        #expect(PrintedName.format(givenName: "小明", familyName: "王", language: "zh-Hans") == "王小明")
        #expect(PrintedName.format(givenName: "민준", familyName: "김", language: "ko-KR") == "김민준")
        #expect(PrintedName.format(givenName: "Jamie", familyName: "Lee", language: "en") == "Jamie Lee")
        #expect(PrintedName.format(givenName: "Ana", familyName: "García López", language: "es") == "Ana García López")
        #expect(PrintedName.format(givenName: "John", familyName: "Smith", language: "zh-Hans") == "John Smith", "a Latin name keeps its order")
        #expect(PrintedName.format(givenName: "Jamie", familyName: "Lee", language: "ja") == "Jamie Lee")
        #expect(PrintedName.format(givenName: nil, familyName: "Lee", language: "en") == "Lee")
    }

    @Test func signaturePageShowsTheNameInLocaleOrder() throws {
        let result = ConsentSignatureResult(signatureIdentifier: "participant", givenName: "太郎", familyName: "山田",
                                            signature: ConsentFixtures.drawing(), signedDate: Date(timeIntervalSince1970: 1_774_771_200), consented: true)
        let document = try ConsentFixtures.recover().applying(result)
        #expect(renderer(language: "ja").signaturePage(for: document).contains("<dd class=\"signature-name\">山田 太郎</dd>"))
        #expect(renderer(language: "en").signaturePage(for: document).contains("<dd class=\"signature-name\">太郎 山田</dd>"))
        #expect(renderer(language: "ja").signaturePage(for: document).contains("<dt>氏名</dt>"))
    }

    @Test func datesUseTheInjectedZoneAndLocale() throws {
        // 2026-03-29T12:30:00Z is already 2026-03-30 02:30 in Kiritimati (UTC+14) and 21:30 on the 29th in Tokyo.
        let instant = Date(timeIntervalSince1970: 1_774_787_400)
        let kiritimati = renderer(timeZone: ConsentFixtures.kiritimati)
        #expect(kiritimati.formattedDate(instant, format: "yyyy-MM-dd HH:mm") == "2026-03-30 02:30")
        #expect(renderer(timeZone: ConsentFixtures.tokyo).formattedDate(instant, format: "yyyy-MM-dd HH:mm") == "2026-03-29 21:30")
        #expect(renderer(locale: "en_US", timeZone: ConsentFixtures.kiritimati).formattedDate(instant, format: nil) == "Mar 30, 2026")
        #expect(renderer(locale: "ja_JP", timeZone: ConsentFixtures.kiritimati).formattedDate(instant, format: nil) == "2026/03/30")

        let document = try ConsentFixtures.recover().applying(ConsentSignatureResult(
            signatureIdentifier: "participant", givenName: "A", familyName: "B", signature: ConsentFixtures.drawing(),
            signedDate: instant, consented: true))
        let page = kiritimati.signaturePage(for: document)
        #expect(page.contains("<dd class=\"signature-date\">Mar 30, 2026</dd>"))
        #expect(page.contains("<dd class=\"signature-date\">2026-03-28</dd>"), "the investigator's own dateFormat")
    }
}
