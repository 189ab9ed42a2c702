import Consent
import Foundation
import ServiceLifecycle
import Study

/// Prints the PDFs of sealed consent records in the background, one at a time, into the study's database beside their
/// records (so that a backup of the database is a backup of the study).
///
/// A record is sealed and stored before its PDF is asked for, so a printing failure (no Chromium, a time-out)
/// only marks the PDF `failed`: the record is untouched and the PDF is printed again at the next start-up or
/// the next wake-up. Each PDF is claimed in the database before it is printed (``StudyStore/claimConsentPDF(recordID:for:)``),
/// so that of several server processes on one database one prints it. PDFs printed into `DATA/consent-pdfs/` by
/// earlier versions are still read from there.
actor ConsentPDFPrinter {
    private let renderer: any ConsentPDFRenderer
    private let dataFolder: StudyDataFolder
    /// Checks each record before it is printed: an edited record must not get a PDF with the genuine footer.
    private let verifier: ConsentRecordVerifier
    private var running = false
    private var again = false

    init(renderer: any ConsentPDFRenderer, dataFolder: StudyDataFolder, verifier: ConsentRecordVerifier) {
        self.renderer = renderer
        self.dataFolder = dataFolder
        self.verifier = verifier
    }

    /// Prints every record of `store` that awaits its PDF (also those that failed before); returns when done.
    /// A call while printing makes the running pass look again when it finishes instead of printing twice.
    func printPending(from store: any StudyStore, strings: ConsentStrings) async {
        if running { again = true; return }
        running = true
        defer { running = false }
        repeat {
            again = false
            let pending = (try? await store.consentRecordsAwaitingPDF()) ?? []
            // A server shutting down stops between two records (each claimed just before it is printed): the rest
            // are printed at its next start, or by another process.
            for stored in pending where !Task.isShuttingDownGracefully {
                // Another process prints it (or printed it a moment ago): its claim lasts while Chromium may take.
                guard (try? await store.claimConsentPDF(recordID: stored.id, for: Self.claimLease)) == true else { continue }
                await print(stored, store: store, strings: strings)
            }
        } while again && !Task.isShuttingDownGracefully
    }

    /// How long a claim on printing one PDF lasts: longer than a print takes (the renderer's own time-out is a minute).
    static let claimLease: TimeInterval = 300

    private func print(_ stored: StoredConsentRecord, store: any StudyStore, strings: ConsentStrings) async {
        let record = stored.sealed.record
        let mismatches = verifier.mismatches(in: stored.sealed)
        guard mismatches.isEmpty else {
            let reason = "the record does not verify, so it is not printed: " + mismatches.map(\.description).joined(separator: "; ")
            FileHandle.standardError.write(Data("consent PDF of record \(record.id): \(reason)\n".utf8))
            try? await store.setConsentPDF(.failed(reason: reason), recordID: record.id, participantID: record.participantIdentifier)
            return
        }
        do {
            let pdf = try await renderer.renderPDF(html: record.html, footer: .localized(for: record, strings: strings))
            try await store.setConsentPDF(.stored(pdf), recordID: record.id, participantID: record.participantIdentifier)
        } catch {
            let reason = "\(error)"
            FileHandle.standardError.write(Data("consent PDF of record \(record.id): \(reason)\n".utf8))
            try? await store.setConsentPDF(.failed(reason: reason), recordID: record.id, participantID: record.participantIdentifier)
        }
    }

    /// The bytes of a printed PDF; nil when it is not ready.
    func pdf(of stored: StoredConsentRecord) -> Data? {
        switch stored.pdf {
        case .stored(let data): data
        case .file(let relativePath): ConsentPDFState.isSafeRelativePath(relativePath)
            ? FileManager.default.contents(atPath: dataFolder.url.appendingPathComponent(relativePath).path) : nil
        case .pending, .failed: nil
        }
    }
}
