import Foundation
import JSONDiagnostics
import StudyKitEnvironment

extension CareTask {
    /// A task version read from the JSON the store wrote for it (`JSONEncoder`'s, through `Codable`), without
    /// `JSONDecoder`: the text is parsed once into a ``JSONTree`` and each member taken as `Codable` would take it.
    /// Reading tens of thousands of stored tasks (a reminder round after a start) costs a third as much so.
    ///
    /// Nil for anything but exactly the shape the encoder writes (a member it does not write, a value of another type,
    /// a key given twice, a schedule with a problem): the caller then decodes with `JSONDecoder`, which says what is
    /// wrong as it always has. So the two never disagree on what they accept.
    init?(storedJSON data: Data) {
        guard let tree = try? JSONTree(data: data), case .object(let members) = tree,
              members.allSatisfy({ Self.storedKeys.contains($0.key) }),
              case .string(let id)? = tree["id"], case .bool(let impactsAdherence)? = tree["impactsAdherence"],
              let title = StoredJSON.optionalString(tree["title"]), let instructions = StoredJSON.optionalString(tree["instructions"]),
              let carePlanUUID = StoredJSON.optionalUUID(tree["carePlanUUID"]),
              let scheduleTree = tree["schedule"], let versionTree = tree["version"], let version = VersionInfo(storedJSON: versionTree)
        else { return nil }
        var reader = ScheduleReader()
        guard let schedule = reader.schedule(scheduleTree), reader.problems.isEmpty else { return nil }
        self.id = id
        self.title = title.value
        self.instructions = instructions.value
        self.impactsAdherence = impactsAdherence
        self.schedule = schedule
        self.carePlanUUID = carePlanUUID.value
        self.version = version
    }

    /// The members `Codable` writes for a task.
    private static let storedKeys: Set<String> = ["id", "title", "instructions", "impactsAdherence", "schedule", "carePlanUUID", "version"]
}

extension VersionInfo {
    /// Version fields as `Codable` writes them (dates as seconds since 2001, `JSONEncoder`'s default; the zone as
    /// `{"identifier": …}`); nil for anything else.
    init?(storedJSON tree: JSONTree) {
        guard case .object(let members) = tree, members.allSatisfy({ Self.storedKeys.contains($0.key) }),
              let uuid = StoredJSON.uuid(tree["uuid"]), let effectiveDate = StoredJSON.date(tree["effectiveDate"]),
              let createdDate = StoredJSON.optionalDate(tree["createdDate"]), let updatedDate = StoredJSON.optionalDate(tree["updatedDate"]),
              let deletedDate = StoredJSON.optionalDate(tree["deletedDate"]),
              let previous = StoredJSON.uuids(tree["previousVersionUUIDs"]), let next = StoredJSON.uuids(tree["nextVersionUUIDs"]),
              let groupIdentifier = StoredJSON.optionalString(tree["groupIdentifier"]), let tags = StoredJSON.strings(tree["tags"]),
              let remoteID = StoredJSON.optionalString(tree["remoteID"]), let source = StoredJSON.optionalString(tree["source"]),
              let userInfo = StoredJSON.stringDictionary(tree["userInfo"]), let asset = StoredJSON.optionalString(tree["asset"]),
              case .array(let noteTrees)? = tree["notes"], let timeZone = StoredJSON.timeZone(tree["timeZone"]) else { return nil }
        var notes: [Note] = []
        for noteTree in noteTrees {
            guard case .object(let noteMembers) = noteTree, noteMembers.allSatisfy({ Note.storedKeys.contains($0.key) }),
                  let author = StoredJSON.optionalString(noteTree["author"]), let title = StoredJSON.optionalString(noteTree["title"]),
                  let content = StoredJSON.optionalString(noteTree["content"]), let created = StoredJSON.optionalDate(noteTree["createdDate"])
            else { return nil }
            notes.append(Note(author: author.value, title: title.value, content: content.value, createdDate: created.value))
        }
        self.init(uuid: uuid, effectiveDate: effectiveDate, timeZone: timeZone, groupIdentifier: groupIdentifier.value, tags: tags,
                  remoteID: remoteID.value, source: source.value, userInfo: userInfo, asset: asset.value, notes: notes)
        self.createdDate = createdDate.value
        self.updatedDate = updatedDate.value
        self.deletedDate = deletedDate.value
        self.previousVersionUUIDs = previous
        self.nextVersionUUIDs = next
    }

    /// The members `Codable` writes for a version.
    private static let storedKeys: Set<String> = ["uuid", "effectiveDate", "createdDate", "updatedDate", "deletedDate", "previousVersionUUIDs",
                                                  "nextVersionUUIDs", "groupIdentifier", "tags", "remoteID", "source", "userInfo", "asset",
                                                  "notes", "timeZone"]
}

extension Note {
    /// The members `Codable` writes for a note.
    fileprivate static let storedKeys: Set<String> = ["author", "title", "content", "createdDate"]
}

/// Values as `JSONEncoder` writes them through `Codable`, each nil when the tree holds anything else. An optional
/// member comes back wrapped (``Present``): absent or `null` is a present nil, another type is nil.
private enum StoredJSON {
    struct Present<Value> {
        var value: Value?
    }

    /// Zones by identifier: making one is costly, and every stored version names one.
    static let timeZones = KeptValues<String, TimeZone>(capacity: 1_024)

    static func optionalString(_ tree: JSONTree?) -> Present<String>? {
        switch tree {
        case nil, .null?: Present(value: nil)
        case .string(let text)?: Present(value: text)
        default: nil
        }
    }

    static func uuid(_ tree: JSONTree?) -> UUID? {
        guard case .string(let text)? = tree else { return nil }
        return UUID(uuidString: text)
    }

    static func optionalUUID(_ tree: JSONTree?) -> Present<UUID>? {
        switch tree {
        case nil, .null?: Present(value: nil)
        case .string(let text)?: UUID(uuidString: text).map { Present(value: $0) }
        default: nil
        }
    }

    static func uuids(_ tree: JSONTree?) -> [UUID]? {
        guard case .array(let items)? = tree else { return nil }
        var uuids: [UUID] = []
        for item in items {
            guard let uuid = uuid(item) else { return nil }
            uuids.append(uuid)
        }
        return uuids
    }

    static func strings(_ tree: JSONTree?) -> [String]? {
        guard case .array(let items)? = tree else { return nil }
        var strings: [String] = []
        for item in items {
            guard case .string(let text) = item else { return nil }
            strings.append(text)
        }
        return strings
    }

    static func stringDictionary(_ tree: JSONTree?) -> [String: String]? {
        guard case .object(let members)? = tree else { return nil }
        var dictionary: [String: String] = [:]
        for member in members {
            guard case .string(let text) = member.value else { return nil }
            dictionary[member.key] = text
        }
        return dictionary
    }

    /// `JSONEncoder`'s default date: seconds since 1 January 2001, a number.
    static func date(_ tree: JSONTree?) -> Date? {
        guard case .number(let text)? = tree, let seconds = Double(text), seconds.isFinite else { return nil }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    static func optionalDate(_ tree: JSONTree?) -> Present<Date>? {
        switch tree {
        case nil, .null?: Present(value: nil)
        default: date(tree).map { Present(value: $0) }
        }
    }

    /// `TimeZone`'s `Codable` form: `{"identifier": "Europe/Berlin"}`.
    static func timeZone(_ tree: JSONTree?) -> TimeZone? {
        guard case .object(let members)? = tree, members.count == 1, members[0].key == "identifier",
              case .string(let identifier) = members[0].value else { return nil }
        if let zone = timeZones[identifier] { return zone }
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        timeZones.keep(zone, for: identifier)
        return zone
    }
}
