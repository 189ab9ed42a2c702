import Foundation
import GRDB
import Synchronization

/// Read-only connections to one SQLite file, for reads whose statements run on the calling thread: each read takes an
/// idle one, or opens one while fewer than ``limit`` are open, and gives it back when done.
///
/// A synchronous read through GRDB's `DatabasePool` passes a barrier queue and a semaphore to take a reader, then
/// checks the schema with a statement of its own; for the daily page's one read of a few indexed rows, that cost a
/// third of the read. A connection here is a GRDB `DatabaseQueue` opened for reading only: the same SQLite
/// connection a pool's reader is, in WAL mode beside the pool's writer, without the pool's bookkeeping. (SQLite
/// prepares a statement again by itself when another connection changes the schema.)
final class CallingThreadReaders: Sendable {
    /// Most connections kept open at once; a read that finds them all busy opens one for itself.
    let limit: Int
    private let path: String
    private let configuration: Configuration
    private let state = Mutex<State>(State())

    private struct State {
        var idle: [DatabaseQueue] = []
        var open = 0
    }

    /// Readers of the file at `path`, opened with `configuration` made read-only.
    init(path: String, configuration: Configuration, limit: Int) {
        var configuration = configuration
        configuration.readonly = true
        self.path = path
        self.configuration = configuration
        self.limit = limit
    }

    /// How many connections are open, idle or busy.
    var openCount: Int { state.withLock { $0.open } }

    /// Runs `body` with an idle connection (opened if need be), which it holds alone until it returns; when every
    /// connection is busy and no more may be kept, with one opened for this read only. A connection that failed to
    /// open is not counted.
    func withConnection<T>(_ body: (DatabaseQueue) async throws -> T) async throws -> T {
        guard let connection = try take() else {
            return try await body(try DatabaseQueue(path: path, configuration: configuration))
        }
        do {
            let value = try await body(connection)
            state.withLock { $0.idle.append(connection) }
            return value
        } catch {
            state.withLock { $0.idle.append(connection) }
            throw error
        }
    }

    private func take() throws -> DatabaseQueue? {
        let taken: DatabaseQueue?? = state.withLock { state in
            if let idle = state.idle.popLast() { return .some(idle) }
            guard state.open < limit else { return .some(nil) }
            state.open += 1
            return nil // open one, outside the lock
        }
        if let taken { return taken }
        do {
            return try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            state.withLock { $0.open -= 1 }
            throw error
        }
    }
}
