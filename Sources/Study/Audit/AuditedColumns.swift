/// The study data the audit trail follows, whatever the database: for each audited table, its columns in the order
/// the trail's JSON lists them and how each is shown. The SQLite and PostgreSQL trails make their triggers from this
/// one list, so that a row changed through either backend is written to the trail alike (and a trail copied from one
/// into the other, `studykit migrate`, goes on the same way). Each backend adds what only it has: its key and
/// participant expressions, and its own way of storing an outcome's values (SQLite's `outcomeValue` rows, PostgreSQL's
/// `outcomeValues` column).
///
/// ```swift
/// for (table, columns) in AuditedColumns.tables { … one trigger per table, one JSON member per column … }
/// ```
public enum AuditedColumns {
    /// How a column's value is shown in the trail's JSON.
    public enum Shown: Hashable, Sendable {
        /// As stored.
        case asStored
        /// A UUID, as lowercase hex without dashes.
        case uuid
        /// A time, as seconds since 1970 (what SQLite stores).
        case time
        /// Text (stored as text or bytes), as text.
        case text
        /// Its SHA-256, in hex: bytes, or text (`ofText`, where the database tells them apart) as UTF-8.
        case sha256(ofText: Bool)
        /// What a participant gave, as its digest keyed with the ``AuditKey``: bytes, or JSON (`ofJSON`, where the
        /// database keeps it as JSON) as its text.
        case keyedDigest(ofJSON: Bool)
    }

    /// A column of an audited table: its name in the JSON, the stored column whose change it shows, how it is shown,
    /// and whether it is the row's own time of change, which an update leaves out (the audit row's time says it).
    public struct Column: Hashable, Sendable {
        /// Its name in the JSON.
        public let name: String
        /// The stored column.
        public let column: String
        /// How it is shown.
        public let shown: Shown
        /// Whether it is the row's own time of change.
        public let isUpdateTime: Bool

        init(_ name: String, _ shown: Shown = .asStored, of column: String? = nil, isUpdateTime: Bool = false) {
            self.name = name
            self.column = column ?? name
            self.shown = shown
            self.isUpdateTime = isUpdateTime
        }
    }

    /// The audited tables both backends have, with their columns, in the order their triggers are made.
    public static let tables: [(table: String, columns: [Column])] = [
        ("participant", [
            Column("id"), Column("patientID"), Column("timeZone"), Column("language"), Column("enrolledAt", .time), Column("invitationID", .uuid),
        ]),
        ("invitation", [
            Column("id", .uuid), Column("label"), Column("createdAt", .time), Column("expiresAt", .time), Column("usedAt", .time),
            Column("usedBy"), Column("revokedAt", .time),
        ]),
        ("taskRun", [
            Column("id", .uuid), Column("participantID"), Column("taskID"), Column("occurrence"), Column("state"),
            Column("restorationDataHMAC", .keyedDigest(ofJSON: false), of: "restorationData"),
            Column("resultHMAC", .keyedDigest(ofJSON: false), of: "result"), Column("createdAt", .time),
            Column("updatedAt", .time, isUpdateTime: true),
        ]),
        ("consentRecord", [
            Column("id", .uuid), Column("participantID"), Column("kind"), Column("sealedJSON", .text), Column("storedAt", .time),
        ]),
        ("consentPDF", [
            Column("recordID", .uuid), Column("state"), Column("pdfSHA256", .sha256(ofText: false), of: "pdf"), Column("path"),
            Column("failure"), Column("updatedAt", .time, isUpdateTime: true),
        ]),
        ("researcher", [
            Column("id", .uuid), Column("email"), Column("role"), Column("createdAt", .time),
            Column("passwordHashSHA256", .sha256(ofText: true), of: "passwordHash"), Column("failedSignIns"), Column("lockedUntil", .time),
            Column("removedAt", .time),
        ]),
        ("version", [
            Column("uuid", .uuid), Column("kind"), Column("id"), Column("effectiveDate", .time), Column("deletedDate", .time),
            Column("previousVersionUUID", .uuid), Column("nextVersionUUID", .uuid), Column("payload", .text),
        ]),
        ("outcome", [
            Column("uuid", .uuid), Column("taskUUID", .uuid), Column("occurrenceIndex"), Column("createdDate", .time),
            Column("deletedDate", .time), Column("timeZone"), Column("source"), Column("detailsHMAC", .keyedDigest(ofJSON: true), of: "details"),
        ]),
        ("runFile", [
            Column("runID", .uuid), Column("participantID"), Column("name"), Column("dataHMAC", .keyedDigest(ofJSON: false), of: "data"),
        ]),
        // A participant's address and push keys are what they gave: keyed digests.
        ("reminderChannel", [
            Column("id", .uuid), Column("participantID"), Column("kind"), Column("addressHMAC", .keyedDigest(ofJSON: true), of: "address"),
            Column("pushKeysHMAC", .keyedDigest(ofJSON: true), of: "pushKeys"), Column("label"), Column("createdAt", .time),
            Column("confirmedAt", .time),
        ]),
        ("reminderPreference", [
            Column("participantID"), Column("preferences"), Column("updatedAt", .time, isUpdateTime: true),
        ]),
        ("reminderDelivery", [
            Column("key"), Column("participantID"), Column("reminderID"), Column("taskID"), Column("occurrence"), Column("channelID", .uuid),
            Column("channelKind"), Column("dueAt", .time), Column("state"), Column("attempts"), Column("claimedUntil", .time),
            Column("nextAttemptAt", .time), Column("detail"), Column("createdAt", .time), Column("updatedAt", .time, isUpdateTime: true),
        ]),
    ]

    /// The columns of the audited table `table`; empty for a table that is not audited.
    public static func columns(of table: String) -> [Column] {
        tables.first { $0.table == table }?.columns ?? []
    }
}
