import Foundation

/// A place, as address text with optional coordinates.
public struct LocationFormat: Hashable, Sendable, Codable {
    /// Offer the device's current position (the browser asks the participant first).
    public var useCurrentLocation: Bool
    /// Creates a location format; the current position is offered unless `useCurrentLocation` is false.
    public init(useCurrentLocation: Bool = true) { self.useCurrentLocation = useCurrentLocation }
    private enum CodingKeys: String, CodingKey { case useCurrentLocation }
    /// Reads the format; `useCurrentLocation` defaults to true.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        useCurrentLocation = try c.decodeIfPresent(Bool.self, forKey: .useCurrentLocation) ?? true
    }
}

extension LocationFormat: AnswerFormatRules {
    static let jsonKeys: Set<String> = ["useCurrentLocation"]

    var wrongKindError: AnswerValidationError { AnswerValidationError(.takesPlace) }

    func addConstructionProblems(to problems: inout FormatProblems) {}

    func validate(_ answer: Answer) throws(AnswerValidationError) {
        guard case .location(let value) = answer else { throw wrongKindError }
        guard (value.latitude == nil) == (value.longitude == nil) else {
            throw AnswerValidationError(.enterLatitudeAndLongitude)
        }
        if let latitude = value.latitude, !(latitude.isFinite && (-90...90).contains(latitude)) {
            throw AnswerValidationError(.latitudeRange)
        }
        if let longitude = value.longitude, !(longitude.isFinite && (-180...180).contains(longitude)) {
            throw AnswerValidationError(.longitudeRange)
        }
        if let address = value.address {
            try FreeTextRules.check(address, allowingLineBreaks: true, maximumLength: FreeTextRules.maximumAddressLength)
        }
        let hasAddress = value.address.map { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? false
        guard hasAddress || value.latitude != nil else { throw AnswerValidationError(.enterAddressOrPosition) }
    }

    /// `address`, `address @ 52.52, 13.40` or `52.52, 13.40`.
    func answer(fromText trimmed: String, typed: String, in context: TextInputContext) throws(AnswerValidationError) -> Answer {
        let coordinates = #/\s*(?<lat>[+-]?[0-9]+(?:\.[0-9]+)?)\s*,\s*(?<lon>[+-]?[0-9]+(?:\.[0-9]+)?)\s*/#
        if let at = trimmed.lastIndex(of: "@") {
            let address = trimmed[..<at].trimmingCharacters(in: .whitespacesAndNewlines)
            guard let match = trimmed[trimmed.index(after: at)...].wholeMatch(of: coordinates),
                  let latitude = Double(match.lat), let longitude = Double(match.lon) else {
                throw AnswerValidationError(.enterPositionFormat)
            }
            return .location(LocationAnswer(address: address.isEmpty ? nil : address, latitude: latitude, longitude: longitude))
        }
        if let match = trimmed.wholeMatch(of: coordinates), let latitude = Double(match.lat), let longitude = Double(match.lon) {
            return .location(LocationAnswer(latitude: latitude, longitude: longitude))
        }
        return .location(LocationAnswer(address: trimmed))
    }

    func hint(in context: TextInputContext) -> String {
        "an address, optionally followed by @ latitude, longitude (as in Berlin @ 52.52, 13.40)"
    }

    /// "Berlin (52.52, 13.4)", "Berlin", "52.52, 13.4", or nothing.
    static func text(of location: LocationAnswer) -> String {
        var coordinates: String?
        if let latitude = location.latitude, let longitude = location.longitude {
            coordinates = "\(AnswerNumbers.text(latitude)), \(AnswerNumbers.text(longitude))"
        }
        switch (location.address, coordinates) {
        case let (address?, coordinates?): return "\(address) (\(coordinates))"
        case let (address?, nil): return address
        case let (nil, coordinates?): return coordinates
        case (nil, nil): return ""
        }
    }
}
