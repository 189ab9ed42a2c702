import CareStore
import Consent
import Foundation
import Interop
import Study

/// Exports a study's data as FHIR R4: one collection Bundle per participant (`participants/<id>.json`) and one NDJSON
/// file per resource type (`Patient.ndjson`, `Consent.ndjson`, …), as FHIR Bulk Data does.
///
/// ```swift
/// let exporter = FHIRStudyExporter()
/// let summary = try StudyExportFolder(url: out).replace(with: exporter, snapshot: snapshot)
/// ```
///
/// For each participant, in this order: the `Patient`; for each consent record a `Consent` and a `Provenance`, and
/// for each withdrawal record a `Provenance` of the Consent it withdraws (the Consent is then `inactive`); the
/// `CarePlan` with the study's tasks (the onboarding task is left out: the Consent stands for it); an `Observation`
/// for each outcome value that the study codes (``StudyTaskDefinition/coding(forValueKind:)``); a
/// `QuestionnaireResponse` for each completed run of a survey that is a FHIR Questionnaire (its scores included, its
/// attached files as data); then whatever ``additionalResources`` gives. See the Interop builders for each resource's fields.
///
/// What cannot be written exactly becomes a ``StudyExportIssue``: a schedule element written as text, a consent
/// record whose PDF was not printed (its HTML is attached instead), an outcome value no Observation can carry.
public struct FHIRStudyExporter: StudyExporter {
    /// Resources of a participant that other converters make, added to their Bundle and NDJSON files after the rest:
    /// the place for QuestionnaireResponses made from the participant's completed survey runs
    /// (``ParticipantExportData/runs``). The default adds none.
    public var additionalResources: @Sendable (ParticipantExportData) throws -> [FHIRResource]

    /// Creates an exporter; `additionalResources` adds resources of each participant (see the property).
    public init(additionalResources: @escaping @Sendable (ParticipantExportData) throws -> [FHIRResource] = { _ in [] }) {
        self.additionalResources = additionalResources
    }

    /// ``StudyExportFormat/fhir``.
    public var format: StudyExportFormat { .fhir }

    /// Writes each participant's Bundle and appends their resources to the NDJSON files as the participant comes.
    public func start(study: StudyDefinition, takenAt: Date, into folder: URL) throws -> any StudyExportStream {
        Stream(exporter: self, study: study, takenAt: takenAt, files: FHIRBulkDataStream(folder: folder))
    }

    /// One export being written.
    private final class Stream: StudyExportStream {
        let exporter: FHIRStudyExporter
        let study: StudyDefinition
        let takenAt: Date
        let files: FHIRBulkDataStream
        var issues: [StudyExportIssue] = []
        var bundleCount = 0

        init(exporter: FHIRStudyExporter, study: StudyDefinition, takenAt: Date, files: FHIRBulkDataStream) {
            self.exporter = exporter
            self.study = study
            self.takenAt = takenAt
            self.files = files
        }

        func add(_ participant: ParticipantExportData) throws {
            let exported = exporter.resources(of: participant, study: study)
            issues += exported.issues
            guard !exported.resources.isEmpty else { return }
            let bundle: FHIRResource
            do {
                bundle = try FHIRBundleBuilder().collection(id: participant.participant.id, resources: exported.resources, timestamp: takenAt)
            } catch {
                issues.append(StudyExportIssue(participantID: participant.participant.id, message: "left out: \(error)"))
                return
            }
            try files.append(exported.resources, bundle: bundle)
            bundleCount += 1
        }

        func finish() throws -> StudyExportSummary {
            StudyExportSummary(format: exporter.format.rawValue, participantCount: bundleCount, counts: try files.finish(), issues: issues)
        }
    }

    /// The QuestionnaireResponses of a participant's completed runs of FHIR Questionnaire surveys, oldest first; a run
    /// the participant withdrew from its card is `entered-in-error`. A run still in progress has no result yet and is
    /// left out; a run whose result the Questionnaire cannot take is noted.
    func questionnaireResponses(of data: ParticipantExportData, study: StudyDefinition, note: (String) -> Void) -> [FHIRResource] {
        var questionnaires: [String: FHIRQuestionnaire] = [:]
        var responses: [FHIRResource] = []
        for run in data.runs.reversed() where run.state == .completed || run.state == .withdrawn {
            guard let result = run.result, let questionnaireData = study.questionnaires[result.identifier] else { continue }
            do {
                if questionnaires[result.identifier] == nil {
                    // A form without a url is named by the study's own URN, so every response says what it answers.
                    questionnaires[result.identifier] = try FHIRQuestionnaire(
                        questionnaireData, valueSets: study.valueSets, taskIdentifier: result.identifier,
                        fallbackCanonical: "urn:studykit:\(study.identifier):questionnaire:\(result.identifier)")
                }
                // The run's attached files, as the study's database keeps them.
                let files = data.runFiles[result.taskRunUUID] ?? [:]
                let builder = FHIRQuestionnaireResponseBuilder(questionnaire: questionnaires[result.identifier]!) { file in files[file.fileName] }
                let json = try builder.response(
                    for: result, status: run.state == .withdrawn ? .enteredInError : .completed, timeZone: data.participant.timeZone,
                    subject: FHIRReference(reference: "Patient/\(data.participant.id)"),
                    author: FHIRReference(reference: "Patient/\(data.participant.id)"))
                responses.append(try FHIRResource(jsonData: json))
            } catch {
                note("the \(run.taskID) run \(run.id.uuidString.lowercased()) is left out: \(error)")
            }
        }
        return responses
    }

    /// One participant's resources, in Bundle order, and the issues met. A participant whose id FHIR cannot take
    /// gets no resources and one issue.
    public func resources(of data: ParticipantExportData, study: StudyDefinition) -> (resources: [FHIRResource], issues: [StudyExportIssue]) {
        let participantID = data.participant.id
        var issues = data.problems.map { StudyExportIssue(participantID: participantID, message: $0) }
        func note(_ message: String) { issues.append(StudyExportIssue(participantID: participantID, message: message)) }
        let signatureIDs = Self.participantSignatureIdentifiers(of: study)

        let consents = data.consentRecords.filter { $0.sealed.record.kind == .consent }
        let withdrawals = data.consentRecords.filter { $0.sealed.record.kind == .withdrawal }
        var withdrawalOf: [UUID: ConsentRecord] = [:]
        for stored in withdrawals {
            if let original = stored.sealed.record.withdrawal?.originalRecordID { withdrawalOf[original] = stored.sealed.record }
        }

        let patient: FHIRResource
        do {
            let latest = consents.last?.sealed.record.participantSignature(identifiers: signatureIDs)
            patient = try FHIRPatientBuilder().patient(participantID: participantID, language: data.participant.language,
                                                       signedName: latest.map { ($0.givenName, $0.familyName) })
        } catch {
            note("left out: \(error)")
            return ([], issues)
        }
        var resources = [patient]

        var consentIDs = Set<UUID>()
        for stored in consents {
            let record = stored.sealed.record
            let pdf = data.consentPDFs[stored.id]
            if pdf == nil {
                let state = stored.pdf.name == "failed" ? "its printing failed" : "it has not been printed yet"
                note("consent record \(record.id.uuidString.lowercased()) has no PDF (\(state)); its Consent carries the signed HTML instead")
            }
            do {
                resources.append(try FHIRConsentBuilder().consent(
                    for: stored.sealed, pdf: pdf, withdrawal: withdrawalOf[record.id], participantSignatureIdentifiers: signatureIDs,
                    sharingRecipients: Self.sharingRecipients(of: study, language: record.language)))
                resources.append(try FHIRProvenanceBuilder().provenance(for: stored.sealed, sealedJSON: stored.sealedJSON,
                                                                        participantSignatureIdentifiers: signatureIDs))
                consentIDs.insert(record.id)
            } catch {
                note("consent record \(record.id.uuidString.lowercased()) left out: \(error)")
            }
        }
        // A countersignature or a withdrawal is a Provenance of the Consent it refers to, when that is exported.
        for stored in data.consentRecords where stored.sealed.record.kind != .consent {
            let record = stored.sealed.record
            let name = "\(record.kind.rawValue) record \(record.id.uuidString.lowercased())"
            guard let original = record.linkedRecordID, consentIDs.contains(original) else {
                note("\(name) left out: the consent record it refers to is not exported")
                continue
            }
            do {
                resources.append(try FHIRProvenanceBuilder().provenance(for: stored.sealed, sealedJSON: stored.sealedJSON,
                                                                        participantSignatureIdentifiers: signatureIDs))
            } catch {
                note("\(name) left out: \(error)")
            }
        }

        let withdrawn = !consents.isEmpty && consents.allSatisfy { withdrawalOf[$0.id] != nil }
        var carePlanID: String?
        if let plan = data.carePlan {
            let tasks = data.tasks.filter { data.studyTaskID(of: $0) != StudyTaskDefinition.onboardingID }
            do {
                let result = try FHIRCarePlanBuilder().carePlan(id: participantID, patientID: participantID, plan: plan, tasks: tasks,
                                                                status: withdrawn ? .revoked : .active)
                resources.append(result.resource)
                issues += result.issues.map { StudyExportIssue(participantID: participantID, message: $0.description) }
                carePlanID = participantID
            } catch {
                note("care plan left out: \(error)")
            }
        }

        for outcome in data.outcomes {
            guard let task = data.taskVersion(of: outcome), let taskID = data.studyTaskID(of: task),
                  let definition = study.task(id: taskID) else { continue }
            for (index, value) in outcome.values.enumerated() {
                guard let coding = definition.coding(forValueKind: value.kind) else { continue }
                let id = "\(outcome.uuid.uuidString.lowercased())-\(index)"
                guard let recordedAt = outcome.createdDate ?? value.createdDate else {
                    note("Observation/\(id) left out: the outcome has no recording time")
                    continue
                }
                do {
                    resources.append(try FHIRObservationBuilder().observation(
                        id: id, code: FHIRCoding(system: coding.system, code: coding.code, display: coding.display), value: value,
                        patientID: participantID, effective: recordedAt, timeZone: outcome.timeZone,
                        category: definition.surveyFile == nil ? nil : FHIRTerminology.surveyCategory, carePlanID: carePlanID))
                } catch {
                    note("Observation/\(id) of task '\(taskID)' left out: \(error)")
                }
            }
        }

        do {
            resources += questionnaireResponses(of: data, study: study, note: note)
            resources += try additionalResources(data)
        } catch {
            note("additional resources left out: \(error)")
        }
        return (resources, issues)
    }

    /// The signature identifiers the participant gives in the study's onboarding (its consent review or document
    /// steps), in any language.
    static func participantSignatureIdentifiers(of study: StudyDefinition) -> Set<String> {
        var identifiers = Set<String>()
        for task in study.onboardingTasks.values {
            for step in task.consentSteps {
                switch step {
                case .review(let review): identifiers.insert(review.signatureIdentifier)
                case .document(let document): identifiers.insert(document.signatureIdentifier)
                case .visualConsent, .sharing: break
                }
            }
        }
        return identifiers
    }

    /// Who "the investigators" are in the sharing step of the onboarding in `language`; nil without a sharing step.
    static func sharingRecipients(of study: StudyDefinition, language: String) -> String? {
        for step in study.onboardingTask(language: language).consentSteps {
            if case .sharing(let sharing) = step { return sharing.investigatorLongDescription }
        }
        return nil
    }
}
