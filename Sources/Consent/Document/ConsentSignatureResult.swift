import Foundation
import Research

/// What a consent review (or a consent document step) collected for one signature of the document: the
/// names typed, the drawing, when it was signed, and whether the participant consented at all.
///
/// Apply it to the document with ``ConsentDocument/applying(_:)`` to get a signed copy.
public struct ConsentSignatureResult: Hashable, Sendable, Codable {
    /// The identifier of the document's signature this result fills in.
    public var signatureIdentifier: String
    /// The given name typed by the participant; nil when not asked or declined.
    public var givenName: String?
    /// The family name typed by the participant; nil when not asked or declined.
    public var familyName: String?
    /// The drawn signature; nil when not asked or declined.
    public var signature: Signature?
    /// When the participant signed (the drawing's time, else when the consent step was left); nil when declined.
    public var signedDate: Date?
    /// Whether the participant agreed to the document and gave everything the signature requires.
    public var consented: Bool

    /// Creates a result; see the properties for each part.
    public init(signatureIdentifier: String, givenName: String? = nil, familyName: String? = nil, signature: Signature? = nil,
                signedDate: Date? = nil, consented: Bool) {
        self.signatureIdentifier = signatureIdentifier
        self.givenName = givenName
        self.familyName = familyName
        self.signature = signature
        self.signedDate = signedDate
        self.consented = consented
    }
}
