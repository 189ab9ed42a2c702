import Foundation

/// Gathers resources into a FHIR R4 `Bundle` of type `collection`, such as all of one participant's resources.
///
/// ```swift
/// let bundle = try FHIRBundleBuilder().collection(id: participant.id, resources: [patient, consent, provenance],
///                                                 timestamp: now)
/// ```
///
/// Each entry's `fullUrl` is `urn:uuid:` and a name-based UUID (RFC 9562 version 5) of the resource's `Type/id`, so
/// the same resource has the same `fullUrl` in every export. Inside the Bundle every reference to another entry
/// (`Patient/p-0042`) is written as that entry's `fullUrl`, as FHIR resolves references in a Bundle whose `fullUrl`s are
/// URNs; references to resources outside the Bundle stay as they are. The same resources in the NDJSON files keep
/// their relative `Type/id` references, as FHIR Bulk Data expects.
public struct FHIRBundleBuilder: Sendable {
    /// Creates a builder.
    public init() {}

    /// A collection Bundle `id` of `resources`, in their order, made at `timestamp`. Throws
    /// ``FHIRExportError/invalidResource(_:)`` when two resources have the same type and id.
    public func collection(id: String, resources: [FHIRResource], timestamp: Date) throws(FHIRExportError) -> FHIRResource {
        try FHIRResource.requireValidID(id, for: "Bundle")
        var fullURLs: [String: String] = [:]
        for resource in resources {
            guard fullURLs.updateValue(Self.fullURL(of: resource), forKey: resource.reference) == nil else {
                throw .invalidResource("two resources in one Bundle are \(resource.reference)")
            }
        }
        let entries: [FHIRJSON] = resources.map { resource in
            .fields([
                "fullUrl": .string(fullURLs[resource.reference]!),
                "resource": resource.json.replacingStrings(forKey: "reference") { fullURLs[$0] ?? $0 },
            ])
        }
        return try FHIRResource(json: .fields([
            "resourceType": "Bundle",
            "id": .string(id),
            "type": "collection",
            "timestamp": .string(FHIRDateFormat.instant(timestamp)),
            "entry": entries.isEmpty ? nil : .array(entries),
        ]))
    }

    /// The `fullUrl` of `resource` in any Bundle: `urn:uuid:` and the version-5 UUID of its `Type/id`.
    public static func fullURL(of resource: FHIRResource) -> String {
        "urn:uuid:" + NameBasedUUID.uuid(name: resource.reference, namespace: NameBasedUUID.fhirExportNamespace).uuidString.lowercased()
    }
}
