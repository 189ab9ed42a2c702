/// The PostgreSQL schema (namespace) that holds a care store's tables: `public` unless told otherwise.
///
/// ```swift
/// let storage = PostgresCareStorage(client: client, schema: try PostgresCareSchema("care"))
/// ```
///
/// Every statement names its tables with the schema (`care.version`), so a connection's `search_path` never decides
/// where care data goes, and several stores can share one database, each in its own schema (as each test does).
public struct PostgresCareSchema: Hashable, Sendable, CustomStringConvertible {
    /// The schema's name: lower-case ASCII letters, digits and underscores, starting with a letter or an underscore,
    /// at most 63 characters (PostgreSQL's limit), so it is written in SQL as it is, without quotes.
    public let name: String

    /// The `public` schema, every database's default.
    public static let `public` = PostgresCareSchema(checked: "public")

    /// The schema called `name`; throws ``PostgresCareStorageError/invalidSchemaName(_:)`` for a name that is not
    /// lower-case letters, digits and underscores (starting with a letter or underscore), or longer than 63 characters.
    public init(_ name: String) throws {
        let bytes = Array(name.utf8)
        let valid = !bytes.isEmpty && bytes.count <= 63
            && bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
            && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[0])
        guard valid else { throw PostgresCareStorageError.invalidSchemaName(name) }
        self.name = name
    }

    private init(checked name: String) { self.name = name }

    /// `name.table`, a table (or function) of this schema as SQL names it.
    func qualified(_ table: String) -> String { name + "." + table }

    /// The schema's name.
    public var description: String { name }
}
