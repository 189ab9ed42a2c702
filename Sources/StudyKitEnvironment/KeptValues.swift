import Synchronization

/// Values kept by key, at most ``capacity`` at once, shared by every thread: what is costly to make and the same each
/// time it is made (a compiled pattern, a decoded entity, a formatted date), or what a reader checks against a
/// revision before using it.
///
/// When it is full, keeping a value under a new key starts afresh, which bounds memory without bookkeeping on every
/// read; keeping one under a key it has replaces it.
///
/// Its methods are inlinable, so that each module's uses are specialized for their key and value types: a page looks
/// up a score of kept values, and the generic dictionary code costs several times more per lookup.
///
/// ```swift
/// let patterns = KeptValues<String, Pattern>(capacity: 512)
/// let pattern = try patterns.value(for: text) { try Pattern(text) }
/// ```
public final class KeptValues<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Most values kept at once.
    public let capacity: Int
    @usableFromInline let values = Mutex<[Key: Value]>([:])

    /// Nothing kept yet; at most `capacity` values later.
    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// The value kept under `key`, if any.
    @inlinable public subscript(key: Key) -> Value? {
        values.withLock { $0[key] }
    }

    /// Keeps `value` under `key`.
    @inlinable public func keep(_ value: Value, for key: Key) {
        values.withLock { values in
            if values[key] == nil, values.count >= capacity { values.removeAll(keepingCapacity: true) }
            values[key] = value
        }
    }

    /// Keeps each value under its key, under one lock.
    @inlinable public func keep(contentsOf pairs: some Sequence<(Key, Value)>) {
        values.withLock { values in
            for (key, value) in pairs {
                if values[key] == nil, values.count >= capacity { values.removeAll(keepingCapacity: true) }
                values[key] = value
            }
        }
    }

    /// The value kept under `key`, or the one `make` makes, which is kept (unless `make` throws).
    @inlinable public func value(for key: Key, orMake make: () throws -> Value) rethrows -> Value {
        if let value = self[key] { return value }
        let value = try make()
        keep(value, for: key)
        return value
    }

    /// Forgets the value under `key`.
    @inlinable public func forget(_ key: Key) {
        values.withLock { _ = $0.removeValue(forKey: key) }
    }
}
