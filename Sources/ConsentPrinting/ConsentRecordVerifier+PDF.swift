import Consent
import Foundation

extension ConsentRecordVerifier {
    /// What in the PDF does not show the record, page by page. The record's own HTML is printed again, with the
    /// footer the server prints (`footer`; by default the built-in labels in the record's language), by `renderer`,
    /// and the text of each page of `pdf` must be the text of the same page of that print: a PDF with a changed, added
    /// or missing word, a page too many or too few, or only the footer's values on a blank page does not pass. Text is
    /// extracted with poppler's `pdftotext` and compared without whitespace, soft hyphens or a hyphen that breaks a
    /// line. The record id, the document's SHA-256 and every signer's name are also looked for, and named when missing.
    /// Throws when either PDF cannot be made or read (no Chromium, no `pdftotext`): a PDF that cannot be checked never
    /// passes.
    public func mismatches(inPDF pdf: URL, of sealed: SealedConsentRecord, footer: ConsentPDFFooter? = nil,
                           renderer: any ConsentPDFRenderer = ChromiumPDFRenderer(),
                           textExtractor: PDFTextExtractor = PDFTextExtractor()) async throws -> [ConsentRecordMismatch] {
        let shownText = try await textExtractor.text(ofPDF: pdf)
        let text = Self.squeezed(shownText)
        var problems = [ConsentRecordMismatch]()
        func require(_ what: String, _ value: String, caseInsensitive: Bool = false) {
            let needle = Self.squeezed(value)
            guard !needle.isEmpty else { return }
            let found = caseInsensitive ? text.lowercased().contains(needle.lowercased()) : text.contains(needle)
            if !found { problems.append(.pdfText(missing: what, value: value)) }
        }
        let record = sealed.record
        require("record id", record.id.uuidString, caseInsensitive: true)
        require("document SHA-256", record.htmlSHA256, caseInsensitive: true)
        for signature in record.signatures {
            require("given name of signature '\(signature.identifier)'", signature.givenName)
            require("family name of signature '\(signature.identifier)'", signature.familyName)
        }

        let printed = try await renderer.renderPDF(html: record.html, footer: footer ?? .localized(for: record))
        let folder = try PrivateTemporaryFolder(in: textExtractor.temporaryDirectory, prefix: "studykit-verify-pdf")
        defer { folder.remove() }
        let reprint = folder.url.appendingPathComponent("record.pdf")
        do { try printed.write(to: reprint) } catch {
            throw ConsentPDFError.temporaryFiles(path: reprint.path, reason: "cannot write the record's print: \(error.localizedDescription)")
        }
        return problems + Self.pageMismatches(shown: Self.pages(of: shownText), expected: Self.pages(of: try await textExtractor.text(ofPDF: reprint)))
    }

    /// The pages of `pdftotext` output (a form feed ends each page), each normalised for comparison.
    static func pages(of text: String) -> [String] {
        var pages = text.split(separator: "\u{0C}", omittingEmptySubsequences: false).map { page in
            squeezed(String(page).replacingOccurrences(of: "\u{AD}", with: "")
                .replacingOccurrences(of: #"-[ \t]*\r?\n"#, with: "", options: .regularExpression))
        }
        if pages.last?.isEmpty == true { pages.removeLast() }
        return pages
    }

    /// Each page whose text differs, with a short excerpt of the PDF's and the record's text where they part.
    static func pageMismatches(shown: [String], expected: [String]) -> [ConsentRecordMismatch] {
        var problems = [ConsentRecordMismatch]()
        if shown.count != expected.count {
            problems.append(.pdfPage(page: min(shown.count, expected.count) + 1,
                                     reason: "the PDF has \(shown.count) pages, the record's document prints on \(expected.count)"))
        }
        for (index, (mine, theirs)) in zip(shown, expected).enumerated() where mine != theirs {
            let common = zip(mine, theirs).prefix { $0 == $1 }.count
            func excerpt(_ text: String) -> String {
                let start = text.index(text.startIndex, offsetBy: max(0, common - 12))
                let piece = text[start...].prefix(40)
                return piece.isEmpty ? "(nothing more)" : "…\(piece)…"
            }
            problems.append(.pdfPage(page: index + 1, reason: "the PDF shows \(excerpt(mine)) where the record's document has \(excerpt(theirs))"))
        }
        return problems
    }
}
