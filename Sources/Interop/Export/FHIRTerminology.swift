/// The codes and code systems the FHIR export writes, in one place, each with the reason it was chosen.
public enum FHIRTerminology {
    /// `Consent.scope`: the consent is to take part in research (R4 consentscope).
    public static let researchScope = FHIRCoding(system: "http://terminology.hl7.org/CodeSystem/consentscope",
                                                 code: "research", display: "Research")
    /// `Consent.category`: LOINC 59284-0, the consent document itself. (57016-8 "Privacy policy acknowledgment
    /// Document" would claim an acknowledged privacy policy, which an informed consent to research is not.)
    public static let consentDocumentCategory = FHIRCoding(system: "http://loinc.org", code: "59284-0", display: "Consent Document")
    /// `Consent.provision.purpose`: what the participant permits the data to be used for.
    public static let healthcareResearchPurpose = FHIRCoding(system: "http://terminology.hl7.org/CodeSystem/v3-ActReason",
                                                             code: "HRESCH", display: "healthcare research")
    /// `Consent.provision.actor.role`: the only ones who may receive the data when the participant chose to share
    /// with the investigators only.
    public static let informationRecipientRole = FHIRCoding(system: "http://terminology.hl7.org/CodeSystem/v3-ParticipationType",
                                                            code: "IRCP", display: "information recipient")
    /// `Provenance.signature.type` of a consent record: ASTM E1762 "Consent Signature".
    public static let consentSignature = FHIRCoding(system: "urn:iso-astm:E1762-95:2013", code: "1.2.840.10065.1.12.1.7",
                                                    display: "Consent Signature")
    /// `Provenance.signature.type` of a countersignature record: ASTM E1762 "Verification Signature" (the study team
    /// confirming the consent was obtained).
    public static let verificationSignature = FHIRCoding(system: "urn:iso-astm:E1762-95:2013", code: "1.2.840.10065.1.12.1.5",
                                                         display: "Verification Signature")
    /// `Provenance.signature.type` of a withdrawal record: ASTM E1762 "Author's Signature" (the participant is the
    /// author of the withdrawal; E1762 has no withdrawal signature).
    public static let authorSignature = FHIRCoding(system: "urn:iso-astm:E1762-95:2013", code: "1.2.840.10065.1.12.1.1",
                                                   display: "Author's Signature")
    /// `Provenance.agent.type` of the participant who signed.
    public static let authorAgent = FHIRCoding(system: "http://terminology.hl7.org/CodeSystem/provenance-participant-type",
                                               code: "author", display: "Author")
    /// `Provenance.agent.type` of a countersigner, such as the investigator.
    public static let verifierAgent = FHIRCoding(system: "http://terminology.hl7.org/CodeSystem/provenance-participant-type",
                                                 code: "verifier", display: "Verifier")
    /// `Provenance.activity` of a consent record: the Consent was created.
    public static let createActivity = FHIRCoding(system: "http://terminology.hl7.org/CodeSystem/v3-DataOperation",
                                                  code: "CREATE", display: "create")
    /// `Provenance.activity` of a withdrawal record: the Consent was revised (made inactive).
    public static let reviseActivity = FHIRCoding(system: "http://terminology.hl7.org/CodeSystem/v3-DataOperation",
                                                  code: "UPDATE", display: "revise")
    /// `Observation.category` of a value that came from a survey.
    public static let surveyCategory = FHIRCoding(system: "http://terminology.hl7.org/CodeSystem/observation-category",
                                                  code: "survey", display: "Survey")
    /// The code system of language tags (`Patient.communication.language`).
    public static let languageSystem = "urn:ietf:bcp:47"
    /// The identifier system whose values are URIs (`urn:uuid:…`), for the records' UUIDs.
    public static let uriIdentifierSystem = "urn:ietf:rfc:3986"
    /// The extension that names the IANA time zone of a date or dateTime (R4 core, `tz-code`).
    public static let timeZoneExtension = "http://hl7.org/fhir/StructureDefinition/tz-code"
}
