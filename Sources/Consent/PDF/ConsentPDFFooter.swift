import Foundation

/// What every page of a consent PDF carries at its foot (REDCap's e-consent practice): study, document
/// version, participant name, signing time, and the record's id and document hash that tie the paper to
/// the sealed record.
///
/// ```swift
/// let footer = ConsentPDFFooter(record: sealed.record, labels: .english)
/// let pdf = try await ChromiumPDFRenderer().renderPDF(html: sealed.record.html, footer: footer)
/// ```
public struct ConsentPDFFooter: Hashable, Sendable {
    /// The study's name.
    public var studyName: String
    /// The consent document's version.
    public var documentVersion: String
    /// The participant's name as it should be printed.
    public var participantName: String
    /// The signing time as it should be printed, e.g. `2026-03-29T17:00:00+09:00`.
    public var signingTime: String
    /// The record's id (printed in upper case), or nil for a document not yet signed.
    public var recordID: UUID?
    /// Lowercase hex SHA-256 of the record's HTML, or nil for a document not yet signed.
    public var documentSHA256: String?
    /// The words in front of each value.
    public var labels: ConsentPDFFooterLabels

    /// A footer from its values; see the properties.
    public init(studyName: String, documentVersion: String, participantName: String, signingTime: String,
                recordID: UUID?, documentSHA256: String?, labels: ConsentPDFFooterLabels = .english) {
        self.studyName = studyName
        self.documentVersion = documentVersion
        self.participantName = participantName
        self.signingTime = signingTime
        self.recordID = recordID
        self.documentSHA256 = documentSHA256
        self.labels = labels
    }

    /// The footer for a record: its first signature is the participant's, whose name (given and family,
    /// ordered by `formatName`, "given family" by default) and local signing time are printed. A record
    /// without signatures prints the participant identifier and the record's creation time (UTC).
    public init(record: ConsentRecord, labels: ConsentPDFFooterLabels = .english,
                formatName: (_ givenName: String, _ familyName: String) -> String = { "\($0) \($1)" }) {
        let participant = record.signatures.first
        self.init(studyName: record.studyName, documentVersion: record.documentVersion,
                  participantName: participant.map { formatName($0.givenName, $0.familyName) } ?? record.participantIdentifier,
                  signingTime: participant?.localSigningTime ?? ConsentTimestamp.string(from: record.createdAt),
                  recordID: record.id, documentSHA256: record.htmlSHA256, labels: labels)
    }

    /// The footer's lines, labelled, in print order.
    public var lines: [String] {
        var lines = [
            "\(labels.study): \(studyName)  ·  \(labels.documentVersion): \(documentVersion)",
            "\(labels.participant): \(participantName)  ·  \(labels.signingTime): \(signingTime)",
        ]
        if let recordID { lines.append("\(labels.recordID): \(recordID.uuidString)") }
        if let documentSHA256 { lines.append("\(labels.documentSHA256): \(documentSHA256)") }
        return lines
    }

    /// The CSS paged-media rules that print the footer in every page's bottom margin, with the page number
    /// (`3 / 7`) at the right. Values are written as CSS strings, escaped so that no value can end the string
    /// or the `<style>` element holding it. Lines never wrap (a wrapped hex string or date would not be found
    /// whole in the PDF's text).
    public var css: String {
        let content = lines.map(Self.cssString).joined(separator: " \"\\A\" ")
        return """
        @page {
          margin-bottom: 24mm;
          @bottom-left {
            content: \(content);
            white-space: pre;
            font-family: sans-serif;
            font-size: 7pt;
            line-height: 1.35;
            color: #333;
            vertical-align: top;
            padding-top: 3mm;
          }
          @bottom-right {
            content: counter(page) " / " counter(pages);
            font-family: sans-serif;
            font-size: 7pt;
            color: #333;
            vertical-align: top;
            padding-top: 3mm;
          }
        }
        """
    }

    /// `html` with the footer's `<style>` added at the end of its head (so it wins over the document's own
    /// `@page` margins), before `<body>` when there is no `</head>`, or after the doctype otherwise.
    public func injected(into html: String) -> String {
        HTMLHead.inserting("<style data-studykit=\"consent-pdf-footer\">\n\(css)\n</style>\n", into: html)
    }

    /// `value` as a CSS string literal: `"` and `\` escaped; line breaks, other control characters and `<`
    /// as hex escapes (`<` so that `</style>` in a name cannot close the style element).
    public static func cssString(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\0": result += "\\FFFD "
            case "<", ">", "&": result += "\\" + String(scalar.value, radix: 16, uppercase: true) + " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\" + String(scalar.value, radix: 16, uppercase: true) + " "
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

/// The labels in front of the footer's values. English by default; the consent string tables supply the
/// other languages.
public struct ConsentPDFFooterLabels: Hashable, Sendable {
    /// In front of the study's name.
    public var study: String
    /// In front of the document version.
    public var documentVersion: String
    /// In front of the participant's name.
    public var participant: String
    /// In front of the signing time.
    public var signingTime: String
    /// In front of the record id.
    public var recordID: String
    /// In front of the document's SHA-256.
    public var documentSHA256: String

    /// Labels from their words; see the properties.
    public init(study: String, documentVersion: String, participant: String, signingTime: String, recordID: String,
                documentSHA256: String) {
        self.study = study
        self.documentVersion = documentVersion
        self.participant = participant
        self.signingTime = signingTime
        self.recordID = recordID
        self.documentSHA256 = documentSHA256
    }

    /// "Study", "Document version", "Participant", "Signed", "Record", "Document SHA-256".
    public static let english = ConsentPDFFooterLabels(study: "Study", documentVersion: "Document version",
                                                       participant: "Participant", signingTime: "Signed",
                                                       recordID: "Record", documentSHA256: "Document SHA-256")
}
