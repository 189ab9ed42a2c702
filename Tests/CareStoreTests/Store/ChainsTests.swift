import Foundation
import Testing
@testable import CareStore

@Suite("Chains")
struct ChainsTests {
    let base = Date(timeIntervalSince1970: 1_772_323_200) // 2026-03-01T00:00:00Z

    func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))! }

    /// A stored version `n` of `id`, effective `day` days after March 1, linked to `previous` and `next`.
    func version(_ n: Int, _ id: String, day: Double, previous: Int? = nil, next: Int? = nil, deleted: Bool = false) -> StoredVersion {
        let effective = base + day * 86_400
        return StoredVersion(kind: .task, uuid: uuid(n), id: id, effectiveDate: effective, deletedDate: deleted ? effective : nil,
                             previousVersionUUID: previous.map(uuid), nextVersionUUID: next.map(uuid), groupIdentifier: nil,
                             remoteID: nil, tags: [], parentUUID: nil, payload: Data())
    }

    /// Three versions of "walk" (the last a tombstone) and one of "ice", in a scrambled order.
    var sample: [StoredVersion] {
        [
            version(3, "walk", day: 9, previous: 2, deleted: true),
            version(10, "ice", day: 0),
            version(1, "walk", day: 0, next: 2),
            version(2, "walk", day: 4, previous: 1, next: 3),
        ]
    }

    @Test func arrangesVersionsOldestFirstByTheirLinks() throws {
        let chains = try Chains(sample)
        #expect(chains.ids == ["ice", "walk"])
        #expect(chains.chain(of: "walk").map(\.uuid) == [uuid(1), uuid(2), uuid(3)])
        #expect(chains.chain(of: "ice").map(\.uuid) == [uuid(10)])
        #expect(chains.chain(of: "run").isEmpty)
        #expect(try Chains([]).ids.isEmpty)
    }

    @Test func headIsTheNewestVersionTombstonesIncluded() throws {
        let chains = try Chains(sample)
        #expect(chains.head(of: "walk")?.uuid == uuid(3))
        #expect(chains.head(of: "walk")?.deletedDate != nil)
        #expect(chains.head(of: "ice")?.uuid == uuid(10))
        #expect(chains.head(of: "run") == nil)
    }

    @Test func versionAtADateIsTheLastEffectiveBeforeIt() throws {
        let chains = try Chains(sample)
        #expect(chains.version(of: "walk", at: nil)?.uuid == uuid(3))
        #expect(chains.version(of: "walk", at: base)?.uuid == nil)          // nothing is in effect before the first version
        #expect(chains.version(of: "walk", at: base + 1)?.uuid == uuid(1))
        #expect(chains.version(of: "walk", at: base + 4 * 86_400)?.uuid == uuid(1)) // exclusive: v2 takes effect then
        #expect(chains.version(of: "walk", at: base + 4 * 86_400 + 1)?.uuid == uuid(2))
        #expect(chains.version(of: "walk", at: base + 30 * 86_400)?.uuid == uuid(3))
        #expect(chains.version(of: "run", at: base + 1) == nil)
    }

    @Test func equalEffectiveDatesFollowTheChainOrder() throws {
        let chains = try Chains([version(2, "a", day: 1, previous: 1), version(1, "a", day: 1, next: 2)])
        #expect(chains.chain(of: "a").map(\.uuid) == [uuid(1), uuid(2)])
        #expect(chains.version(of: "a", at: base + 2 * 86_400)?.uuid == uuid(2))
    }

    @Test func aVersionListedTwiceIsKeptOnce() throws {
        let chains = try Chains(sample + sample)
        #expect(chains.chain(of: "walk").map(\.uuid) == [uuid(1), uuid(2), uuid(3)])
    }

    @Test func brokenLinksEndTheChainInsteadOfLooping() throws {
        // A link to a version that is not there ends the chain.
        #expect(try Chains([version(1, "a", day: 0, next: 7)]).chain(of: "a").map(\.uuid) == [uuid(1)])
        // A cycle (corrupt data) ends when every version has been visited once.
        let cycle = try Chains([version(1, "a", day: 0, next: 2), version(2, "a", day: 1, previous: 1, next: 1)])
        #expect(cycle.chain(of: "a").map(\.uuid) == [uuid(1), uuid(2)])
    }
}
