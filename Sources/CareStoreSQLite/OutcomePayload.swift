import CareStore
import Foundation

/// The JSON of an outcome as the `outcome.payload` column keeps it, written and read without `Codable`.
///
/// The JSON is the same document `JSONEncoder` makes of an ``Outcome`` with its default strategies (dates as
/// seconds since 2001, data as Base64, nil optionals left out), so either side can read what the other wrote:
/// `JSONDecoder` reads these payloads, and ``decode(_:)`` reads `JSONEncoder`'s. Foundation's coders cost about
/// 20 µs an outcome each way on Linux, which alone held inserts to 50,000 a second and made a month of adherence
/// spend a third of its time decoding; these take about a tenth of that.
///
/// When the payload is not in the expected shape, decoding falls back to `JSONDecoder`, which either reads it or
/// throws the error it would have thrown anyway. Fields are listed by hand: a test fails when ``Outcome``,
/// ``OutcomeValue`` or ``Note`` gain a stored property, so that the new field is added here too.
enum OutcomePayload {
    /// The outcome as JSON. Throws, as `JSONEncoder` does, for a non-finite number.
    static func encode(_ outcome: Outcome) throws -> Data {
        var writer = Writer()
        writer.bytes.reserveCapacity(320)
        writer.open()
        writer.key("uuid"); writer.uuid(outcome.uuid)
        writer.key("taskUUID"); writer.uuid(outcome.taskUUID)
        writer.key("occurrenceIndex"); writer.integer(outcome.occurrenceIndex)
        writer.key("values")
        writer.bytes.append(UInt8(ascii: "["))
        for (index, value) in outcome.values.enumerated() {
            if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            try writer.outcomeValue(value)
        }
        writer.bytes.append(UInt8(ascii: "]"))
        if let date = outcome.createdDate { writer.key("createdDate"); try writer.date(date) }
        if let date = outcome.deletedDate { writer.key("deletedDate"); try writer.date(date) }
        writer.key("notes")
        writer.bytes.append(UInt8(ascii: "["))
        for (index, note) in outcome.notes.enumerated() {
            if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            try writer.note(note)
        }
        writer.bytes.append(UInt8(ascii: "]"))
        writer.key("tags")
        writer.bytes.append(UInt8(ascii: "["))
        for (index, tag) in outcome.tags.enumerated() {
            if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            writer.string(tag)
        }
        writer.bytes.append(UInt8(ascii: "]"))
        if let remoteID = outcome.remoteID { writer.key("remoteID"); writer.string(remoteID) }
        if let source = outcome.source { writer.key("source"); writer.string(source) }
        writer.key("userInfo")
        writer.open()
        for (key, value) in outcome.userInfo { writer.key(key); writer.string(value) }
        writer.close()
        writer.key("timeZone")
        writer.open()
        writer.key("identifier"); writer.string(outcome.timeZone.identifier)
        writer.close()
        writer.close()
        return Data(writer.bytes)
    }

    /// The outcome in `bytes`, read by ``Reader`` or, when that fails, by `JSONDecoder`.
    static func decode(_ bytes: UnsafeRawBufferPointer, timeZones: inout [String: TimeZone]) throws -> Outcome {
        var reader = Reader(bytes: bytes)
        if let outcome = try? reader.outcome(timeZones: &timeZones), reader.atEnd() { return outcome }
        return try JSONDecoder().decode(Outcome.self, from: Data(bytes))
    }

    /// A list of strings as a JSON array (the `version.tags` column).
    static func encode(strings: [String]) -> String {
        var writer = Writer()
        writer.bytes.append(UInt8(ascii: "["))
        for (index, text) in strings.enumerated() {
            if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            writer.string(text)
        }
        writer.bytes.append(UInt8(ascii: "]"))
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The strings of a JSON array.
    static func decodeStrings(_ json: String) throws -> [String] {
        var json = json
        return try json.withUTF8 { utf8 in
            var reader = Reader(bytes: UnsafeRawBufferPointer(utf8))
            let strings = try reader.array { try $0.string() }
            guard reader.atEnd() else { throw Unexpected() }
            return strings
        }
    }

    // MARK: - Writing

    struct Writer {
        var bytes: [UInt8] = []
        private var needsComma = false

        mutating func open() {
            bytes.append(UInt8(ascii: "{"))
            needsComma = false
        }

        mutating func close() {
            bytes.append(UInt8(ascii: "}"))
            needsComma = true
        }

        /// A key of the schema: plain ASCII with nothing to escape.
        mutating func key(_ name: StaticString) {
            if needsComma { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
            needsComma = true
        }

        /// A key from the data (a `userInfo` key).
        mutating func key(_ name: String) {
            if needsComma { bytes.append(UInt8(ascii: ",")) }
            string(name)
            bytes.append(UInt8(ascii: ":"))
            needsComma = true
        }

        mutating func string(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            var text = text
            let plain = text.withUTF8 { utf8 in
                // Nothing to escape, the common case: the bytes as they are.
                for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
                bytes.append(contentsOf: utf8)
                return true
            }
            if plain {
                bytes.append(UInt8(ascii: "\""))
                return
            }
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                              hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }

        mutating func uuid(_ uuid: UUID) {
            bytes.append(UInt8(ascii: "\""))
            uuid.appendUppercaseText(to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }

        mutating func integer(_ value: Int) {
            bytes.append(contentsOf: String(value).utf8)
        }

        mutating func double(_ value: Double) throws {
            guard value.isFinite else {
                throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "a non-finite number cannot be stored as JSON"))
            }
            bytes.append(contentsOf: value.description.utf8) // the shortest text that reads back as the same Double
        }

        mutating func date(_ date: Date) throws {
            try double(date.timeIntervalSinceReferenceDate)
        }

        mutating func outcomeValue(_ value: OutcomeValue) throws {
            open()
            key("value")
            open()
            switch value.value {
            case .integer(let number): key("integer"); open(); key("_0"); integer(number); close()
            case .double(let number): key("double"); open(); key("_0"); try double(number); close()
            case .boolean(let flag): key("boolean"); open(); key("_0"); bytes.append(contentsOf: (flag ? "true" : "false").utf8); close()
            case .text(let text): key("text"); open(); key("_0"); string(text); close()
            case .binary(let data): key("binary"); open(); key("_0"); string(data.base64EncodedString()); close()
            case .date(let date): key("date"); open(); key("_0"); try self.date(date); close()
            }
            close()
            if let kind = value.kind { key("kind"); string(kind) }
            if let units = value.units { key("units"); string(units) }
            if let date = value.createdDate { key("createdDate"); try self.date(date) }
            close()
        }

        mutating func note(_ note: Note) throws {
            open()
            if let author = note.author { key("author"); string(author) }
            if let title = note.title { key("title"); string(title) }
            if let content = note.content { key("content"); string(content) }
            if let date = note.createdDate { key("createdDate"); try self.date(date) }
            close()
        }
    }

    // MARK: - Reading

    /// Not what the reader expected; the caller falls back to `JSONDecoder`.
    struct Unexpected: Error {}

    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func atEnd() -> Bool {
            skipSpace()
            return index == bytes.count
        }

        mutating func outcome(timeZones: inout [String: TimeZone]) throws -> Outcome {
            var uuid: UUID?, taskUUID: UUID?, occurrence: Int?, values: [OutcomeValue]?, createdDate: Date?, deletedDate: Date?
            var notes: [Note]?, tags: [String]?, remoteID: String?, source: String?, userInfo: [String: String]?, timeZone: TimeZone?
            try object { reader, key in
                switch key {
                case "uuid": uuid = try reader.uuid()
                case "taskUUID": taskUUID = try reader.uuid()
                case "occurrenceIndex": occurrence = try reader.integer()
                case "values": values = try reader.array { try $0.outcomeValue() }
                case "createdDate": createdDate = try reader.optional { try $0.date() }
                case "deletedDate": deletedDate = try reader.optional { try $0.date() }
                case "notes": notes = try reader.array { try $0.note() }
                case "tags": tags = try reader.array { try $0.string() }
                case "remoteID": remoteID = try reader.optional { try $0.string() }
                case "source": source = try reader.optional { try $0.string() }
                case "userInfo":
                    var info: [String: String] = [:]
                    try reader.object { reader, key in info[key] = try reader.string() }
                    userInfo = info
                case "timeZone":
                    var identifier: String?
                    try reader.object { reader, key in
                        if key == "identifier" { identifier = try reader.string() } else { try reader.skipValue() }
                    }
                    guard let identifier else { throw Unexpected() }
                    if let known = timeZones[identifier] {
                        timeZone = known
                    } else {
                        guard let zone = TimeZone(identifier: identifier) else { throw Unexpected() }
                        timeZones[identifier] = zone
                        timeZone = zone
                    }
                default: try reader.skipValue()
                }
            }
            guard let uuid, let taskUUID, let occurrence, let values, let notes, let tags, let userInfo, let timeZone else { throw Unexpected() }
            var outcome = Outcome(taskUUID: taskUUID, occurrenceIndex: occurrence, values: values, uuid: uuid, timeZone: timeZone,
                                  notes: notes, tags: tags, remoteID: remoteID, source: source, userInfo: userInfo)
            outcome.createdDate = createdDate
            outcome.deletedDate = deletedDate
            return outcome
        }

        mutating func outcomeValue() throws -> OutcomeValue {
            var value: OutcomeValue.Value?, kind: String?, units: String?, createdDate: Date?
            try object { reader, key in
                switch key {
                case "value":
                    try reader.object { reader, key in
                        var payload: OutcomeValue.Value?
                        try reader.object { reader, field in
                            guard field == "_0" else { return try reader.skipValue() }
                            switch key {
                            case "integer": payload = .integer(try reader.integer())
                            case "double": payload = .double(try reader.double())
                            case "boolean": payload = .boolean(try reader.boolean())
                            case "text": payload = .text(try reader.string())
                            case "binary":
                                guard let data = Data(base64Encoded: try reader.string()) else { throw Unexpected() }
                                payload = .binary(data)
                            case "date": payload = .date(try reader.date())
                            default: throw Unexpected()
                            }
                        }
                        guard value == nil, let payload else { throw Unexpected() }
                        value = payload
                    }
                case "kind": kind = try reader.optional { try $0.string() }
                case "units": units = try reader.optional { try $0.string() }
                case "createdDate": createdDate = try reader.optional { try $0.date() }
                default: try reader.skipValue()
                }
            }
            guard let value else { throw Unexpected() }
            return OutcomeValue(value, kind: kind, units: units, createdDate: createdDate)
        }

        mutating func note() throws -> Note {
            var note = Note()
            try object { reader, key in
                switch key {
                case "author": note.author = try reader.optional { try $0.string() }
                case "title": note.title = try reader.optional { try $0.string() }
                case "content": note.content = try reader.optional { try $0.string() }
                case "createdDate": note.createdDate = try reader.optional { try $0.date() }
                default: try reader.skipValue()
                }
            }
            return note
        }

        // MARK: JSON

        private mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
                default: return
                }
            }
        }

        /// The next byte after white space, not consumed.
        private mutating func peek() throws -> UInt8 {
            skipSpace()
            guard index < bytes.count else { throw Unexpected() }
            return bytes[index]
        }

        private mutating func expect(_ byte: UInt8) throws {
            guard try peek() == byte else { throw Unexpected() }
            index += 1
        }

        /// Calls `body` with each key of an object, positioned at its value, which `body` must consume.
        mutating func object(_ body: (inout Reader, String) throws -> Void) throws {
            try expect(UInt8(ascii: "{"))
            if try peek() == UInt8(ascii: "}") { index += 1; return }
            while true {
                let key = try string()
                try expect(UInt8(ascii: ":"))
                try body(&self, key)
                switch try peek() {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): index += 1; return
                default: throw Unexpected()
                }
            }
        }

        mutating func array<T>(_ element: (inout Reader) throws -> T) throws -> [T] {
            try expect(UInt8(ascii: "["))
            var elements: [T] = []
            if try peek() == UInt8(ascii: "]") { index += 1; return elements }
            while true {
                elements.append(try element(&self))
                switch try peek() {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"): index += 1; return elements
                default: throw Unexpected()
                }
            }
        }

        /// nil for a JSON null, else the value `read` reads.
        mutating func optional<T>(_ read: (inout Reader) throws -> T) throws -> T? {
            if try peek() == UInt8(ascii: "n") { try literal("null"); return nil }
            return try read(&self)
        }

        private mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw Unexpected() }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw Unexpected() }
            index += count
        }

        mutating func boolean() throws -> Bool {
            if try peek() == UInt8(ascii: "t") { try literal("true"); return true }
            try literal("false")
            return false
        }

        mutating func string() throws -> String {
            try expect(UInt8(ascii: "\""))
            let start = index
            // The common case: no escapes, so the string is the bytes as they are.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                index += 1
            }
            var utf8 = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(decoding: utf8, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw Unexpected() }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                    case UInt8(ascii: "b"): utf8.append(0x08)
                    case UInt8(ascii: "f"): utf8.append(0x0C)
                    case UInt8(ascii: "n"): utf8.append(0x0A)
                    case UInt8(ascii: "r"): utf8.append(0x0D)
                    case UInt8(ascii: "t"): utf8.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            // A surrogate pair: the low half must follow as another \u escape.
                            try literal("\\u")
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw Unexpected() }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw Unexpected() }
                        utf8.append(contentsOf: String(Character(unicode)).utf8)
                    default: throw Unexpected()
                    }
                case 0..<0x20: throw Unexpected()
                default: utf8.append(byte)
                }
            }
            throw Unexpected()
        }

        private mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count else { throw Unexpected() }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw Unexpected()
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// The text of a JSON number.
        private mutating func numberText() throws -> Substring {
            skipSpace()
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                     UInt8(ascii: "e"), UInt8(ascii: "E"): index += 1
                default:
                    guard index > start else { throw Unexpected() }
                    return Substring(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                }
            }
            throw Unexpected()
        }

        mutating func integer() throws -> Int {
            guard let value = Int(try numberText()) else { throw Unexpected() }
            return value
        }

        mutating func double() throws -> Double {
            guard let value = Double(try numberText()) else { throw Unexpected() }
            return value
        }

        mutating func date() throws -> Date {
            Date(timeIntervalSinceReferenceDate: try double())
        }

        mutating func uuid() throws -> UUID {
            // A UUID's text has nothing to escape: read it where it lies.
            try expect(UInt8(ascii: "\""))
            guard index + 37 <= bytes.count, bytes[index + 36] == UInt8(ascii: "\""),
                  let uuid = UUID(text: UnsafeRawBufferPointer(rebasing: bytes[index..<index + 36])) else { throw Unexpected() }
            index += 37
            return uuid
        }

        /// Consumes one value of any kind.
        mutating func skipValue() throws {
            switch try peek() {
            case UInt8(ascii: "{"): try object { reader, _ in try reader.skipValue() }
            case UInt8(ascii: "["): _ = try array { try $0.skipValue() }
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: _ = try numberText()
            }
        }
    }
}

extension UUID {
    /// The UUID as `uuidString` spells it (uppercase, with hyphens), without the C formatting that `uuidString`
    /// uses on Linux, which costs about a microsecond.
    var text: String {
        String(unsafeUninitializedCapacity: 36) { writeText(into: $0) }
    }

    /// Appends the 36 bytes of ``text`` to `bytes`.
    func appendUppercaseText(to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 36))
        bytes.withUnsafeMutableBufferPointer { buffer in
            _ = writeText(into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Reads a UUID spelled as `uuidString` spells it (either case), without the `sscanf` that
    /// `UUID(uuidString:)` uses on Linux; nil when `text` is anything else.
    init?(text: String) {
        var text = text
        guard let uuid = text.withUTF8({ UUID(text: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = uuid
    }

    /// Reads a UUID from the 36 bytes of its text; nil when they are anything else.
    init?(text utf8: UnsafeRawBufferPointer) {
        guard utf8.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &uuid) { bytes -> Bool in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    guard utf8[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = Self.hexDigit(utf8[position]), let low = Self.hexDigit(utf8[position + 1]) else { return false }
                bytes[index] = high << 4 | low
                position += 2
            }
            return true
        }
        guard parsed else { return nil }
        self.init(uuid: uuid)
    }

    private static func hexDigit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private func writeText(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let digits: StaticString = "0123456789ABCDEF"
        var position = 0
        withUnsafeBytes(of: uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                buffer[position] = digits.utf8Start[Int(byte >> 4)]
                buffer[position + 1] = digits.utf8Start[Int(byte & 0x0F)]
                position += 2
            }
        }
        return position
    }
}
