import Foundation

/// A quantity's unit reduced to UCUM base units, so that quantities in different units can be compared,
/// added and multiplied: `4 'g' = 4000 'mg'`, `7 days = 1 'wk'`, `2.0 'cm' * 2.0 'm' = 0.04 'm2'`.
///
/// The units read are the UCUM unit terms that health forms use: metric prefixes (`k`, `c`, `m`, `u`…) on the base
/// and metric units (`g`, `m`, `s`, `L`, `mol`, `K`, `Pa`…), the time units (`min`, `h`, `d`, `wk`, `mo`, `a`),
/// common customary units (`[lb_av]`, `[oz_av]`, `[in_i]`, `[ft_i]`, `mm[Hg]`), `%`, annotations (`{score}`, which
/// count as 1), integers, and products, quotients, exponents and parentheses of these (`kg/m2`, `mL/min/{1.73_m2}`).
/// Any other atom (`[iU]`, `[pH]`) is a dimension of its own, comparable only with itself. FHIRPath's calendar
/// words week, day, hour, minute, second and millisecond are the UCUM durations of the same names; year and month
/// are not (a calendar year is not 365.25 days), so they compare only with themselves.
struct FHIRPathUnit: Hashable {
    /// How many base units one of this unit is.
    var factor: Decimal
    /// The exponent of each base dimension (`g`, `m`, `s`…, or an atom of its own); zeros left out.
    var dimensions: [String: Int]

    static let one = FHIRPathUnit(factor: 1, dimensions: [:])

    /// The unit of a FHIRPath quantity (a UCUM code or a calendar word); nil when it cannot be read.
    init?(_ unit: String) {
        if let calendar = Self.calendarWords[unit] {
            self = calendar
            return
        }
        var parser = UCUMParser(Array(unit))
        guard let parsed = parser.term(), parser.isAtEnd else { return nil }
        self = parsed
    }

    init(factor: Decimal, dimensions: [String: Int]) {
        self.factor = factor
        self.dimensions = dimensions.filter { $0.value != 0 }
    }

    /// The product of two units (`m` × `m` is `m2`); the quotient when `dividing`.
    func combined(with other: FHIRPathUnit, dividing: Bool) -> FHIRPathUnit {
        var dimensions = self.dimensions
        for (name, power) in other.dimensions { dimensions[name, default: 0] += dividing ? -power : power }
        return FHIRPathUnit(factor: dividing ? factor / other.factor : factor * other.factor, dimensions: dimensions)
    }

    /// The unit raised to `power`.
    func raised(to power: Int) -> FHIRPathUnit {
        var factor: Decimal = 1
        for _ in 0..<abs(power) { factor *= self.factor }
        return FHIRPathUnit(factor: power < 0 ? 1 / factor : factor, dimensions: dimensions.mapValues { $0 * power })
    }

    /// The base units as a UCUM code (`g/m`, `m2`, `1`), for a quantity computed from two others.
    var baseCode: String {
        let sorted = dimensions.sorted { $0.key < $1.key }
        func code(_ parts: [(key: String, value: Int)]) -> String {
            parts.map { abs($0.value) == 1 ? $0.key : "\($0.key)\(abs($0.value))" }.joined(separator: ".")
        }
        let above = sorted.filter { $0.value > 0 }, below = sorted.filter { $0.value < 0 }
        let top = above.isEmpty ? "1" : code(above)
        return below.isEmpty ? top : "\(top)/\(code(below))"
    }

    /// A quantity's value and unit in base units; nil when the unit cannot be read.
    static func base(_ quantity: FHIRPathQuantity) -> (value: Decimal, unit: FHIRPathUnit)? {
        guard let unit = FHIRPathUnit(quantity.unit) else { return nil }
        return (quantity.value * unit.factor, FHIRPathUnit(factor: 1, dimensions: unit.dimensions))
    }

    /// The two quantities' values in the same unit, when their units measure the same thing: as given when the
    /// units are written alike, else in base units. Nil when they cannot be compared.
    static func commonValues(_ a: FHIRPathQuantity, _ b: FHIRPathQuantity) -> (Decimal, Decimal)? {
        if a.unit == b.unit { return (a.value, b.value) }
        guard let left = base(a), let right = base(b), left.unit.dimensions == right.unit.dimensions else { return nil }
        return (left.value, right.value)
    }

    private static let second = FHIRPathUnit(factor: 1, dimensions: ["s": 1])

    /// The calendar words as units: year and month are dimensions of their own.
    private static let calendarWords: [String: FHIRPathUnit] = [
        "year": FHIRPathUnit(factor: 1, dimensions: ["year": 1]),
        "month": FHIRPathUnit(factor: 1, dimensions: ["month": 1]),
        "week": FHIRPathUnit(factor: 604_800, dimensions: ["s": 1]),
        "day": FHIRPathUnit(factor: 86_400, dimensions: ["s": 1]),
        "hour": FHIRPathUnit(factor: 3600, dimensions: ["s": 1]),
        "minute": FHIRPathUnit(factor: 60, dimensions: ["s": 1]),
        "second": second,
        "millisecond": FHIRPathUnit(factor: Decimal(string: "0.001")!, dimensions: ["s": 1]),
    ]

    /// UCUM atoms: base units, and other units as a factor of base units.
    static let atoms: [String: FHIRPathUnit] = {
        func unit(_ factor: String, _ dimensions: [String: Int]) -> FHIRPathUnit {
            FHIRPathUnit(factor: Decimal(string: factor, locale: Locale(identifier: "en_US_POSIX"))!, dimensions: dimensions)
        }
        return [
            "m": unit("1", ["m": 1]), "g": unit("1", ["g": 1]), "s": unit("1", ["s": 1]), "mol": unit("1", ["mol": 1]),
            "K": unit("1", ["K": 1]), "cd": unit("1", ["cd": 1]), "A": unit("1", ["A": 1]),
            "L": unit("0.001", ["m": 3]), "l": unit("0.001", ["m": 3]),
            "min": unit("60", ["s": 1]), "h": unit("3600", ["s": 1]), "d": unit("86400", ["s": 1]), "wk": unit("604800", ["s": 1]),
            "a": unit("31557600", ["s": 1]), "mo": unit("2629800", ["s": 1]),
            "Hz": unit("1", ["s": -1]), "N": unit("1000", ["g": 1, "m": 1, "s": -2]), "Pa": unit("1000", ["g": 1, "m": -1, "s": -2]),
            "J": unit("1000", ["g": 1, "m": 2, "s": -2]), "W": unit("1000", ["g": 1, "m": 2, "s": -3]),
            "cal": unit("4184", ["g": 1, "m": 2, "s": -2]), "mm[Hg]": unit("133322", ["g": 1, "m": -1, "s": -2]),
            "[lb_av]": unit("453.59237", ["g": 1]), "[oz_av]": unit("28.349523125", ["g": 1]),
            "[in_i]": unit("0.0254", ["m": 1]), "[ft_i]": unit("0.3048", ["m": 1]), "%": unit("0.01", [:]),
        ]
    }()

    /// UCUM prefixes and their factors.
    static let prefixes: [(String, Decimal)] = [
        ("da", 10), ("Y", pow(10, 24)), ("Z", pow(10, 21)), ("E", pow(10, 18)), ("P", pow(10, 15)), ("T", pow(10, 12)),
        ("G", pow(10, 9)), ("M", pow(10, 6)), ("k", 1000), ("h", 100), ("d", Decimal(string: "0.1")!),
        ("c", Decimal(string: "0.01")!), ("m", Decimal(string: "0.001")!), ("u", Decimal(string: "0.000001")!),
        ("n", Decimal(string: "0.000000001")!), ("p", Decimal(string: "0.000000000001")!),
    ]
}

/// Reads a UCUM unit term: components joined by `.` (times) and `/` (divided by), each an atom with an optional
/// prefix and exponent, an integer, an annotation in braces, or a term in parentheses.
private struct UCUMParser {
    let characters: [Character]
    var position = 0

    init(_ characters: [Character]) { self.characters = characters }

    var isAtEnd: Bool { position == characters.count }

    mutating func term() -> FHIRPathUnit? {
        var result = FHIRPathUnit.one
        var dividing = false
        if peek == "/" { position += 1; dividing = true }
        while true {
            guard let next = component() else { return nil }
            result = result.combined(with: next, dividing: dividing)
            guard let separator = peek, separator == "." || separator == "/" else { return result }
            dividing = separator == "/"
            position += 1
        }
    }

    private var peek: Character? { position < characters.count ? characters[position] : nil }

    private mutating func component() -> FHIRPathUnit? {
        guard let first = peek else { return nil }
        if first == "(" {
            position += 1
            guard let inner = term(), peek == ")" else { return nil }
            position += 1
            return inner.raised(to: exponent() ?? 1)
        }
        if first == "{" {
            guard let close = characters[position...].firstIndex(of: "}") else { return nil }
            position = close + 1
            return .one
        }
        if first.isNumber {
            let digits = characters[position...].prefix { $0.isNumber }
            position += digits.count
            var factor = Decimal(string: String(digits))!
            // `10*3` and `10^3` are powers of ten (as in `10*3/uL`).
            if peek == "*" || peek == "^" {
                position += 1
                let sign: Character? = peek == "-" || peek == "+" ? characters[position] : nil
                if sign != nil { position += 1 }
                let exponent = characters[position...].prefix { $0.isNumber }
                guard !exponent.isEmpty, let power = Int(String(exponent)), power <= 30 else { return nil }
                position += exponent.count
                factor = sign == "-" ? 1 / pow(factor, power) : pow(factor, power)
            }
            return FHIRPathUnit(factor: factor, dimensions: [:])
        }
        // The atom runs to the next separator; a trailing signed integer is its exponent.
        var end = position
        var depth = 0
        while end < characters.count {
            let character = characters[end]
            if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
            if depth == 0, ".()/{".contains(character) { break }
            end += 1
        }
        var symbol = String(characters[position..<end])
        var power = 1
        if let match = symbol.firstMatch(of: /[+-]?[0-9]+$/), match.range.lowerBound != symbol.startIndex {
            power = Int(symbol[match.range]) ?? 1
            symbol = String(symbol[..<match.range.lowerBound])
        }
        position = end
        // An annotation may follow an atom directly (`mL{total}`).
        if peek == "{", let close = characters[position...].firstIndex(of: "}") { position = close + 1 }
        return Self.atom(symbol)?.raised(to: power)
    }

    /// A signed integer exponent right after a parenthesis (`(m.s)2`); nil when there is none.
    private mutating func exponent() -> Int? {
        var end = position
        if end < characters.count, characters[end] == "-" || characters[end] == "+" { end += 1 }
        let digits = characters[end...].prefix { $0.isNumber }
        guard !digits.isEmpty, let power = Int(String(characters[position..<end + digits.count])) else { return nil }
        position = end + digits.count
        return power
    }

    /// An atom with an optional prefix; an unknown atom is a dimension of its own.
    private static func atom(_ symbol: String) -> FHIRPathUnit? {
        guard !symbol.isEmpty else { return nil }
        if let unit = FHIRPathUnit.atoms[symbol] { return unit }
        for (prefix, factor) in FHIRPathUnit.prefixes where symbol.hasPrefix(prefix) {
            if let unit = FHIRPathUnit.atoms[String(symbol.dropFirst(prefix.count))] {
                return FHIRPathUnit(factor: factor * unit.factor, dimensions: unit.dimensions)
            }
        }
        return FHIRPathUnit(factor: 1, dimensions: [symbol: 1])
    }
}
