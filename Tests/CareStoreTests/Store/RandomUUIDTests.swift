import Foundation
import Testing
@testable import CareStore

@Suite("Random UUIDs")
struct RandomUUIDTests {
    @Test func areVersion4WithTheRFC4122Variant() {
        for _ in 0..<1_000 {
            let text = UUID.randomVersion4().uuidString
            let characters = Array(text)
            #expect(characters[14] == "4")
            #expect("89AB".contains(characters[19]))
        }
    }

    @Test func doNotRepeat() {
        let uuids = Set((0..<10_000).map { _ in UUID.randomVersion4() })
        #expect(uuids.count == 10_000)
    }
}
