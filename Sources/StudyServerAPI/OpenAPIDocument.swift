import Foundation

/// The API's OpenAPI 3.1 document, as checked in beside this file: the source the types and the server protocol of
/// this module are generated from at build time, and what the server serves at `/api/v1/openapi.yaml`.
public enum OpenAPIDocument {
    /// The document's bytes; nil only when the module was built without its resource (a packaging mistake).
    public static let yaml: Data? = Bundle.module.url(forResource: "openapi", withExtension: "yaml").flatMap { try? Data(contentsOf: $0) }
}
