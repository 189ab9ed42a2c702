// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "StudyKit",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "StudyKitEnvironment", targets: ["StudyKitEnvironment"]),
        .library(name: "Research", targets: ["Research"]),
        .library(name: "ActiveTasks", targets: ["ActiveTasks"]),
        .library(name: "CareStore", targets: ["CareStore"]),
        .library(name: "CareStoreSQLite", targets: ["CareStoreSQLite"]),
        .library(name: "CareStorePostgres", targets: ["CareStorePostgres"]),
        .library(name: "Consent", targets: ["Consent"]),
        .library(name: "ConsentPrinting", targets: ["ConsentPrinting"]),
        .library(name: "StudyWeb", targets: ["StudyWeb"]),
        .library(name: "Study", targets: ["Study"]),
        .library(name: "StudySQLite", targets: ["StudySQLite"]),
        .library(name: "StudyPostgres", targets: ["StudyPostgres"]),
        .library(name: "Interop", targets: ["Interop"]),
        .library(name: "StudyFHIR", targets: ["StudyFHIR"]),
        .library(name: "ICalendar", targets: ["ICalendar"]),
        .library(name: "WebPush", targets: ["WebPush"]),
        .library(name: "Mail", targets: ["Mail"]),
        .executable(name: "studykit", targets: ["studykit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // multipart/form-data bodies (file questions in the web runner): Vapor's parser, no Vapor needed.
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // PostgreSQL, the second backend of the storage layer (several server processes over one database): Vapor's
        // async driver with its connection pool (PostgresClient), which runs as a Service like the rest of the server.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The logger postgres-nio's calls take (a silent one unless a caller gives its own).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // SHA-256 and Ed25519 for sealed consent records.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // The study server's HTTP layer.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // HTTP request parts as the server's channel handlers see them (closing connections whose body is too slow);
        // Hummingbird already builds on it.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // NIOEmbedded: the server's channel handlers tested on a channel with a clock the test moves.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // STARTTLS for the reminder mail's SMTP submission (Mail); postgres-nio builds on it already.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // The consent PDF printer runs as a Service in the server's service group (Hummingbird builds on it).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Markdown section content in consent documents.
        .package(url: "https://github.com/JohnSundell/Ink", from: "0.6.0"),
        // Logic-less HTML templates for the participant pages (StudyWeb).
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // YAML study files (study.yaml): study teams write and review them by hand, and YAML takes comments.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // ZIP archives of the consent and JSON exports (signed PDFs with their records, attached files), streamed to disk.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // bcrypt for the study team's console passwords (HummingbirdBcrypt alone: a C bcrypt with no other dependency).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // The REST API under /api/v1, written OpenAPI-first: the generator's build plugin turns the checked-in
        // Sources/StudyServerAPI/openapi.yaml into types and a server protocol; Hummingbird serves it.
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
    ],
    targets: [
        .target(name: "JSONDiagnostics"),
        // The clock, UUIDs, randomness, calendar and locale every other module is given (never the system's directly).
        .target(name: "StudyKitEnvironment"),
        // swift-crypto for the SHA-256 of attached files (CryptoKit on Apple platforms, so Research still builds there).
        .target(name: "Research", dependencies: ["JSONDiagnostics", "StudyKitEnvironment", .product(name: "Crypto", package: "swift-crypto")]),
        // ResearchKit's active tasks: factories, the checking of what the browser measured, and the analyzers.
        .target(name: "ActiveTasks", dependencies: ["Research", "JSONDiagnostics"]),
        .target(name: "CareStore", dependencies: ["JSONDiagnostics", "StudyKitEnvironment"]),
        // FHIR R4: Questionnaires in as tasks and responses both ways, FHIRPath; consents, care plans and outcomes out as
        // resources. swift-crypto's SHA-1 for Attachment.hash and the name-based UUIDs of Bundle entries.
        .target(name: "Interop", dependencies: ["Research", "Consent", "CareStore", "JSONDiagnostics", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "Consent",
            dependencies: [
                "Research", "JSONDiagnostics", "StudyKitEnvironment",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Ink", package: "Ink"),
            ]
        ),
        // Printing consent PDFs with Chromium and reading them back with poppler's pdftotext: child processes, which
        // iOS has not, so kept out of Consent.
        .target(name: "ConsentPrinting", dependencies: ["Consent"]),
        .target(
            name: "StudyWeb",
            dependencies: ["Research", "ActiveTasks", "StudyKitEnvironment", .product(name: "Mustache", package: "swift-mustache")],
            resources: [.copy("Resources")]
        ),
        .target(
            name: "CareStoreSQLite",
            dependencies: ["StudyKitEnvironment", 
                "CareStore", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for binding outcome rows directly (OutcomeRowWriter).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The care store on PostgreSQL: CareStorage over postgres-nio's connection pool.
        .target(
            name: "CareStorePostgres",
            dependencies: ["CareStore", "StudyKitEnvironment", .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "Logging", package: "swift-log"),
                           // ByteBuffer, for dates written as PostgreSQL's microseconds (PostgresTimestamp).
                           .product(name: "NIOCore", package: "swift-nio")]
        ),
        .target(
            name: "Study",
            dependencies: ["Research", "ActiveTasks", "CareStore", "Consent", "JSONDiagnostics", "StudyKitEnvironment", .product(name: "Yams", package: "Yams"),
                           .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                           // SHA-256 of the audit trail's hash chain.
                           .product(name: "Crypto", package: "swift-crypto")],
            // The common passwords a researcher's password may not be (ResearcherPasswordRules).
            resources: [.copy("Resources/common-passwords.txt")]
        ),
        // A study's FHIR side: Questionnaires as surveys (a StudySurveyFormat), their calculators, and the FHIR export.
        .target(name: "StudyFHIR", dependencies: ["Study", "Interop", "Research", "CareStore", "Consent"]),
        // The study server's one file holds both stores' tables, so that one participant action is one transaction.
        .target(name: "StudySQLite", dependencies: ["StudyKitEnvironment", "Study", "Research", "Consent", "CareStore", "CareStoreSQLite",
                                                    .product(name: "GRDB", package: "GRDB.swift")]),
        // The study store on PostgreSQL, and both stores' tables in one schema, so that one participant action is one transaction.
        .target(name: "StudyPostgres", dependencies: ["StudyKitEnvironment", "Study", "Research", "Consent", "CareStore", "CareStorePostgres",
                                                      .product(name: "PostgresNIO", package: "postgres-nio"),
                                                      .product(name: "Logging", package: "swift-log")]),
        // A child process for StudySQLiteTests' durability test: saves task runs until it is killed. Not a product.
        .executableTarget(name: "StudySQLiteCrashWriter", dependencies: ["StudyKitEnvironment", "Study", "StudyFHIR", "StudySQLite", "Research", "Consent", "CareStore"]),
        // A child process for the durability test: writes outcomes until it is killed. Not a product.
        .executableTarget(name: "CareStoreSQLiteCrashWriter", dependencies: ["CareStore", "CareStoreSQLite"]),
        .target(
            name: "StudyServer",
            dependencies: ["StudyKitEnvironment", 
                "Research", "CareStore", "Consent", "ConsentPrinting", "StudyWeb", "Study", "StudyFHIR", "JSONDiagnostics",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // HTTPParserError: a malformed chunked body is the client's fault (400), not the server's.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                "StudyServerAPI", "QRCodes",
                // Reminders: the calendar feed, web push, and mail through SMTP.
                "ICalendar", "WebPush", "Mail",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                // NIOThreadPool: bcrypt runs off the request's executor.
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // RFC 5545 calendars (a participant's calendar feed): VEVENT, RRULE, VALARM and VTIMEZONE written from Foundation's
        // zones. Foundation only.
        .target(name: "ICalendar"),
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar"]),
        // Web push (RFC 8030, 8291, 8292): aes128gcm payload encryption and VAPID tokens, with swift-crypto's P-256,
        // HKDF and AES-GCM; sent with Foundation's URLSession.
        .target(name: "WebPush", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "WebPushTests", dependencies: ["WebPush", .product(name: "Crypto", package: "swift-crypto")]),
        // Reminder mail: MIME messages and an SMTP submission client (STARTTLS, AUTH) on swift-nio and swift-nio-ssl,
        // which postgres-nio already brings; no maintained Swift SMTP client is on this machine.
        .target(name: "Mail", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        .testTarget(name: "MailTests", dependencies: ["Mail", .product(name: "NIOCore", package: "swift-nio"),
                                                      .product(name: "NIOPosix", package: "swift-nio"),
                                                      .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        // libqrencode from Debian (libqrencode-dev), which the console's printable invitations draw their QR codes with.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // QR codes as SVG, from libqrencode's modules.
        .target(name: "QRCodes", dependencies: ["CQRencode"]),
        .testTarget(name: "QRCodesTests", dependencies: ["QRCodes"]),
        // The API's types and server protocol, generated at build time from openapi.yaml (nothing generated is committed).
        .target(
            name: "StudyServerAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            resources: [.copy("openapi.yaml")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "studykit",
            dependencies: ["StudyKitEnvironment", 
                "Research",
                "ActiveTasks",
                "CareStore",
                "CareStoreSQLite",
                "CareStorePostgres",
                "Consent",
                "ConsentPrinting",
                "Interop",
                "Study",
                "StudyFHIR",
                "StudySQLite",
                "StudyPostgres",
                "StudyServer",
                "StudyWeb",
                // Reminder settings of `studykit serve`: mail addresses and SMTP, push services.
                "Mail", "WebPush",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What test targets share: the PostgreSQL database of `make test` (STUDYKIT_TEST_POSTGRES_URL), and the test
        // process's scratch folder, removed at exit (TestScratchFolder).
        .target(name: "PostgresTestSupport", dependencies: ["CareStorePostgres", .product(name: "PostgresNIO", package: "postgres-nio")],
                path: "Tests/PostgresTestSupport"),
        .testTarget(name: "StudyKitEnvironmentTests", dependencies: ["StudyKitEnvironment"]),
        .testTarget(name: "JSONDiagnosticsTests", dependencies: ["JSONDiagnostics"]),
        .testTarget(name: "ResearchTests", dependencies: ["Research", "StudyKitEnvironment"]),
        .testTarget(name: "ActiveTasksTests", dependencies: ["ActiveTasks", "Research", "JSONDiagnostics"]),
        // HL7's example Questionnaires are read from ../shared/fixtures/fhir (HL7Fixtures), never copied in.
        // FHIRPathSuiteExclusions.txt: the tests of HL7's FHIRPath suite that do not pass, read by the test from its folder.
        .testTarget(name: "InteropTests", dependencies: ["StudyKitEnvironment", "Interop", "Research", "Consent", "CareStore", .product(name: "Crypto", package: "swift-crypto")],
                    exclude: ["FHIRPathSuiteExclusions.txt"]),
        // StudySQLite: the conformance suite also runs on the study server's one database, which holds both stores;
        // CareStorePostgres: and on PostgreSQL (STUDYKIT_TEST_POSTGRES_URL, which `make test` sets); StudyPostgres: and
        // on PostgreSQL's study database, both stores in one schema.
        .testTarget(name: "CareStoreTests", dependencies: ["StudyKitEnvironment", "CareStore", "CareStoreSQLite", "StudySQLite", "CareStorePostgres", "StudyPostgres", "PostgresTestSupport",
                                                           "JSONDiagnostics", .product(name: "PostgresNIO", package: "postgres-nio")]),
        // Printing/ tests ConsentPrinting with the same record fixtures.
        .testTarget(name: "ConsentTests", dependencies: ["StudyKitEnvironment", "Consent", "ConsentPrinting", "Research"]),
        .testTarget(name: "StudyWebTests", dependencies: ["StudyKitEnvironment", "StudyWeb", "Research", .product(name: "Mustache", package: "swift-mustache")]),
        .testTarget(
            name: "StudyServerTests",
            dependencies: ["StudyKitEnvironment", 
                "StudyServer", .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // Raw connections that hold server-sent event streams open.
                .product(name: "NIOPosix", package: "swift-nio"),
                // Editing the data folder's databases under the server, as someone with sqlite3 would.
                .product(name: "GRDB", package: "GRDB.swift"),
                // The database the fixture gives the service (the server itself knows no backend).
                "StudySQLite", "CareStoreSQLite",
                // Opening the participant's copy of their data.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // Data folders in the test process's scratch folder, removed at exit.
                "PostgresTestSupport",
            ]
        ),
        // The stores and the study module make data folders for `studykit export` to read.
        .testTarget(name: "StudykitCLITests", dependencies: ["studykit", "Study", "StudyFHIR", "StudySQLite", "CareStore", "CareStoreSQLite", "Consent",
                                                        .product(name: "GRDB", package: "GRDB.swift")]),
        // Conformance/ runs the study store's suite on every backend, the server's one SQLite file included, and on
        // PostgreSQL (STUDYKIT_TEST_POSTGRES_URL, which `make test` sets); Postgres/ tests what PostgreSQL itself refuses.
        .testTarget(name: "StudyTests", dependencies: ["StudyKitEnvironment", "JSONDiagnostics", "StudySQLite", "StudyPostgres", "CareStorePostgres", "PostgresTestSupport",
                                                    "Study", "StudyFHIR", "Research", "CareStore", "Consent", "Interop",
                                                    .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                                                    .product(name: "PostgresNIO", package: "postgres-nio")]),
        .testTarget(
            name: "StudySQLiteTests",
            dependencies: ["StudyKitEnvironment", "Study", "StudyFHIR", "StudySQLite", "StudySQLiteCrashWriter", "Research", "Consent", "CareStore", "CareStoreSQLite",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "CareStoreSQLiteTests",
            dependencies: ["StudyKitEnvironment", "CareStore", "CareStoreSQLite", "CareStoreSQLiteCrashWriter", .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
