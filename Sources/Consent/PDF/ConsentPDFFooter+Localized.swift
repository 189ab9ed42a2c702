import Foundation

extension ConsentPDFFooterLabels {
    /// The footer labels in `language` from the consent string tables (the record id and document hash labels
    /// stay technical English, as printed on every record).
    public init(strings: ConsentStrings, language: String) {
        self.init(study: strings.string(.footerStudy, language: language),
                  documentVersion: strings.string(.footerVersion, language: language),
                  participant: strings.string(.footerParticipant, language: language),
                  signingTime: strings.string(.footerSigned, language: language),
                  recordID: ConsentPDFFooterLabels.english.recordID,
                  documentSHA256: ConsentPDFFooterLabels.english.documentSHA256)
    }
}

extension ConsentPDFFooter {
    /// The footer of a record in the record's language: labels from `strings`, the participant's name in that
    /// language's order (family name first in Chinese, Japanese and Korean).
    public static func localized(for record: ConsentRecord, strings: ConsentStrings = .builtIn) -> ConsentPDFFooter {
        ConsentPDFFooter(record: record, labels: ConsentPDFFooterLabels(strings: strings, language: record.language),
                         formatName: { PrintedName.format(givenName: $0, familyName: $1, language: record.language) })
    }
}
