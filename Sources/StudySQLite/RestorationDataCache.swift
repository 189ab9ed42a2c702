import Foundation
import Research
import Study
import StudyKitEnvironment

/// Runs' restoration data as last decoded or encoded, each with the exact JSON it came from or went to.
///
/// Every answer post reads the run the previous post saved: keeping what was saved spares decoding it again, which
/// was a quarter of a post's work. An entry is used only for the very bytes it was made from, so whatever was
/// written, rolled back or written by another process in between, an entry can be out of date only in being unused.
/// A value kept when it was saved is the value that was encoded: its dates may carry fractions of a millisecond
/// that the JSON (ISO 8601 to the millisecond) does not, which no use of a run's restoration data depends on.
final class RestorationDataCache: Sendable {
    private struct Entry: Sendable {
        let json: Data
        let value: TaskRestorationData
    }

    /// The runs kept, at most `capacity` (a run in progress is a few kilobytes of JSON); beyond it the cache starts afresh.
    private let entries: KeptValues<UUID, Entry>

    /// An empty cache of at most `capacity` runs.
    init(capacity: Int = 1_000) {
        entries = KeptValues(capacity: capacity)
    }

    /// The restoration data stored as `json` for `run`: kept when `json` is the JSON last seen for it, else decoded
    /// with `decoder` and kept.
    func restorationData(of run: UUID, json: Data, decoder: JSONDecoder) throws -> TaskRestorationData {
        if let entry = entries[run], entry.json == json { return entry.value }
        let value = try decoder.decode(TaskRestorationData.self, from: json)
        keep(value, json: json, of: run)
        return value
    }

    /// Keeps `value`, encoded as `json`, as the restoration data of `run`.
    func keep(_ value: TaskRestorationData, json: Data, of run: UUID) {
        entries.keep(Entry(json: json, value: value), for: run)
    }

    /// Keeps the restoration data of a run just saved, or forgets the run when it has none any more (finished).
    func remember(_ saved: EncodedTaskRun) {
        if let value = saved.run.restorationData, let json = saved.restorationJSON {
            keep(value, json: json, of: saved.run.id)
        } else {
            entries.forget(saved.run.id)
        }
    }
}
