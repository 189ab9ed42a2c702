import Foundation
import Hummingbird
import ServiceLifecycle
import Logging
import NIOCore
import Study
import StudyFHIR

/// Starts the study server: loads and checks the study, opens the data folder, prints the consent PDFs still owed,
/// and serves until stopped (SIGINT or SIGTERM).
public enum StudyServerApplication {
    /// Loads the study at `configuration.studyFolder`; throws ``StudyServerStartError`` listing every problem as
    /// `file: path: message` (the server refuses to start on a bad study).
    public static func loadStudy(_ configuration: StudyServerConfiguration) throws -> StudyDefinition {
        do {
            return try StudyLoader.load(folder: configuration.studyFolder, surveyFormats: [FHIRSurveyFormat()])
        } catch {
            throw StudyServerStartError("the study in \(configuration.studyFolder.path) has problems:\n"
                + error.problems.map(\.description).joined(separator: "\n"))
        }
    }

    /// How long a connection may send nothing before it is closed: an idle keep-alive connection, a request head
    /// that has not arrived whole, or a body that stopped. (A body that arrives but too slowly is closed by
    /// ``SlowRequestBodyHandler``.)
    public static let idleTimeout = TimeAmount.seconds(30)

    /// The whole server, wired: the router over `service`, the HTTP server with its connection limits, and the consent
    /// PDF printer and the reminder sender as services started and stopped with it. `announce` gets the address to open once it listens.
    public static func buildApplication(service: StudyService, configuration: StudyServerConfiguration,
                                        announce: @escaping @Sendable (String) -> Void) -> some ApplicationProtocol {
        var logger = Logger(label: "studykit")
        logger.logLevel = .warning
        return Application(
            router: StudyRouter.router(service: service, secureCookies: configuration.secureCookies),
            server: .http1(configuration: .init(additionalChannelHandlers: [SlowRequestBodyHandler()], idleTimeout: idleTimeout)),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            services: [ConsentPDFPrintingService(service: service), ReminderSendingService(service: service)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                announce("\(service.study.name) is being served at http://\(configuration.host):\(port)/")
            },
            logger: logger
        )
    }

    /// Serves `service` as `configuration` says until stopped (SIGINT or SIGTERM), after reporting every consent record
    /// that does not verify.
    public static func run(service: StudyService, configuration: StudyServerConfiguration,
                           announce: @escaping @Sendable (String) -> Void) async throws {
        for line in try await service.auditConsentRecords() {
            FileHandle.standardError.write(Data("studykit serve: \(line)\n".utf8))
        }
        try await buildApplication(service: service, configuration: configuration, announce: announce).runService()
    }
}
