import Foundation
import Research

/// One signature in a consent record: who signed, what the signature means, the drawing, and when, in UTC
/// with the signer's own offset, as 21 CFR Part 11 asks (printed name, date and time, meaning).
///
/// JSON: `{"identifier": "participant", "meaning": "consent to participate", "givenName": "Hanako",
/// "familyName": "Yamada", "drawing": {"width": 300, "height": 100, "strokes": [[{"x": 1.5, "y": 2, "t": 0}]]},
/// "signedAt": "2026-03-29T08:00:00.000Z", "utcOffsetSeconds": 32400, "timeZoneIdentifier": "Asia/Tokyo"}`.
public struct ConsentRecordSignature: Hashable, Sendable, Codable {
    /// The document signature this fills, e.g. `participant` or `investigator`.
    public var identifier: String
    /// What signing means, in words the signer saw, e.g. "consent to participate" or "investigator countersignature".
    public var meaning: String
    /// The signer's given name as typed.
    public var givenName: String
    /// The signer's family name as typed.
    public var familyName: String
    /// The drawn signature's strokes, or nil when the document did not ask for a drawing.
    public var drawing: Signature?
    /// When the signer signed, kept to whole milliseconds.
    public var signedAt: Date
    /// The signer's offset from UTC at ``signedAt``, in seconds (east positive): 32400 for Tokyo.
    public var utcOffsetSeconds: Int
    /// The signer's time zone, e.g. `Asia/Tokyo`, when known.
    public var timeZoneIdentifier: String?

    /// Creates a signature. `signedAt` is rounded to the millisecond, and the drawing's points to
    /// hundredths of a unit (`x`, `y`, `width`, `height`) and whole milliseconds (`t`): finer digits add
    /// size, not evidence, and rounding here means the record holds exactly what its seal covers.
    public init(identifier: String, meaning: String, givenName: String, familyName: String, drawing: Signature?,
                signedAt: Date, utcOffsetSeconds: Int, timeZoneIdentifier: String? = nil) {
        self.identifier = identifier
        self.meaning = meaning
        self.givenName = givenName
        self.familyName = familyName
        self.drawing = drawing.map(Self.rounded)
        self.signedAt = ConsentTimestamp.milliseconds(signedAt)
        self.utcOffsetSeconds = utcOffsetSeconds
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// Creates a signature at `signedAt` in `timeZone`, taking the offset the zone had at that instant.
    public init(identifier: String, meaning: String, givenName: String, familyName: String, drawing: Signature?,
                signedAt: Date, timeZone: TimeZone) {
        self.init(identifier: identifier, meaning: meaning, givenName: givenName, familyName: familyName, drawing: drawing,
                  signedAt: signedAt, utcOffsetSeconds: timeZone.secondsFromGMT(for: signedAt),
                  timeZoneIdentifier: timeZone.identifier)
    }

    /// The signing time as the signer's clock showed it, ISO 8601 with their offset: `2026-03-29T17:00:00+09:00`.
    public var localSigningTime: String {
        let zone = TimeZone(secondsFromGMT: utcOffsetSeconds) ?? .gmt
        return ISO8601.string(from: signedAt, in: zone)
    }

    private static func rounded(_ drawing: Signature) -> Signature {
        func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        return Signature(width: hundredths(drawing.width), height: hundredths(drawing.height), strokes: drawing.strokes.map { stroke in
            stroke.map { SignaturePoint(x: hundredths($0.x), y: hundredths($0.y), t: $0.t.rounded()) }
        }, typedName: drawing.typedName)
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, meaning, givenName, familyName, drawing, signedAt, utcOffsetSeconds, timeZoneIdentifier
    }

    /// Reads a signature; `signedAt` must be written as ``ConsentTimestamp`` writes it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        meaning = try container.decode(String.self, forKey: .meaning)
        givenName = try container.decode(String.self, forKey: .givenName)
        familyName = try container.decode(String.self, forKey: .familyName)
        drawing = try container.decodeIfPresent(Signature.self, forKey: .drawing)
        signedAt = try ConsentTimestamp.decode(from: container, forKey: .signedAt)
        utcOffsetSeconds = try container.decode(Int.self, forKey: .utcOffsetSeconds)
        timeZoneIdentifier = try container.decodeIfPresent(String.self, forKey: .timeZoneIdentifier)
    }

    /// Writes the signature with its time as a ``ConsentTimestamp`` string, whatever the encoder's date strategy.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(meaning, forKey: .meaning)
        try container.encode(givenName, forKey: .givenName)
        try container.encode(familyName, forKey: .familyName)
        try container.encodeIfPresent(drawing, forKey: .drawing)
        try container.encode(ConsentTimestamp.string(from: signedAt), forKey: .signedAt)
        try container.encode(utcOffsetSeconds, forKey: .utcOffsetSeconds)
        try container.encodeIfPresent(timeZoneIdentifier, forKey: .timeZoneIdentifier)
    }
}
