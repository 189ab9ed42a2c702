/// The element types of the FHIR R4 resources a questionnaire's expressions meet (the Questionnaire, its response,
/// the participant's Patient, Observations and ValueSets) and of the data types they use, written from the R4
/// specification's element definitions (hl7.org/fhir/R4). Each entry is a type, or a backbone element by its path,
/// with its members and their types; `id`, `extension` and `modifierExtension`, which every element has, and
/// choice elements (`value[x]`, read from their suffix) are left out. A backbone member (`Patient.contact`) has
/// no type of its own: its members are found by its path. `tests/interop/test_fhirpath_model.py` checks every
/// entry against fhirpathpy's R4 model.
extension FHIRElementTypes {
    static let r4Elements: [String: [String: String]] = {
        var table: [String: [String: String]] = [:]
        for (owner, text) in r4ElementText {
            var members: [String: String] = [:]
            for entry in text.split(separator: ",") {
                let parts = entry.split(separator: " ") // "name type"
                members[String(parts[0])] = String(parts[1])
            }
            table[owner] = members
        }
        return table
    }()

    private static let r4ElementText: [String: String] = [
        "Address": "city string, country string, district string, line string, period Period, postalCode string, state string, text string, type code, use code",
        "Annotation": "text markdown, time dateTime",
        "Attachment": "contentType code, creation dateTime, data base64Binary, hash base64Binary, language code, size unsignedInt, title string, url url",
        "CodeableConcept": "coding Coding, text string",
        "Coding": "code code, display string, system uri, userSelected boolean, version string",
        "ContactDetail": "name string, telecom ContactPoint",
        "ContactPoint": "period Period, rank positiveInt, system code, use code, value string",
        "Expression": "description string, expression string, language code, name id, reference uri",
        "Extension": "url uri",
        "HumanName": "family string, given string, period Period, prefix string, suffix string, text string, use code",
        "Identifier": "assigner Reference, period Period, system uri, type CodeableConcept, use code, value string",
        "Meta": "lastUpdated instant, profile canonical, security Coding, source uri, tag Coding, versionId id",
        "Narrative": "div xhtml, status code",
        "Observation": "basedOn Reference, bodySite CodeableConcept, category CodeableConcept, code CodeableConcept, contained Resource, dataAbsentReason CodeableConcept, derivedFrom Reference, device Reference, encounter Reference, focus Reference, hasMember Reference, identifier Identifier, implicitRules uri, interpretation CodeableConcept, issued instant, language code, meta Meta, method CodeableConcept, note Annotation, partOf Reference, performer Reference, specimen Reference, status code, subject Reference, text Narrative",
        "Observation.component": "code CodeableConcept, dataAbsentReason CodeableConcept, interpretation CodeableConcept",
        "Observation.referenceRange": "age Range, appliesTo CodeableConcept, high Quantity, low Quantity, text string, type CodeableConcept",
        "Patient": "active boolean, address Address, birthDate date, contained Resource, gender code, generalPractitioner Reference, identifier Identifier, implicitRules uri, language code, managingOrganization Reference, maritalStatus CodeableConcept, meta Meta, name HumanName, photo Attachment, telecom ContactPoint, text Narrative",
        "Patient.communication": "language CodeableConcept, preferred boolean",
        "Patient.contact": "address Address, gender code, name HumanName, organization Reference, period Period, relationship CodeableConcept, telecom ContactPoint",
        "Patient.link": "other Reference, type code",
        "Period": "end dateTime, start dateTime",
        "Quantity": "code code, comparator code, system uri, unit string, value decimal",
        "Questionnaire": "approvalDate date, code Coding, contact ContactDetail, contained Resource, copyright markdown, date dateTime, derivedFrom canonical, description markdown, effectivePeriod Period, experimental boolean, identifier Identifier, implicitRules uri, jurisdiction CodeableConcept, language code, lastReviewDate date, meta Meta, name string, publisher string, purpose markdown, status code, subjectType code, text Narrative, title string, url uri, useContext UsageContext, version string",
        "Questionnaire.item": "answerValueSet canonical, code Coding, definition uri, enableBehavior code, linkId string, maxLength integer, prefix string, readOnly boolean, repeats boolean, required boolean, text string, type code",
        "Questionnaire.item.answerOption": "initialSelected boolean",
        "Questionnaire.item.enableWhen": "operator code, question string",
        "Questionnaire.item.initial": "",
        "QuestionnaireResponse": "author Reference, authored dateTime, basedOn Reference, contained Resource, encounter Reference, identifier Identifier, implicitRules uri, language code, meta Meta, partOf Reference, questionnaire canonical, source Reference, status code, subject Reference, text Narrative",
        "QuestionnaireResponse.item": "definition uri, linkId string, text string",
        "QuestionnaireResponse.item.answer": "",
        "Range": "high Quantity, low Quantity",
        "Ratio": "denominator Quantity, numerator Quantity",
        "Reference": "display string, identifier Identifier, reference string, type uri",
        "SampledData": "data string, dimensions positiveInt, factor decimal, lowerLimit decimal, origin Quantity, period decimal, upperLimit decimal",
        "UsageContext": "code Coding",
        "ValueSet": "contact ContactDetail, contained Resource, copyright markdown, date dateTime, description markdown, experimental boolean, identifier Identifier, immutable boolean, implicitRules uri, jurisdiction CodeableConcept, language code, meta Meta, name string, publisher string, purpose markdown, status code, text Narrative, title string, url uri, useContext UsageContext, version string",
        "ValueSet.compose": "inactive boolean, lockedDate date",
        "ValueSet.compose.include": "system uri, valueSet canonical, version string",
        "ValueSet.compose.include.concept": "code code, display string",
        "ValueSet.compose.include.concept.designation": "language code, use Coding, value string",
        "ValueSet.compose.include.filter": "op code, property code, value string",
        "ValueSet.expansion": "identifier uri, offset integer, timestamp dateTime, total integer",
        "ValueSet.expansion.contains": "abstract boolean, code code, display string, inactive boolean, system uri, version string",
        "ValueSet.expansion.parameter": "name string",
    ]
}
