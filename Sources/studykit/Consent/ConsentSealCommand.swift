import ArgumentParser
import Consent
import Foundation
import Research

/// `studykit consent seal`: seals a consent from a document and the signatures given, with the data folder's key.
struct ConsentSealCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seal",
        abstract: "Seal a signed consent into a record, signed with the data folder's key.",
        discussion: """
            SIGNED.json holds what the consent flow collected: {"signatures": [{"signatureIdentifier": …, \
            "givenName": …, "familyName": …, "signature": {"width": …, "height": …, "strokes": [[{"x": …, "y": …, \
            "t": …}]]}, "signedDate": "2026-…", "consented": true}], "answers": {"sharing": "shareWidely"}}. \
            Signatures the document pre-fills (an investigator's) are kept. The server seals records itself when a \
            participant finishes onboarding; this command is for records made elsewhere and for examples.
            """
    )

    @Option(help: "The consent document (JSON).", completion: .file(extensions: ["json"]))
    var document: String

    @Option(help: "The signatures and answers given (JSON, see below).", completion: .file(extensions: ["json"]))
    var signed: String

    @Option(help: "The participant's identifier.")
    var participant: String

    @Option(name: .customLong("study-id"), help: "The study's identifier.")
    var studyIdentifier: String

    @Option(name: .customLong("study-name"), help: "The study's name, printed on every page of the PDF.")
    var studyName: String

    @Option(help: "Language the document was shown in (default: the document's).")
    var language: String?

    @Option(name: .customLong("time-zone"), help: "The signer's time zone.")
    var timeZone: String = "UTC"

    @Option(help: "The data folder whose signing key seals the record (created on first use).")
    var data: String = "data"

    @Option(help: "Where to write the sealed record.", completion: .file(extensions: ["json"]))
    var output: String

    /// The file given with `--signed`.
    struct SignedConsent: Decodable {
        var signatures: [ConsentSignatureResult]
        var answers: [String: String]?
    }

    func validate() throws {
        try StudyPaths.check(data: data)
    }

    func run() throws {
        var consentDocument = try ConsentFiles.document(at: document)
        let given: SignedConsent
        do { given = try ResearchJSON.decoder().decode(SignedConsent.self, from: ConsentFiles.contents(of: signed)) } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("\(signed): \(error)")
        }
        for signature in given.signatures {
            do { consentDocument = try consentDocument.applying(signature) } catch { throw ValidationError("\(signed): \(error)") }
        }
        guard let zone = TimeZone(identifier: timeZone) else { throw ValidationError("--time-zone: unknown time zone '\(timeZone)'") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let chosen = language ?? consentDocument.language
        let context = ConsentContext(language: chosen, locale: Locale(identifier: chosen), timeZone: zone, calendar: calendar)
        let key = try ConsentKeyStore(dataDirectory: URL(fileURLWithPath: data, isDirectory: true)).loadOrCreate()
        let builder = ConsentRecordBuilder(studyIdentifier: studyIdentifier, studyName: studyName, context: context)
        let sealed: SealedConsentRecord
        do {
            sealed = try builder.seal(consentDocument, participantIdentifier: participant, answers: given.answers ?? [:],
                                      signerTimeZone: zone, recorder: ConsentRecorder(signingKey: key))
        } catch let error as ConsentRecordBuildError {
            throw ValidationError("\(signed): \(error)")
        }
        do { try sealed.jsonData().write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
            throw ValidationError("cannot write \(output): \(error.localizedDescription)")
        }
        print("sealed record \(sealed.record.id.uuidString.lowercased()) with key \(key.publicKey.fingerprint)")
    }
}
