import Foundation
import JSONDiagnostics

/// Turns any `Encodable` into a ``CanonicalJSONValue`` tree, so that the canonical form is always the
/// value's own `Codable` form: a field added to a record is signed without anyone remembering to list it.
enum CanonicalJSONEncoding {
    /// Encodes `value`; throws ``CanonicalJSONError`` for NaN, infinities and other values JSON cannot hold.
    static func encode<Value: Encodable>(_ value: Value) throws -> CanonicalJSONValue {
        let slot = Slot()
        try encodeValue(value, into: slot, codingPath: [])
        return slot.resolved()
    }

    /// Encodes one value into `slot`, writing the types JSONEncoder treats specially the canonical way.
    static func encodeValue<Value: Encodable>(_ value: Value, into slot: Slot, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date: slot.content = .value(.string(ConsentTimestamp.string(from: date)))
        case let data as Data: slot.content = .value(.string(data.base64EncodedString()))
        case let url as URL: slot.content = .value(.string(url.absoluteString))
        case let number as Double: slot.content = .value(try numberValue(number, codingPath: codingPath))
        case let number as Float: slot.content = .value(try numberValue(Double(number), codingPath: codingPath))
        default: try value.encode(to: SlotEncoder(slot: slot, codingPath: codingPath))
        }
    }

    static func numberValue(_ number: Double, codingPath: [any CodingKey]) throws -> CanonicalJSONValue {
        guard let text = CanonicalJSON.numberText(number) else {
            throw CanonicalJSONError(path: JSONDiagnostics.path(codingPath), reason: "\(number) cannot be written in JSON")
        }
        return .number(text)
    }

    /// A place a value is written into; containers hand out child slots.
    final class Slot {
        enum Content {
            case value(CanonicalJSONValue)
            case object(ObjectBox)
            case array(ArrayBox)
        }
        var content: Content?

        func resolved() -> CanonicalJSONValue {
            switch content {
            case nil: .object([:])
            case .value(let value): value
            case .object(let box): .object(box.members.mapValues { $0.resolved() })
            case .array(let box): .array(box.elements.map { $0.resolved() })
            }
        }

        func objectBox() -> ObjectBox {
            if case .object(let box) = content { return box }
            let box = ObjectBox()
            content = .object(box)
            return box
        }

        func arrayBox() -> ArrayBox {
            if case .array(let box) = content { return box }
            let box = ArrayBox()
            content = .array(box)
            return box
        }
    }

    final class ObjectBox { var members: [String: Slot] = [:] }
    final class ArrayBox { var elements: [Slot] = [] }

    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    struct NamedKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct SlotEncoder: Encoder {
        let slot: Slot
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(KeyedContainer<Key>(box: slot.objectBox(), codingPath: codingPath))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            UnkeyedContainer(box: slot.arrayBox(), codingPath: codingPath)
        }
        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(slot: slot, codingPath: codingPath)
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: ObjectBox
        let codingPath: [any CodingKey]

        private func slot(for key: Key) -> Slot {
            let slot = Slot()
            box.members[key.stringValue] = slot
            return slot
        }
        mutating func encodeNil(forKey key: Key) throws { slot(for: key).content = .value(.null) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { slot(for: key).content = .value(.bool(value)) }
        mutating func encode(_ value: String, forKey key: Key) throws { slot(for: key).content = .value(.string(value)) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            slot(for: key).content = .value(try numberValue(value, codingPath: codingPath + [key]))
        }
        mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Double(value), forKey: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { slot(for: key).content = .value(.number(String(value))) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { slot(for: key).content = .value(.number(String(value))) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { slot(for: key).content = .value(.number(String(value))) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { slot(for: key).content = .value(.number(String(value))) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { slot(for: key).content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { slot(for: key).content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { slot(for: key).content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { slot(for: key).content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { slot(for: key).content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { slot(for: key).content = .value(.number(String(value))) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try encodeValue(value, into: slot(for: key), codingPath: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(KeyedContainer<NestedKey>(box: slot(for: key).objectBox(), codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            UnkeyedContainer(box: slot(for: key).arrayBox(), codingPath: codingPath + [key])
        }
        mutating func superEncoder() -> any Encoder {
            let key = NamedKey(stringValue: "super")
            let slot = Slot()
            box.members["super"] = slot
            return SlotEncoder(slot: slot, codingPath: codingPath + [key])
        }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            SlotEncoder(slot: slot(for: key), codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let box: ArrayBox
        let codingPath: [any CodingKey]
        var count: Int { box.elements.count }

        private func nextSlot() -> Slot {
            let slot = Slot()
            box.elements.append(slot)
            return slot
        }
        private var nextPath: [any CodingKey] { codingPath + [IndexKey(box.elements.count)] }
        mutating func encodeNil() throws { nextSlot().content = .value(.null) }
        mutating func encode(_ value: Bool) throws { nextSlot().content = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { nextSlot().content = .value(.string(value)) }
        mutating func encode(_ value: Double) throws {
            let number = try numberValue(value, codingPath: nextPath)
            nextSlot().content = .value(number)
        }
        mutating func encode(_ value: Float) throws { try encode(Double(value)) }
        mutating func encode(_ value: Int) throws { nextSlot().content = .value(.number(String(value))) }
        mutating func encode(_ value: Int8) throws { nextSlot().content = .value(.number(String(value))) }
        mutating func encode(_ value: Int16) throws { nextSlot().content = .value(.number(String(value))) }
        mutating func encode(_ value: Int32) throws { nextSlot().content = .value(.number(String(value))) }
        mutating func encode(_ value: Int64) throws { nextSlot().content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt) throws { nextSlot().content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt8) throws { nextSlot().content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt16) throws { nextSlot().content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt32) throws { nextSlot().content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt64) throws { nextSlot().content = .value(.number(String(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            let path = nextPath
            try encodeValue(value, into: nextSlot(), codingPath: path)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let path = nextPath
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nextSlot().objectBox(), codingPath: path))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = nextPath
            return UnkeyedContainer(box: nextSlot().arrayBox(), codingPath: path)
        }
        mutating func superEncoder() -> any Encoder {
            let path = nextPath
            return SlotEncoder(slot: nextSlot(), codingPath: path)
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]
        mutating func encodeNil() throws { slot.content = .value(.null) }
        mutating func encode(_ value: Bool) throws { slot.content = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { slot.content = .value(.string(value)) }
        mutating func encode(_ value: Double) throws { slot.content = .value(try numberValue(value, codingPath: codingPath)) }
        mutating func encode(_ value: Float) throws { try encode(Double(value)) }
        mutating func encode(_ value: Int) throws { slot.content = .value(.number(String(value))) }
        mutating func encode(_ value: Int8) throws { slot.content = .value(.number(String(value))) }
        mutating func encode(_ value: Int16) throws { slot.content = .value(.number(String(value))) }
        mutating func encode(_ value: Int32) throws { slot.content = .value(.number(String(value))) }
        mutating func encode(_ value: Int64) throws { slot.content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt) throws { slot.content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt8) throws { slot.content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt16) throws { slot.content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt32) throws { slot.content = .value(.number(String(value))) }
        mutating func encode(_ value: UInt64) throws { slot.content = .value(.number(String(value))) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try encodeValue(value, into: slot, codingPath: codingPath)
        }
    }
}
