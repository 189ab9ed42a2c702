/// One member of a ``FHIRJSON`` object: a key and its value.
public struct FHIRJSONMember: Hashable, Sendable {
    /// The member's name, such as `resourceType` or `coding`.
    public var key: String
    /// The member's value.
    public var value: FHIRJSON

    /// Creates a member.
    public init(key: String, value: FHIRJSON) {
        self.key = key
        self.value = value
    }
}
