import ArgumentParser
import Consent
import ConsentPrinting
import Foundation
import Research

/// `studykit consent render`: a consent document, or a sealed record of it, as HTML or as a PDF.
struct ConsentRenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a consent document (or a sealed record's exact document) as HTML or PDF.",
        discussion: """
            With --record, the record's own HTML is printed — the page the participant signed, byte for byte — with \
            the footer the record gives (study, version, participant, signing time, record id, document SHA-256) on \
            every page. Without it, the document is rendered unsigned. The output's extension (.pdf or .html) says \
            which; PDFs need Debian's chromium and fonts-noto-cjk.
            """
    )

    @Option(help: "The consent document (JSON).", completion: .file(extensions: ["json"]))
    var document: String

    @Option(help: "A sealed record of the document to print instead of the blank document.", completion: .file(extensions: ["json"]))
    var record: String?

    @Option(help: "Where to write: a .pdf or .html file.", completion: .file(extensions: ["pdf", "html"]))
    var output: String

    @Option(help: "Language to render an unsigned document in (default: the document's).")
    var language: String?

    @Option(name: .customLong("time-zone"), help: "Time zone for dates on an unsigned document (default: UTC).")
    var timeZone: String = "UTC"

    @Option(name: .customLong("study-name"), help: "Study name for the footer of an unsigned document (default: its title).")
    var studyName: String?

    @Option(name: .customLong("time-limit"), help: "Seconds Chromium may take before it is stopped.")
    var timeLimit: Double = 60

    @Option(name: .customLong("public-key"), help: "With --record: the study's public key the record must be sealed by.")
    var publicKey: String?

    func run() async throws {
        let outputURL = URL(fileURLWithPath: output)
        let format = outputURL.pathExtension.lowercased()
        guard format == "pdf" || format == "html" else {
            throw ValidationError("--output must end in .pdf or .html, not '\(outputURL.lastPathComponent)'")
        }
        let consentDocument = try ConsentFiles.document(at: document)
        let html: String
        let footer: ConsentPDFFooter
        if let record {
            let sealed = try ConsentFiles.sealedRecord(at: record)
            // A record that does not verify must not get a PDF with the genuine footer.
            let expected = try publicKey.map { text in
                do { return try ConsentPublicKey(base64: text.trimmingCharacters(in: .whitespacesAndNewlines)) } catch {
                    throw ValidationError("--public-key: \(error)")
                }
            }
            let mismatches = ConsentRecordVerifier(expectedPublicKey: expected).mismatches(in: sealed)
            guard mismatches.isEmpty else {
                throw ValidationError("\(record) does not verify, so it is not printed: " + mismatches.map(\.description).joined(separator: "; "))
            }
            let made = sealed.record
            guard made.documentIdentifier == consentDocument.identifier, made.documentVersion == consentDocument.version else {
                throw ValidationError("""
                    \(record) records document '\(made.documentIdentifier)' version \(made.documentVersion), \
                    not '\(consentDocument.identifier)' version \(consentDocument.version) from \(document)
                    """)
            }
            html = made.html
            footer = .localized(for: made)
        } else {
            guard let zone = TimeZone(identifier: timeZone) else { throw ValidationError("--time-zone: unknown time zone '\(timeZone)'") }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let chosen = language ?? consentDocument.language
            let context = ConsentContext(language: chosen, locale: Locale(identifier: chosen), timeZone: zone, calendar: calendar)
            html = ConsentReviewRenderer(context: context).page(for: consentDocument)
            footer = ConsentPDFFooter(studyName: studyName ?? consentDocument.title, documentVersion: consentDocument.version,
                                      participantName: "—", signingTime: "—", recordID: nil, documentSHA256: nil,
                                      labels: ConsentPDFFooterLabels(strings: .builtIn, language: chosen))
        }
        let data: Data
        if format == "html" {
            data = Data(html.utf8)
        } else {
            data = try await ChromiumPDFRenderer(timeLimit: .seconds(timeLimit)).renderPDF(html: html, footer: footer)
        }
        do { try data.write(to: outputURL, options: .atomic) } catch {
            throw ValidationError("cannot write \(output): \(error.localizedDescription)")
        }
    }
}
