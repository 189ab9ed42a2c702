import Foundation
import JSONDiagnostics
import Research

/// Loads task JSON whose `steps` may mix ordinary Research steps with consent steps (`visualConsent`,
/// `consentSharing`, `consentReview`, `consentDocument`), expanding each consent step into the Research steps
/// it stands for, then validating the whole task with ``TaskValidator``.
///
/// Every problem keeps a path into the file as written: faults of a consent step object point into it
/// (`steps[2].signature`), and faults the task validator finds in an expanded step point to the consent step it
/// came from. Navigation rules keep working: a destination naming a consent step goes to its first expanded
/// step, a rule keyed by a consent step applies after its last expanded step, and a skip rule on a consent step
/// skips every step it expanded into.
///
/// ```swift
/// let consentTask = try ConsentTaskLoader.load(taskData: data, document: document, context: context)
/// ```
public enum ConsentTaskLoader {
    /// Expands and validates the task; throws ``TaskValidationFailure`` listing every problem found.
    public static func load(taskData: Data, document: ConsentDocument, context: ConsentContext) throws(TaskValidationFailure) -> ConsentTask {
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: taskData)
        } catch {
            throw TaskValidationFailure(problems: [TaskDefinitionError(path: "", message: "malformed JSON: \(JSONDiagnostics.describeSyntaxError(in: taskData))")])
        }
        guard var task = json as? [String: Any], let steps = task["steps"] as? [Any] else {
            // Not a task object, or no step list: the task validator names the fault.
            return ConsentTask(task: try TaskValidator.load(taskData), document: document, consentSteps: [], expandedIdentifiers: [:])
        }

        var problems: [TaskDefinitionError] = []
        var expanded: [Any] = []
        var origins: [(source: Int, consentStep: String?)] = []
        var consentSteps: [ConsentStep] = []
        var expandedIdentifiers: [String: [String]] = [:]
        for (index, element) in steps.enumerated() {
            guard let object = element as? [String: Any], let type = object["type"] as? String,
                  let known = ConsentStep.knownKeys(type: type) else {
                expanded.append(element)
                origins.append((index, nil))
                continue
            }
            let path = "steps[\(index)]"
            var stepProblems = ConsentKeyChecker.unknownKeys(in: object, known: known, path: path)
            var built: (step: ConsentStep, steps: [Any])?
            do {
                let step = try ConsentDocumentValidator.decode(ConsentStep.self, from: object, path: ["steps", "[\(index)]"])
                let faults = step.problems(for: document)
                stepProblems += faults.map { ConsentDefinitionError(path: ConsentDocumentValidator.join(path, $0.path), message: $0.message) }
                if faults.isEmpty { built = (step, try encode(try step.steps(for: document, context: context))) }
            } catch let failure as ConsentValidationFailure {
                stepProblems += failure.problems
            } catch let fault as ConsentDefinitionError {
                stepProblems.append(fault)
            } catch {
                stepProblems.append(ConsentDefinitionError(path: path, message: "could not expand the consent step: \(error)"))
            }
            problems += stepProblems.map { TaskDefinitionError(path: $0.path, message: $0.message) }
            if let built, stepProblems.isEmpty {
                consentSteps.append(built.step)
                expandedIdentifiers[built.step.identifier] = built.steps.compactMap { ($0 as? [String: Any])?["identifier"] as? String }
                expanded += built.steps
                origins += built.steps.map { _ in (index, built.step.identifier) }
            } else if let identifier = object["identifier"] as? String {
                // A stand-in keeps the identifier, so that rules naming the faulty step are still checked.
                expanded.append(["type": "instruction", "identifier": identifier])
                origins.append((index, nil))
            }
        }
        task["steps"] = expanded

        var renamedPaths: [(expanded: String, written: String)] = []
        if let rules = task["navigationRules"] as? [String: Any] {
            var rewritten: [String: Any] = [:]
            for (key, rule) in rules {
                let newKey = expandedIdentifiers[key]?.last ?? key
                if newKey != key { renamedPaths.append(("navigationRules.\(newKey)", "navigationRules.\(key)")) }
                rewritten[newKey] = redirectDestinations(in: rule, to: expandedIdentifiers)
            }
            task["navigationRules"] = rewritten
        }
        if let rules = task["skipRules"] as? [String: Any] {
            var rewritten: [String: Any] = [:]
            for (key, condition) in rules {
                for newKey in expandedIdentifiers[key] ?? [key] {
                    if newKey != key { renamedPaths.append(("skipRules.\(newKey)", "skipRules.\(key)")) }
                    rewritten[newKey] = condition
                }
            }
            task["skipRules"] = rewritten
        }

        var researchTask: ResearchTask?
        do {
            let data = try JSONSerialization.data(withJSONObject: task, options: [.sortedKeys])
            researchTask = try TaskValidator.load(data)
        } catch let failure as TaskValidationFailure {
            problems += failure.problems.map { writtenProblem($0, origins: origins, renamedPaths: renamedPaths) }
        } catch {
            problems.append(TaskDefinitionError(path: "", message: "could not assemble the expanded task: \(error)"))
        }
        var seen = Set<TaskDefinitionError>()
        problems = problems.filter { seen.insert($0).inserted }
        guard problems.isEmpty, let researchTask else { throw TaskValidationFailure(problems: problems) }
        return ConsentTask(task: researchTask, document: document, consentSteps: consentSteps, expandedIdentifiers: expandedIdentifiers)
    }

    /// Each step as the JSON object Research's encoder writes.
    private static func encode(_ steps: [Step]) throws -> [Any] {
        let encoder = ResearchJSON.encoder(pretty: false)
        return try steps.map { try JSONSerialization.jsonObject(with: try encoder.encode($0)) }
    }

    /// A navigation rule with every destination that names a consent step sent to that step's first expanded step.
    private static func redirectDestinations(in rule: Any, to expanded: [String: [String]]) -> Any {
        guard var object = rule as? [String: Any] else { return rule }
        func redirect(_ value: Any?) -> Any? {
            guard let name = value as? String, let first = expanded[name]?.first else { return value }
            return first
        }
        if object["goTo"] != nil { object["goTo"] = redirect(object["goTo"]) }
        if object["otherwise"] != nil { object["otherwise"] = redirect(object["otherwise"]) }
        if let branches = object["rules"] as? [Any] {
            object["rules"] = branches.map { branch -> Any in
                guard var branch = branch as? [String: Any] else { return branch }
                if branch["goTo"] != nil { branch["goTo"] = redirect(branch["goTo"]) }
                return branch
            }
        }
        return object
    }

    /// `message` with each `steps[N]` of the expanded task replaced by the index of the step as written.
    private static func writtenStepReferences(in message: String, origins: [(source: Int, consentStep: String?)]) -> String {
        guard let pattern = try? NSRegularExpression(pattern: #"steps\[(\d+)\]"#) else { return message }
        var result = message
        for match in pattern.matches(in: message, range: NSRange(message.startIndex..., in: message)).reversed() {
            guard let range = Range(match.range, in: result), let numberRange = Range(match.range(at: 1), in: message),
                  let index = Int(message[numberRange]), origins.indices.contains(index) else { continue }
            result.replaceSubrange(range, with: "steps[\(origins[index].source)]")
        }
        return result
    }

    /// A problem the task validator found in the expanded task, with its path pointing into the file as written.
    private static func writtenProblem(_ problem: TaskDefinitionError, origins: [(source: Int, consentStep: String?)],
                                       renamedPaths: [(expanded: String, written: String)]) -> TaskDefinitionError {
        let path = problem.path
        let problem = TaskDefinitionError(path: path, message: writtenStepReferences(in: problem.message, origins: origins))
        if path.hasPrefix("steps["), let close = path.firstIndex(of: "]"),
           let index = Int(path[path.index(path.startIndex, offsetBy: 6)..<close]), origins.indices.contains(index) {
            let rest = String(path[path.index(after: close)...])
            let origin = origins[index]
            guard let consentStep = origin.consentStep else {
                return TaskDefinitionError(path: "steps[\(origin.source)]\(rest)", message: problem.message)
            }
            let location = rest.isEmpty ? "" : " at \(rest.hasPrefix(".") ? String(rest.dropFirst()) : rest)"
            let expandedIdentifier = "step \(index - (origins.firstIndex { $0.source == origin.source } ?? index) + 1) of consent step '\(consentStep)'"
            return TaskDefinitionError(path: "steps[\(origin.source)]", message: "in \(expandedIdentifier)\(location): \(problem.message)")
        }
        for renamed in renamedPaths.sorted(by: { $0.expanded.count > $1.expanded.count }) where path == renamed.expanded
            || path.hasPrefix(renamed.expanded + ".") || path.hasPrefix(renamed.expanded + "[") {
            return TaskDefinitionError(path: renamed.written + path.dropFirst(renamed.expanded.count), message: problem.message)
        }
        return problem
    }
}
