import Foundation

/// The wrong passwords tried for a researcher's address since they last signed in: what the console tells them on its
/// first page after they sign in again, so that a guessing attack on their account does not go unseen.
public struct FailedSignIns: Hashable, Sendable {
    /// How many wrong passwords were tried.
    public var count: Int
    /// When the first of them was tried.
    public var first: Date
    /// When the last of them was tried.
    public var last: Date
    /// From how many client addresses.
    public var clients: Int

    /// Creates a summary; see the properties for each part.
    public init(count: Int, first: Date, last: Date, clients: Int) {
        self.count = count
        self.first = first
        self.last = last
        self.clients = clients
    }
}
