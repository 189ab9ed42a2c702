import Consent
import Foundation
import ServiceLifecycle
import Study

/// Prints the consent PDFs the server owes, as a service of the application's service group: started and stopped
/// with the server. At start it prints every record still waiting (a crash or a missing Chromium leaves some); then it
/// waits to be woken (``StudyService/printConsentPDFs()``, after an onboarding is finished) and prints again, until
/// the server shuts down gracefully.
struct ConsentPDFPrintingService: Service {
    let service: StudyService

    func run() async throws {
        let printer = service.pdfPrinter, store = service.store, strings = service.study.strings.consent
        await printer.printPending(from: store, strings: strings)
        for await _ in service.pdfWakeUps.cancelOnGracefulShutdown() {
            await printer.printPending(from: store, strings: strings)
        }
    }
}
