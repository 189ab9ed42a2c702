import Foundation

// Temporary JSON form until the condition language lands: the text form only.
extension Condition: Codable {
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "conditions are not decodable yet"))
    }
    public func encode(to encoder: any Encoder) throws {}
}
