import Foundation
import Testing
@testable import Consent

@Suite struct PDFFooterTests {
    @Test func cssStringsCannotEscapeTheStringOrTheStyleElement() {
        #expect(ConsentPDFFooter.cssString("山田 花子") == "\"山田 花子\"")
        #expect(ConsentPDFFooter.cssString(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(ConsentPDFFooter.cssString("</style><script>") == #""\3C /style\3E \3C script\3E ""#)
        #expect(ConsentPDFFooter.cssString("line\nbreak\u{0}") == #""line\A break\FFFD ""#)
    }

    @Test func theFooterCarriesTheRecordsValues() throws {
        let record = RecordFixtures.record()
        let footer = ConsentPDFFooter(record: record, formatName: { given, family in "\(family) \(given)" })
        #expect(footer.lines == [
            "Study: Recover  ·  Document version: 1.2",
            "Participant: 山田 花子  ·  Signed: 2026-03-29T17:00:00.250+09:00",
            "Record: 3F2504E0-4F89-11D3-9A0C-0305E82C3301",
            "Document SHA-256: \(record.htmlSHA256)",
        ])
        #expect(footer.css.contains("@bottom-left"))
        #expect(footer.css.contains("counter(pages)"))
    }

    @Test func theStyleGoesAtTheEndOfTheHead() {
        let footer = ConsentPDFFooter(studyName: "S", documentVersion: "1", participantName: "P", signingTime: "T",
                                      recordID: nil, documentSHA256: nil)
        let withHead = footer.injected(into: "<html><head><style>@page{margin:1cm}</style></HEAD><body>x</body></html>")
        #expect(withHead.hasPrefix("<html><head><style>@page{margin:1cm}</style><style data-studykit"))
        #expect(withHead.hasSuffix("</style>\n</HEAD><body>x</body></html>"))
        let bodyOnly = footer.injected(into: "<body>x</body>")
        #expect(bodyOnly.hasPrefix("<style data-studykit") && bodyOnly.hasSuffix("</style>\n<body>x</body>"))
        let bare = footer.injected(into: "<!DOCTYPE html><p>x")
        #expect(bare.hasPrefix("<!DOCTYPE html><style data-studykit") && bare.hasSuffix("<p>x"))
    }
}
