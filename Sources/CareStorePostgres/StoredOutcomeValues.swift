import CareStore
import Foundation

/// An outcome's values as the `jsonb` array of `outcome.outcomeValues`, one object per value in order:
///
/// ```json
/// [{"integer": 3, "kind": "steps"}, {"double": 6.5, "units": "NRS", "createdDate": 796219200.25}]
/// ```
///
/// The one key among `integer`, `double`, `boolean`, `text`, `binary` (base64) and `date` says the value's type, as in
/// ``OutcomeValue``'s own JSON; dates, the value's and `createdDate`, are seconds since 2001-01-01 00:00 UTC
/// (Foundation's reference date, as the entities' payloads write them), which round-trip every `Date` exactly where
/// ISO 8601 text would keep milliseconds; a double that is not finite is the text `NaN`, `Infinity` or `-Infinity`.
/// `jsonb` rather than rows of their own: an outcome's values are always read and written with it (one row per
/// outcome, no join), and stay open to SQL (`jsonb_array_elements(outcomeValues)`) for a study team's own queries.
enum StoredOutcomeValues {
    private struct Item: Codable {
        var integer: Int?
        var double: Double?
        var boolean: Bool?
        var text: String?
        var binary: Data?
        var date: Date?
        var kind: String?
        var units: String?
        var createdDate: Date?
    }

    /// The column's JSON for `values`.
    static func json(_ values: [OutcomeValue]) throws -> String {
        if values.isEmpty { return "[]" }
        let items = values.map { value in
            var item = Item(kind: value.kind, units: value.units, createdDate: value.createdDate)
            switch value.value {
            case .integer(let number): item.integer = number
            case .double(let number): item.double = number
            case .boolean(let flag): item.boolean = flag
            case .text(let text): item.text = text
            case .binary(let data): item.binary = data
            case .date(let date): item.date = date
            }
            return item
        }
        return String(decoding: try encoder.encode(items), as: UTF8.self)
    }

    /// The values the column's JSON holds; nil when it is not such JSON (each item must hold exactly one value).
    static func values(json: String) -> [OutcomeValue]? {
        if json == "[]" { return [] }
        guard let items = try? decoder.decode([Item].self, from: Data(json.utf8)) else { return nil }
        var values: [OutcomeValue] = []
        values.reserveCapacity(items.count)
        for item in items {
            let candidates: [OutcomeValue.Value?] = [item.integer.map { .integer($0) }, item.double.map { .double($0) },
                                                     item.boolean.map { .boolean($0) }, item.text.map { .text($0) },
                                                     item.binary.map { .binary($0) }, item.date.map { .date($0) }]
            let present = candidates.compactMap { $0 }
            guard present.count == 1 else { return nil }
            values.append(OutcomeValue(present[0], kind: item.kind, units: item.units, createdDate: item.createdDate))
        }
        return values
    }

    private static let nonFinite = (positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: nonFinite.positiveInfinity,
                                                                      negativeInfinity: nonFinite.negativeInfinity, nan: nonFinite.nan)
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: nonFinite.positiveInfinity,
                                                                        negativeInfinity: nonFinite.negativeInfinity, nan: nonFinite.nan)
        return decoder
    }
}
