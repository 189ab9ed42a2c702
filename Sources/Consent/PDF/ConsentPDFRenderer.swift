import Foundation

/// Prints a consent document's HTML as a PDF with the consent footer on every page.
///
/// ``ChromiumPDFRenderer`` is the implementation; tests and other engines can supply their own. A renderer
/// only reads the record's values, so a failure never touches the sealed record, and the PDF can be made
/// again from the record at any time.
public protocol ConsentPDFRenderer: Sendable {
    /// The PDF of `html` (a complete HTML document) with `footer` at the foot of every page.
    func renderPDF(html: String, footer: ConsentPDFFooter) async throws -> Data
}

extension ConsentPDFRenderer {
    /// The PDF of a sealed record: its exact HTML, with the footer made from the record.
    public func renderPDF(of record: ConsentRecord, labels: ConsentPDFFooterLabels = .english) async throws -> Data {
        try await renderPDF(html: record.html, footer: ConsentPDFFooter(record: record, labels: labels))
    }
}
