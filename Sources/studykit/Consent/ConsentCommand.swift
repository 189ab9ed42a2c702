import ArgumentParser
import Consent
import ConsentPrinting
import Foundation
import Study
import StudyFHIR

/// `studykit consent …`: render consent documents, seal and verify consent records, print the server's key.
struct ConsentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent",
        abstract: "Render consent documents; seal, verify and print consent records.",
        subcommands: [ConsentRenderCommand.self, ConsentSealCommand.self, ConsentVerifyCommand.self, ConsentKeyCommand.self]
    )
}

/// `studykit consent key`: prints the public key that verifies the records this data folder's server seals.
struct ConsentKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print the public key of the data folder's consent signing key (created on first use).",
        discussion: "The key pair is kept in DATA/keys/consent-signing-key.ed25519 (mode 0600). Give the printed key to anyone who should verify records: studykit consent verify RECORD.json --public-key KEY."
    )

    @Option(help: "The server's data folder.")
    var data: String = "data"

    func validate() throws {
        try StudyPaths.check(data: data)
    }

    func run() throws {
        let key = try ConsentKeyStore(dataDirectory: URL(fileURLWithPath: data, isDirectory: true)).loadOrCreate()
        print(key.publicKey.base64)
        FileHandle.standardError.write(Data("fingerprint \(key.publicKey.fingerprint)\n".utf8))
    }
}

/// `studykit consent verify RECORD.json`: checks a sealed record (and its PDF); prints `valid` or what does not match.
struct ConsentVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a sealed consent record, and optionally its PDF; print 'valid' or each mismatch.",
        discussion: "Exits 0 when everything matches, 1 otherwise. Needs --public-key (or, knowingly, --trust-embedded-key)."
    )

    @Argument(help: "The sealed record (JSON).", completion: .file(extensions: ["json"]))
    var record: String

    @Option(help: "The record's PDF: each page's text must be the text of the same page of the record's document, printed again.",
            completion: .file(extensions: ["pdf"]))
    var pdf: String?

    @Option(help: "The study folder whose strings the server printed the PDF's footer with (default: the built-in labels).",
            completion: .directory)
    var study: String?

    @Option(name: .customLong("public-key"), help: "The base64 public key the record must be signed with (see studykit consent key).")
    var publicKey: String?

    @Option(help: "For a withdrawal record: the sealed record it withdraws.", completion: .file(extensions: ["json"]))
    var original: String?

    @Flag(name: .customLong("trust-embedded-key"),
          help: "Check the record only against the public key inside it. Anyone can seal a record with a key of their own, so this proves only that the record is whole, not who sealed it.")
    var trustEmbeddedKey = false

    func validate() throws {
        if publicKey == nil && !trustEmbeddedKey {
            throw ValidationError("give --public-key with your study's key (studykit consent key prints it): a record re-sealed with any "
                + "other key is self-consistent too. --trust-embedded-key checks it against the key inside it instead")
        }
        if publicKey != nil && trustEmbeddedKey { throw ValidationError("give --public-key or --trust-embedded-key, not both") }
    }

    func run() async throws {
        let sealed: SealedConsentRecord
        do {
            sealed = try SealedConsentRecord(jsonData: ConsentFiles.contents(of: record))
        } catch let error as ConsentRecordError {
            // Not a record in the format is a failed verification like any other: named on standard output, exit 1.
            print("\((record as NSString).lastPathComponent): \(error)")
            throw ExitCode(1)
        }
        let expected = try publicKey.map { text in
            do { return try ConsentPublicKey(base64: text.trimmingCharacters(in: .whitespacesAndNewlines)) } catch {
                throw ValidationError("--public-key: \(error)")
            }
        }
        let verifier = ConsentRecordVerifier(expectedPublicKey: expected)
        var problems = verifier.mismatches(in: sealed, original: try original.map(ConsentFiles.sealedRecord(at:))).map(\.description)
        if let pdf {
            guard FileManager.default.fileExists(atPath: pdf) else { throw ValidationError("--pdf: no file at \(pdf)") }
            var strings = ConsentStrings.builtIn
            if let study {
                do { strings = try StudyLoader.load(folder: URL(fileURLWithPath: study, isDirectory: true), surveyFormats: [FHIRSurveyFormat()]).strings.consent } catch {
                    throw ValidationError("--study: " + error.problems.map(\.description).joined(separator: "\n"))
                }
            }
            problems += try await verifier.mismatches(inPDF: URL(fileURLWithPath: pdf), of: sealed,
                                                      footer: .localized(for: sealed.record, strings: strings)).map(\.description)
        }
        if problems.isEmpty {
            print("valid")
            if expected == nil, let key = try? ConsentPublicKey(base64: sealed.publicKey) {
                // A record re-sealed with any other key is self-consistent too: only the study's key proves who sealed it.
                FileHandle.standardError.write(Data(("note: checked against the key inside the record (fingerprint \(key.fingerprint)); "
                    + "pass --public-key to check that it is your study's key\n").utf8))
            }
        } else {
            for problem in problems { print("\((record as NSString).lastPathComponent): \(problem)") }
            throw ExitCode(1)
        }
    }
}

/// Reading the files the consent commands take, with errors that name the file.
enum ConsentFiles {
    static func contents(of path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("cannot read \(path)") }
        return data
    }

    static func document(at path: String) throws -> ConsentDocument {
        do { return try ConsentDocumentValidator.load(contents(of: path)) } catch let failure as ConsentValidationFailure {
            throw ValidationError(failure.problems.map { "\(path): \($0)" }.joined(separator: "\n"))
        }
    }

    static func sealedRecord(at path: String) throws -> SealedConsentRecord {
        do { return try SealedConsentRecord(jsonData: contents(of: path)) } catch let error as ValidationError { throw error } catch {
            throw ValidationError("\(path): \(error)")
        }
    }
}
