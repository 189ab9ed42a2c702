import Foundation

/// Checks sealed consent records: the HTML against its hash, the Ed25519 signature against the canonical
/// JSON, the signing key against the one expected, a withdrawal against its original, and a PDF against
/// the record.
///
/// ```swift
/// let verifier = ConsentRecordVerifier(expectedPublicKey: try ConsentPublicKey(base64: serverKey))
/// let problems = verifier.mismatches(in: sealed)
/// print(problems.isEmpty ? "valid" : problems.map(\.description).joined(separator: "\n"))
/// ```
public struct ConsentRecordVerifier: Sendable {
    /// The key records must be sealed by; nil accepts whatever key the record names (still checking the signature).
    public var expectedPublicKey: ConsentPublicKey?

    /// A verifier that, when `expectedPublicKey` is given, also requires records to be sealed by it.
    public init(expectedPublicKey: ConsentPublicKey? = nil) {
        self.expectedPublicKey = expectedPublicKey
    }

    /// What does not match in `sealed`; empty when it is valid. With `original`, a withdrawal is also checked
    /// against the record it withdraws (which is verified too).
    public func mismatches(in sealed: SealedConsentRecord, original: SealedConsentRecord? = nil) -> [ConsentRecordMismatch] {
        var problems = [ConsentRecordMismatch]()
        let record = sealed.record
        let computed = record.computedHTMLSHA256
        if computed != record.htmlSHA256 { problems.append(.htmlHash(recorded: record.htmlSHA256, computed: computed)) }
        problems += sealProblems(sealed)
        switch (record.kind, record.withdrawal) {
        case (.consent, nil), (.withdrawal, .some): break
        case (.consent, .some): problems.append(.withdrawalLink("a consent record carries a withdrawal link"))
        case (.withdrawal, nil): problems.append(.withdrawalLink("the withdrawal record does not say which record it withdraws"))
        }
        if let original {
            problems += mismatches(in: original).map { .original($0) }
            problems += linkProblems(withdrawal: record, original: original)
        }
        return problems
    }

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

    private func sealProblems(_ sealed: SealedConsentRecord) -> [ConsentRecordMismatch] {
        guard sealed.algorithm == SealedConsentRecord.ed25519 else { return [.unsupportedAlgorithm(sealed.algorithm)] }
        guard let key = try? ConsentPublicKey(base64: sealed.publicKey) else { return [.malformedPublicKey(sealed.publicKey)] }
        var problems = [ConsentRecordMismatch]()
        if let expectedPublicKey, expectedPublicKey != key {
            problems.append(.signedByOtherKey(actual: key.fingerprint, expected: expectedPublicKey.fingerprint))
        }
        guard let signature = Data(base64Encoded: sealed.signature), signature.count == 64 else {
            return problems + [.malformedSignature]
        }
        do {
            if !key.isValidSignature(signature, for: try sealed.record.canonicalJSON()) { problems.append(.signature) }
        } catch {
            problems.append(.notCanonical("\(error)"))
        }
        return problems
    }

    private func linkProblems(withdrawal record: ConsentRecord, original: SealedConsentRecord) -> [ConsentRecordMismatch] {
        var problems = [ConsentRecordMismatch]()
        if original.record.kind != .consent { problems.append(.originalIsWithdrawal) }
        if let link = record.withdrawal {
            if link.originalRecordID != original.record.id {
                problems.append(.withdrawalRecordID(linked: link.originalRecordID.uuidString, original: original.record.id.uuidString))
            }
            if let hash = try? original.sealSHA256(), hash != link.originalSealSHA256 {
                problems.append(.withdrawalSealHash(linked: link.originalSealSHA256, original: hash))
            }
        }
        let pairs: [(String, String, String)] = [
            ("participant identifier", record.participantIdentifier, original.record.participantIdentifier),
            ("study identifier", record.studyIdentifier, original.record.studyIdentifier),
            ("document identifier", record.documentIdentifier, original.record.documentIdentifier),
        ]
        for (field, mine, theirs) in pairs where mine != theirs {
            problems.append(.withdrawalSubject(field: field, withdrawal: mine, original: theirs))
        }
        return problems
    }

    private static func squeezed(_ text: String) -> String {
        String(text.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init))
    }
}
