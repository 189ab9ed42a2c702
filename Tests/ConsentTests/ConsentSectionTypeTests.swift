import Foundation
import Testing
@testable import Consent

@Suite struct ConsentSectionTypeTests {
    @Test func decodesEveryTypeByName() throws {
        for type in ConsentSectionType.allCases {
            let data = Data("\"\(type.rawValue)\"".utf8)
            #expect(try JSONDecoder().decode(ConsentSectionType.self, from: data) == type)
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ConsentSectionType.self, from: Data("\"legal\"".utf8)) }
    }
}
