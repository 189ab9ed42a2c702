import Foundation
import PostgresNIO

/// Where a PostgreSQL database is, as a URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]`
/// (`postgresql://` too), the form `psql` and libpq take.
///
/// ```swift
/// let url = try PostgresDatabaseURL("postgres://studykit@127.0.0.1:5433/study")
/// let client = PostgresClient(configuration: url.configuration)
/// ```
///
/// `sslmode` is `disable`, `prefer` (the default, as libpq's) or `require`; `require` encrypts without checking the
/// server's certificate, as libpq's does. The user name and password may be percent-encoded.
public struct PostgresDatabaseURL: Sendable, CustomStringConvertible {
    /// The host name or address.
    public var host: String
    /// The TCP port: 5432 unless the URL says.
    public var port: Int
    /// The role to connect as.
    public var username: String
    /// The password, when the URL has one.
    public var password: String?
    /// The database's name.
    public var database: String
    /// Whether the connection is encrypted.
    public var tls: TLSMode

    /// How the connection uses TLS.
    public enum TLSMode: String, Sendable {
        /// Never: for a database on the same machine or a private network.
        case disable
        /// When the server offers it.
        case prefer
        /// Always, or no connection.
        case require
    }

    /// Reads `text`; throws ``PostgresCareStorageError/invalidURL(_:reason:)`` for a URL that lacks a host, a user
    /// or a database, or has another scheme or an unknown `sslmode`.
    public init(_ text: String) throws {
        func refuse(_ reason: String) -> PostgresCareStorageError { .invalidURL(text, reason: reason) }
        guard let components = URLComponents(string: text) else { throw refuse("it is not a URL") }
        guard components.scheme == "postgres" || components.scheme == "postgresql" else { throw refuse("the scheme is not postgres://") }
        guard let host = components.host, !host.isEmpty else { throw refuse("it names no host") }
        guard let user = components.percentEncodedUser?.removingPercentEncoding, !user.isEmpty else { throw refuse("it names no user") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw refuse("it names no database") }
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            guard item.name == "sslmode" else { throw refuse("'\(item.name)' is not a parameter StudyKit reads (only sslmode)") }
            guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else { throw refuse("sslmode is disable, prefer or require") }
            tls = mode
        }
        self.host = host
        port = components.port ?? 5432
        username = user
        password = components.percentEncodedPassword?.removingPercentEncoding
        self.database = database
        self.tls = tls
    }

    /// The pool's configuration for this database, with postgres-nio's default options.
    public var configuration: PostgresClient.Configuration {
        let tlsConfiguration: PostgresClient.Configuration.TLS = switch tls {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require:
            {
                var configuration = TLSConfiguration.makeClientConfiguration()
                configuration.certificateVerification = .none
                return .require(configuration)
            }()
        }
        return PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tlsConfiguration)
    }

    /// The URL without its password.
    public var description: String {
        "postgres://\(username)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)?sslmode=\(tls.rawValue)"
    }
}
