/// The members of a JSON object, in the order they were written.
///
/// Two objects are equal when they have the same members, whatever their order.
public struct FHIRJSONObject: Sendable, Hashable, Sequence {
    /// The member names in order.
    public private(set) var keys: [String]
    private var values: [String: FHIRJSON]

    /// An object with no members.
    public init() {
        keys = []
        values = [:]
    }

    /// An object with these members in this order; a later member replaces an earlier one with the same name
    /// (keeping the earlier position).
    public init(_ members: [(key: String, value: FHIRJSON)]) {
        self.init()
        for member in members { self[member.key] = member.value }
    }

    /// How many members there are.
    public var count: Int { keys.count }

    /// The member named `key`; setting nil removes it, setting a new name appends it.
    public subscript(key: String) -> FHIRJSON? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// The members in order.
    public func makeIterator() -> some IteratorProtocol<(key: String, value: FHIRJSON)> {
        keys.map { (key: $0, value: values[$0]!) }.makeIterator()
    }

    /// Equal when both have the same members with equal values, in any order.
    public static func == (lhs: FHIRJSONObject, rhs: FHIRJSONObject) -> Bool {
        lhs.values == rhs.values
    }

    /// Hashes the members without their order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
    }
}
