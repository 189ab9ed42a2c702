import Crypto
import Foundation

/// Name-based UUIDs (RFC 9562 version 5: SHA-1 of a namespace and a name): the same name always gives the same UUID,
/// so an export run twice gives every Bundle entry the same `fullUrl`.
enum NameBasedUUID {
    /// The namespace of StudyKit's FHIR export; names in it are `ResourceType/id`.
    static let fhirExportNamespace = UUID(uuidString: "6f0b7a3e-2c1d-4e8a-9b5f-3d2c1e0f4a6b")!

    /// The version-5 UUID of `name` in `namespace`.
    static func uuid(name: String, namespace: UUID) -> UUID {
        let namespaceBytes = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        var bytes = Array(Insecure.SHA1.hash(data: Data(namespaceBytes + Array(name.utf8))).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
