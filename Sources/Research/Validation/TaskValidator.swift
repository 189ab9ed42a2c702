import Foundation
import JSONDiagnostics

/// Reads task JSON and checks everything a task must satisfy before it is run, naming the JSON path and the
/// problem for each fault: construction rules of every answer format, unique identifiers, navigation
/// destinations and condition references that exist, values that fit the questions they are compared with,
/// and no keys that StudyKit would silently ignore.
///
/// ```swift
/// let task = try TaskValidator.load(data)          // throws TaskValidationFailure with every problem
/// let problems = TaskValidator.problems(in: task)  // [] for a valid task
/// ```
public enum TaskValidator {
    /// Decodes and validates a task; throws ``TaskValidationFailure`` listing every problem found.
    public static func load(_ data: Data) throws(TaskValidationFailure) -> ResearchTask {
        // Read exactly as written first: a key given twice (which JSON readers resolve differently) is refused with its
        // place, and the unknown-key check below walks the same tree.
        let tree: JSONTree
        do {
            tree = try JSONTree(data: data)
        } catch {
            throw TaskValidationFailure(problems: [TaskDefinitionError(path: "", message: "malformed JSON: \(error.locatedMessage)")])
        }
        let document: TaskDocument
        do {
            document = try ResearchJSON.decoder().decode(TaskDocument.self, from: data)
        } catch let error as DecodingError {
            throw TaskValidationFailure(problems: [problem(from: error, in: data)])
        } catch {
            throw TaskValidationFailure(problems: [TaskDefinitionError(path: "", message: "\(error)")])
        }
        var problems = problems(identifier: document.identifier, steps: document.steps,
                                navigationRules: document.navigationRules ?? [:], skipRules: document.skipRules ?? [:])
        problems += UnknownKeyDetector.problems(in: tree)
        guard problems.isEmpty else { throw TaskValidationFailure(problems: problems) }
        do {
            return try ResearchTask(identifier: document.identifier, title: document.title, steps: document.steps,
                                    navigationRules: document.navigationRules ?? [:], skipRules: document.skipRules ?? [:])
        } catch {
            throw TaskValidationFailure(problems: [error])
        }
    }

    /// Every problem in a task built in code (an empty array when it is valid).
    public static func problems(in task: ResearchTask) -> [TaskDefinitionError] {
        problems(identifier: task.identifier, steps: task.steps, navigationRules: task.navigationRules, skipRules: task.skipRules)
    }

    /// The JSON shape of a task, read without the checks of ``ResearchTask/init(identifier:title:steps:navigationRules:skipRules:)``
    /// so that all problems can be reported together.
    private struct TaskDocument: Decodable {
        var identifier: String
        var title: String?
        var steps: [Step]
        var navigationRules: [String: NavigationRule]?
        var skipRules: [String: Condition]?
    }

    static func problems(identifier: String, steps: [Step], navigationRules: [String: NavigationRule],
                         skipRules: [String: Condition]) -> [TaskDefinitionError] {
        var problems: [TaskDefinitionError] = []
        func report(_ path: String, _ message: String) { problems.append(TaskDefinitionError(path: path, message: message)) }

        if identifier.trimmingCharacters(in: .whitespaces).isEmpty { report("identifier", "must not be empty") }
        if steps.isEmpty { report("steps", "a task needs at least one step") }

        var firstIndex: [String: Int] = [:]
        var emailRequest: String?
        for (index, step) in steps.enumerated() {
            let path = "steps[\(index)]"
            if step.identifier.trimmingCharacters(in: .whitespaces).isEmpty {
                report("\(path).identifier", "must not be empty")
            } else if step.identifier.hasPrefix("$") {
                report("\(path).identifier", "must not start with '$' (reserved for destinations such as \(Destination.endToken))")
            } else if let earlier = firstIndex[step.identifier] {
                report("\(path).identifier", "duplicate step identifier '\(step.identifier)' (also steps[\(earlier)])")
            } else {
                firstIndex[step.identifier] = index
            }
            problems += stepProblems(step, path: path)
            if case .requestPermissions(let requests) = step.kind {
                // One address per task: a runner adds the one given, and a second field would only ask again.
                for (requestIndex, request) in requests.enumerated() where request.kind == .email {
                    if let first = emailRequest {
                        report("\(path).permissions[\(requestIndex)].kind",
                               "a task asks for the reminder email address once at most, and \(first) asks for it already")
                    } else {
                        emailRequest = "permission '\(request.identifier)' of step '\(step.identifier)'"
                    }
                }
            }
        }

        let questions = questionIndex(steps)
        for key in navigationRules.keys.sorted() {
            let rule = navigationRules[key]!
            let path = "navigationRules.\(key)"
            if firstIndex[key] == nil { report(path, "no step has the identifier '\(key)'") }
            switch rule {
            case .direct(let destination):
                if case .step(let target) = destination, firstIndex[target] == nil {
                    report("\(path).goTo", "unknown destination step '\(target)'")
                }
            case .conditional(let rules, let otherwise):
                if rules.isEmpty { report("\(path).rules", "a conditional rule needs at least one condition; use \"goTo\" for a direct rule") }
                for (index, branch) in rules.enumerated() {
                    if case .step(let target) = branch.destination, firstIndex[target] == nil {
                        report("\(path).rules[\(index)].goTo", "unknown destination step '\(target)'")
                    }
                    problems += conditionProblems(branch.condition, path: "\(path).rules[\(index)].if", questions: questions)
                }
                if case .step(let target)? = otherwise, firstIndex[target] == nil {
                    report("\(path).otherwise", "unknown destination step '\(target)'")
                }
            }
        }
        for key in skipRules.keys.sorted() {
            if firstIndex[key] == nil { report("skipRules.\(key)", "no step has the identifier '\(key)'") }
            problems += conditionProblems(skipRules[key]!, path: "skipRules.\(key)", questions: questions)
        }
        return problems
    }

    private static func stepProblems(_ step: Step, path: String) -> [TaskDefinitionError] {
        var problems: [TaskDefinitionError] = []
        func report(_ subpath: String, _ message: String) {
            problems.append(TaskDefinitionError(path: subpath.isEmpty ? path : "\(path).\(subpath)", message: message))
        }
        func formatProblems(_ format: AnswerFormat, at subpath: String) {
            for problem in format.constructionProblems() {
                report(problem.path.isEmpty ? subpath : "\(subpath).\(problem.path)", problem.message)
            }
        }
        switch step.kind {
        case .question(let format):
            formatProblems(format, at: "answerFormat")
        case .form(let form):
            var seen: [String: Int] = [:]
            if !form.items.contains(where: { !$0.isSectionTitle }) { report("items", "a form needs at least one question") }
            for (index, item) in form.items.enumerated() {
                if item.isSectionTitle {
                    if (item.text ?? "").isEmpty { report("items[\(index)].sectionTitle", "must not be empty") }
                    continue
                }
                let identifier = item.identifier ?? ""
                if identifier.trimmingCharacters(in: .whitespaces).isEmpty {
                    report("items[\(index)].identifier", "must not be empty")
                } else if let earlier = seen[identifier] {
                    report("items[\(index)].identifier", "duplicate item identifier '\(identifier)' (also items[\(earlier)])")
                } else {
                    seen[identifier] = index
                }
                if let format = item.answerFormat { formatProblems(format, at: "items[\(index)].answerFormat") }
                if let calculation = item.calculation {
                    if calculation.language.trimmingCharacters(in: .whitespaces).isEmpty {
                        report("items[\(index)].calculation.language", "must name the expression's language, such as text/fhirpath")
                    }
                    if calculation.expression.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                        report("items[\(index)].calculation.expression", "must not be empty")
                    }
                    if !item.isOptional {
                        report("items[\(index)].optional", "a calculated item is filled in by the task, so it cannot be required")
                    }
                } else if item.isHidden {
                    report("items[\(index)].hidden", "only a calculated item can be hidden: a question must be shown to be answered")
                }
            }
        case .webContent(let content):
            if content.html.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { report("html", "must not be empty") }
        case .table(let content):
            if content.items.isEmpty { report("items", "a table step needs at least one item") }
        case .wait(let content):
            if let duration = content.duration, !(duration > 0) { report("duration", "must be greater than 0 seconds (\(duration))") }
        case .requestPermissions(let requests):
            if requests.isEmpty { report("permissions", "a request-permissions step needs at least one permission") }
            var seen = Set<String>()
            for (index, request) in requests.enumerated() where !seen.insert(request.identifier).inserted {
                report("permissions[\(index)].identifier", "duplicate permission identifier '\(request.identifier)'")
            }
        case .videoInstruction(let content):
            if content.videoURL.trimmingCharacters(in: .whitespaces).isEmpty { report("videoURL", "must not be empty") }
            if content.thumbnailTime < 0 { report("thumbnailTime", "must not be negative (\(content.thumbnailTime))") }
        case .active(let content):
            if content.module.trimmingCharacters(in: .whitespaces).isEmpty { report("module", "must name the module that runs the step") }
            if let duration = content.duration, !(duration > 0 && duration.isFinite) {
                report("duration", "must be greater than 0 seconds (\(duration))")
            }
        case .instruction, .completion, .review, .signature:
            break
        }
        for (index, item) in step.bodyItems.enumerated() where item.text == nil && item.detailText == nil && item.image == nil {
            report("bodyItems[\(index)]", "a body item needs text, detail text or an image")
        }
        return problems
    }

    /// Answer formats by step identifier and question identifier.
    private static func questionIndex(_ steps: [Step]) -> [String: [String: AnswerFormat]] {
        var index: [String: [String: AnswerFormat]] = [:]
        for step in steps {
            index[step.identifier, default: [:]] = Dictionary(step.questions.map { ($0.identifier, $0.format) }, uniquingKeysWith: { first, _ in first })
        }
        return index
    }

    /// Checks that every reference in a condition names a question of this task (references to other tasks
    /// are checked when the study is loaded) and that compared values fit the question's answers.
    private static func conditionProblems(_ condition: Condition, path: String,
                                          questions: [String: [String: AnswerFormat]]) -> [TaskDefinitionError] {
        var problems: [TaskDefinitionError] = []
        func format(of reference: AnswerReference) -> AnswerFormat? {
            guard reference.task == nil else { return nil }
            guard let step = questions[reference.step] else {
                problems.append(TaskDefinitionError(path: path, message: "'\(reference.step)' is not a step of this task"))
                return nil
            }
            let item = reference.item ?? reference.step
            guard let format = step[item] else {
                let message = reference.item == nil
                    ? "step '\(reference.step)' is not a question step; name one of its items as '\(reference.step).ITEM'"
                    : "step '\(reference.step)' has no question '\(item)'"
                problems.append(TaskDefinitionError(path: path, message: step.isEmpty ? "step '\(reference.step)' asks no question" : message))
                return nil
            }
            return format
        }
        func check(_ value: ConditionValue, against format: AnswerFormat, reference: AnswerReference, comparing: Bool) {
            let fits: Bool
            switch (format.type.answerKind, value) {
            case (.boolean, .boolean): fits = !comparing
            case (.number, .number), (.timeInterval, .number): fits = true
            case (.text, .string): fits = true
            case (.date, .string(let text)), (.timeOfDay, .string(let text)):
                fits = format.type.answerKind == .timeOfDay ? TimeOfDay(parsing: text) != nil
                    : (ISO8601.day(from: text) != nil || ISO8601.date(from: text) != nil)
            case (.choices, _), (.components, _):
                fits = format.choiceValues.contains { $0.relation(to: value) != .incomparable }
            default: fits = false
            }
            if !fits {
                problems.append(TaskDefinitionError(path: path,
                    message: "\(value) cannot be compared with '\(reference)', a \(format.type.rawValue) question"))
            }
        }
        func walk(_ condition: Condition) {
            switch condition {
            case .constant: break
            case .and(let list), .or(let list): list.forEach(walk)
            case .not(let inner): walk(inner)
            case .answered(let reference), .dontKnow(let reference): _ = format(of: reference)
            case .expression(let calculation):
                if calculation.language.trimmingCharacters(in: .whitespaces).isEmpty || calculation.expression.trimmingCharacters(in: .whitespaces).isEmpty {
                    problems.append(TaskDefinitionError(path: path, message: "an expression condition needs a language and an expression"))
                }
            case .comparison(let reference, let op, let value):
                if let format = format(of: reference) {
                    check(value, against: format, reference: reference, comparing: op != .equal && op != .notEqual)
                }
            case .inRange(let reference, let lower, let upper):
                if let format = format(of: reference) {
                    check(lower, against: format, reference: reference, comparing: true)
                    check(upper, against: format, reference: reference, comparing: true)
                }
            case .contains(let reference, let value):
                if let format = format(of: reference) {
                    switch format.type.answerKind {
                    case .choices, .components: check(value, against: format, reference: reference, comparing: false)
                    case .text: if case .string = value {} else { check(value, against: format, reference: reference, comparing: false) }
                    default: problems.append(TaskDefinitionError(path: path, message: "'contains' needs a choice or text question; '\(reference)' is a \(format.type.rawValue) question"))
                    }
                }
            case .matches(let reference, _):
                if let format = format(of: reference), format.type.answerKind != .text {
                    problems.append(TaskDefinitionError(path: path, message: "'matches' needs a text question; '\(reference)' is a \(format.type.rawValue) question"))
                }
            }
        }
        walk(condition)
        return problems
    }

    /// Turns a decoding error into a problem at its JSON path; malformed JSON gets its line and column.
    public static func problem(from error: DecodingError, in data: Data) -> TaskDefinitionError {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return TaskDefinitionError(path: "", message: "malformed JSON: \(JSONDiagnostics.describeSyntaxError(in: data))")
        case .dataCorrupted(let context):
            if let definition = context.underlyingError as? TaskDefinitionError {
                return TaskDefinitionError(path: join(jsonPath(context.codingPath), definition.path), message: definition.message)
            }
            return TaskDefinitionError(path: jsonPath(context.codingPath), message: context.debugDescription)
        case .keyNotFound(let key, let context):
            return TaskDefinitionError(path: join(jsonPath(context.codingPath), key.stringValue), message: "is required but missing")
        case .typeMismatch(let type, let context):
            return TaskDefinitionError(path: jsonPath(context.codingPath), message: "expected \(describe(type)); \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return TaskDefinitionError(path: jsonPath(context.codingPath), message: "expected \(describe(type)), found null")
        @unknown default:
            return TaskDefinitionError(path: "", message: "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Double.Type, is Decimal.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)"
        }
    }

    private static func join(_ base: String, _ tail: String) -> String {
        if base.isEmpty { return tail }
        if tail.isEmpty { return base }
        return tail.hasPrefix("[") ? base + tail : base + "." + tail
    }

    /// `steps[3].answerFormat.maximum` from a coding path.
    static func jsonPath(_ codingPath: [any CodingKey]) -> String { JSONDiagnostics.path(codingPath) }
}

/// Every problem found in a task file.
public struct TaskValidationFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem found, in the order found.
    public var problems: [TaskDefinitionError]
    /// Creates a failure listing `problems`.
    public init(problems: [TaskDefinitionError]) { self.problems = problems }
    /// The problems, one per line, each as `path: message`.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
