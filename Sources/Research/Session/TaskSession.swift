import Crypto
import Foundation
import StudyKitEnvironment

/// Runs one task for one participant: the headless equivalent of ResearchKit's task view controller.
///
/// A session starts a run (with a fresh run UUID, or from restoration data), shows the current step,
/// takes answers, and moves forward, back or past a skipped step, following the task's navigation and skip
/// rules. It finishes with a ``FinishReason`` and hands back one ``TaskResult``. Front ends (the terminal
/// runner, the web runner) only render ``currentStep`` and call these methods; every rule lives here.
///
/// ```swift
/// var session = try TaskSession(task: task, environment: .live)
/// try session.setAnswer(.boolean(true))
/// try session.goForward()
/// ```
public struct TaskSession: Sendable {
    /// The task being run.
    public let task: ResearchTask
    /// Identifies this run in its result; a restored run keeps the saved UUID.
    public let taskRunUUID: UUID
    /// When the run started; a restored run keeps the original start.
    public let startDate: Date
    /// What the task is taken on, copied to the result.
    public var device: String?
    /// The latest results of other tasks, which conditions may read.
    public var otherTasks: [String: TaskResult]
    /// Where files produced by the run are kept; nil for a run that takes no files.
    public let files: (any RunFileStore)?
    /// The participant's locale, for showing answers and reading typed ones.
    public var locale: Locale { environment.locale }
    /// The participant's time zone, in which typed dates and times are read and date-time bounds are shown.
    public var timeZone: TimeZone { environment.timeZone }
    /// Why the run ended; nil while it goes on.
    public private(set) var finishReason: FinishReason?
    /// When the run ended.
    public private(set) var endDate: Date?

    private let environment: StudyKitEnvironment
    private let calculator: (any TaskCalculator)?
    private var path: [StepVisit]
    private var setAside: [String: StepVisit]
    /// Files this session value wrote that were not in the folder before: the only ones it deletes at once when they
    /// are replaced, cleared or skipped. Files of an earlier session value (a restored run) may be what a stored
    /// state still refers to; they are left for ``removeUnreferencedFiles()``.
    private var filesWrittenHere: Set<String> = []

    /// Starts a new run of `task` on its first step (skip rules apply to it too).
    ///
    /// The environment gives the clock, the run's UUID and the participant's calendar, zone and locale; the calculator
    /// evaluates calculated items (scores), and may be nil when the task has none.
    public init(task: ResearchTask, environment: StudyKitEnvironment = .live, calculator: (any TaskCalculator)? = nil,
                otherTasks: [String: TaskResult] = [:], files: (any RunFileStore)? = nil, device: String? = nil) throws(TaskSessionError) {
        guard !task.steps.isEmpty else { throw .emptyTask(task.identifier) }
        self.task = task
        self.environment = environment
        self.calculator = calculator
        self.otherTasks = otherTasks
        self.files = files
        self.device = device
        self.taskRunUUID = environment.makeUUID()
        self.startDate = environment.now()
        self.path = []
        self.setAside = [:]
        switch task.navigate(after: nil, context: { conditionContext }) {
        case .step(let first):
            var visit = StepVisit(stepIdentifier: first.identifier, startDate: startDate)
            visit.answers = initialAnswers(of: first)
            path = [visit]
        case .end: finish(.completed)
        case .cycle(let step): throw .navigationCycle(step)
        }
        recalculate()
    }

    /// Resumes a saved run on the step where it was saved, with every earlier answer kept.
    ///
    /// Throws ``TaskSessionError/restorationMismatch(_:)`` when the data belongs to another task or names
    /// steps the task does not have.
    public init(task: ResearchTask, restoring data: TaskRestorationData, environment: StudyKitEnvironment = .live,
                calculator: (any TaskCalculator)? = nil, otherTasks: [String: TaskResult] = [:],
                files: (any RunFileStore)? = nil) throws(TaskSessionError) {
        guard data.taskIdentifier == task.identifier else {
            throw .restorationMismatch("the saved run belongs to task '\(data.taskIdentifier)', not '\(task.identifier)'")
        }
        guard data.formatVersion == TaskSession.restorationFormatVersion else {
            throw .restorationMismatch("the saved run has format version \(data.formatVersion); this version reads \(TaskSession.restorationFormatVersion)")
        }
        guard !data.path.isEmpty else { throw .restorationMismatch("the saved run has no current step") }
        for visit in data.path + Array(data.setAside.values) {
            guard let step = task.step(withIdentifier: visit.stepIdentifier) else {
                throw .restorationMismatch("the saved run visited step '\(visit.stepIdentifier)', which task '\(task.identifier)' does not have")
            }
            for item in visit.answers.keys where step.answerFormat(forItem: item) == nil {
                throw .restorationMismatch("the saved run answered '\(item)' in step '\(step.identifier)', which has no such question")
            }
        }
        self.task = task
        self.environment = environment
        self.calculator = calculator
        self.otherTasks = otherTasks
        self.files = files
        self.device = data.device
        self.taskRunUUID = data.taskRunUUID
        self.startDate = data.startDate
        self.path = data.path
        self.setAside = data.setAside
        path[path.count - 1].endDate = nil
        recalculate()
    }

    static let restorationFormatVersion = 1

    // MARK: - Where the participant is

    /// The step to show; nil once the run has finished.
    public var currentStep: Step? {
        guard finishReason == nil, let visit = path.last else { return nil }
        return task.step(withIdentifier: visit.stepIdentifier)
    }

    private var current: StepVisit {
        get { path[path.count - 1] }
        set { path[path.count - 1] = newValue }
    }

    /// "Step x of y" for the current step, counting the task's steps but a leading instruction, a trailing
    /// completion step and the steps a skip rule passes over on the answers so far; nil on the first two and once
    /// finished.
    public var progress: TaskProgress? {
        guard let step = currentStep, let index = task.index(ofStep: step.identifier) else { return nil }
        let leading = task.steps.first.map { $0.kind == .instruction } == true ? 1 : 0
        let trailing = task.steps.count > leading && task.steps.last.map { $0.kind == .completion } == true ? 1 : 0
        let counted = leading..<(task.steps.count - trailing)
        guard counted.contains(index) else { return nil }
        guard !task.skipRules.isEmpty else { return TaskProgress(current: index - leading + 1, total: counted.count) }
        // Steps whose skip rule holds on the answers so far are not counted (a repeating group's later repetitions
        // until "Add another" is answered yes), so the count grows and shrinks with the answers.
        let context = conditionContext
        let shown = counted.filter { position in
            position == index || !(task.skipRules[task.steps[position].identifier]?.isSatisfied(by: context) ?? false)
        }
        return TaskProgress(current: (shown.firstIndex(of: index) ?? 0) + 1, total: shown.count)
    }

    /// Whether Back is available: there is an earlier step on the path taken.
    public var canGoBack: Bool { finishReason == nil && path.count > 1 }

    /// Whether Skip is available: the current step is optional.
    public var canSkip: Bool { currentStep?.isOptional == true }

    /// Whether Next is available: a question step has its answer, a form has every required item answered,
    /// and a signature step (or web content that asks for one) has a signature.
    public var canGoForward: Bool { currentStep != nil && missingAnswers.isEmpty }

    /// The required questions (and `"signature"`) of the current step still without an answer.
    public var missingAnswers: [String] {
        guard let step = currentStep else { return [] }
        var missing: [String]
        if case .question = step.kind {
            // As in ResearchKit, Next on a question step needs an answer; an optional one is left empty with Skip.
            missing = current.answers[step.identifier] == nil ? [step.identifier] : []
        } else {
            missing = step.questions.filter { !$0.isOptional && current.answers[$0.identifier] == nil }.map(\.identifier)
        }
        if needsSignature(step), current.signature == nil { missing.append("signature") }
        if case .active = step.kind, current.active == nil { missing.append("result") }
        return missing
    }

    private func needsSignature(_ step: Step) -> Bool {
        switch step.kind {
        case .signature: true
        case .webContent(let content): content.showSignatureAfterContent
        default: false
        }
    }

    /// The stored answer to `item` (nil: the question step's own question) on the current step, for pre-filling.
    public func answer(for item: String? = nil) -> Answer? {
        guard let step = currentStep else { return nil }
        return current.answers[item ?? step.identifier]
    }

    /// The signature given on the current step.
    public var signature: SignatureResult? { currentStep == nil ? nil : current.signature }

    /// The recorded outcome of a permission on the current step.
    public func permissionOutcome(_ identifier: String) -> PermissionOutcome? {
        currentStep == nil ? nil : current.permissions[identifier]
    }

    // MARK: - Answering

    /// Stores an answer to `item` (nil: the question step's own question) after validating it against the
    /// question's format; nil, an empty selection or whitespace-only text clears the answer.
    ///
    /// A file answer must name a file attached on this visit (see ``attachFile(_:title:contentType:for:)``);
    /// clearing a file answer lets its file go (see ``removeUnreferencedFiles()``).
    public mutating func setAnswer(_ answer: Answer?, for item: String? = nil) throws(TaskSessionError) {
        let (step, identifier, format) = try question(item)
        _ = step
        guard let answer, let normalized = format.normalized(answer) else {
            if case .file(let previous)? = current.answers[identifier] { letGo(of: previous.fileName) }
            current.answers[identifier] = nil
            return
        }
        if case .file(let file) = normalized, !current.files.contains(where: { $0.fileName == file.fileName }) {
            throw .notAllowed("'\(file.fileName)' was not attached to '\(identifier)' on this step")
        }
        do {
            try format.validate(normalized)
        } catch {
            throw .invalidAnswer(item: identifier, error)
        }
        current.answers[identifier] = normalized
    }

    /// Reads what the participant typed for `item` with the format's text rules, then stores it as
    /// ``setAnswer(_:for:)`` does; returns the stored answer.
    @discardableResult
    public mutating func setAnswer(text: String, for item: String? = nil) throws(TaskSessionError) -> Answer? {
        let (_, identifier, format) = try question(item)
        let parsed: Answer?
        do {
            parsed = try format.answer(fromText: text, locale: environment.locale, timeZone: environment.timeZone,
                                       calendar: environment.calendar.identifier)
        } catch {
            throw .invalidAnswer(item: identifier, error)
        }
        try setAnswer(parsed, for: identifier)
        return current.answers[identifier]
    }

    private func question(_ item: String?) throws(TaskSessionError) -> (Step, String, AnswerFormat) {
        guard let step = currentStep else { throw .finished(finishReason ?? .completed) }
        let identifier = item ?? step.identifier
        guard let format = step.answerFormat(forItem: identifier) else { throw .unknownItem(identifier) }
        if step.calculatedItems.contains(where: { $0.identifier == identifier }) {
            throw .notAllowed("'\(identifier)' is calculated from the other answers; it cannot be answered")
        }
        return (step, identifier, format)
    }

    // MARK: - Calculated items

    /// The answers that pre-fill a step shown for the first time: each item's ``FormItem/initialValue`` as the
    /// calculator gives it, when it fits the item. An expression that fails or gives nothing leaves the item empty: a
    /// pre-filled value only saves typing, and the participant answers the question either way.
    private func initialAnswers(of step: Step) -> [String: Answer] {
        guard let calculator, case .form(let form) = step.kind else { return [:] }
        var answers: [String: Answer] = [:]
        for item in form.items {
            guard let identifier = item.identifier, let initial = item.initialValue, let format = item.answerFormat,
                  let value = try? calculator.value(of: item, calculation: initial, task: task, result: result, environment: environment),
                  let normalized = format.normalized(value), (try? format.validate(normalized)) != nil else { continue }
            answers[identifier] = normalized
        }
        return answers
    }

    /// Why calculated items of the current step have no value, by item identifier: their expression failed,
    /// or no calculator in the environment evaluates its language. Empty when every value was calculated.
    public private(set) var calculationErrors: [String: TaskCalculationError] = [:]

    /// Computes the current step's calculated items from the answers so far (each item's own earlier value
    /// left out) and stores them as the items' answers; failures go to ``calculationErrors``. Items are
    /// computed in order, so a later item may read an earlier one.
    public mutating func recalculate() {
        calculationErrors = [:]
        guard let step = currentStep else { return }
        for item in step.calculatedItems {
            guard let identifier = item.identifier, let calculation = item.calculation else { continue }
            current.answers[identifier] = nil
            guard let calculator else {
                calculationErrors[identifier] = TaskCalculationError(
                    item: identifier, message: "no calculator evaluates \(calculation.language) expressions here")
                continue
            }
            do {
                let value = try calculator.value(of: item, calculation: calculation, task: task, result: result, environment: environment)
                if let value, let format = item.answerFormat {
                    guard let normalized = format.normalized(value) else { continue }
                    do {
                        try format.validate(normalized)
                    } catch {
                        calculationErrors[identifier] = TaskCalculationError(
                            item: identifier, message: "the calculated value does not fit the item: \(error.message)")
                        continue
                    }
                    current.answers[identifier] = normalized
                }
            } catch {
                calculationErrors[identifier] = error
            }
        }
    }

    /// Attaches a file as the answer to the file question `item` (nil: the question step's own question): checks
    /// it against the question's ``FileFormat`` (size and media type) before anything is written, writes it to
    /// the run's output folder as ``recordFile(_:identifier:fileExtension:contentType:)`` does, and stores a
    /// ``FileAnswer`` with its size and SHA-256. A file attached again replaces the earlier one.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - title: The file's name as the participant chose it, such as `knee.jpg`; its extension names the stored file.
    ///   - contentType: The media type it came with.
    @discardableResult
    public mutating func attachFile(_ data: Data, title: String?, contentType: String, for item: String? = nil) throws(TaskSessionError) -> FileAnswer {
        let (_, identifier, format) = try question(item)
        guard case .file = format else {
            throw .invalidAnswer(item: identifier, format.wrongKindError)
        }
        let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        var answer = FileAnswer(fileName: "", contentType: contentType, byteCount: data.count, sha256: digest, title: title)
        do {
            try format.validate(.file(answer))
        } catch {
            throw .invalidAnswer(item: identifier, error)
        }
        // The extension names the stored file: a long or odd one (a name that ends in 240 letters after a dot) would
        // make a name the file system refuses, so only a short one of letters and digits is kept.
        let stem = title.flatMap { name -> String? in
            let ext = (name as NSString).pathExtension
            return ext.isEmpty || ext.count > 16 || !ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) ? nil : ext
        }
        let result = try recordFile(data, identifier: identifier, fileExtension: stem ?? "bin", contentType: contentType)
        answer.fileName = result.fileName
        current.answers[identifier] = .file(answer)
        return answer
    }

    /// Takes a file recorded on this visit off the list; deletes it at once only when this session value wrote it
    /// (see ``removeUnreferencedFiles()`` for the others).
    private mutating func letGo(of fileName: String) {
        current.files.removeAll { $0.fileName == fileName }
        guard filesWrittenHere.remove(fileName) != nil, let files else { return }
        files.remove(named: fileName, ofRun: taskRunUUID)
    }

    /// The names of the files the run refers to: while it goes on, those recorded on every visit of its path and on
    /// visits set aside (which Next may bring back); once it has ended, those its result holds.
    public var referencedFileNames: Set<String> { finishReason == nil ? restorationData.fileNames : result.fileNames }

    /// Deletes the files in the run's output folder that the run no longer refers to (``referencedFileNames``):
    /// files replaced, cleared or skipped on an earlier session value of this run, and files written by session
    /// values that were then thrown away (a refused form). Call it where no other session value of the run can be
    /// writing — the study server calls it inside the store transaction that applies a post — and with the run as
    /// last saved, so that nothing a stored state refers to is deleted.
    public func removeUnreferencedFiles() {
        guard let files else { return }
        let names = files.fileNames(ofRun: taskRunUUID)
        guard !names.isEmpty else { return }
        let referenced = referencedFileNames
        for name in names where !referenced.contains(name) {
            files.remove(named: name, ofRun: taskRunUUID)
        }
    }

    /// Records the participant's drawn signature on a signature step, or on web content that asks for one.
    public mutating func sign(_ signature: Signature) throws(TaskSessionError) {
        guard let step = currentStep else { throw .finished(finishReason ?? .completed) }
        guard needsSignature(step) else { throw .notAllowed("step '\(step.identifier)' does not ask for a signature") }
        guard !signature.isEmpty else { throw .invalidAnswer(item: "signature", AnswerValidationError(.signatureRequired)) }
        let bad = signature.strokes.joined().first { !$0.x.isFinite || !$0.y.isFinite || !$0.t.isFinite
            || $0.x < 0 || $0.y < 0 || $0.x > signature.width || $0.y > signature.height || $0.t < 0 }
        if bad != nil || !(signature.width > 0 && signature.height > 0) {
            throw .invalidAnswer(item: "signature", AnswerValidationError(.signatureOutsideArea))
        }
        current.signature = SignatureResult(identifier: step.identifier, signature: signature, signedDate: environment.now())
    }

    /// Records what the current active step measured, replacing an earlier recording of this visit.
    ///
    /// The result must belong to the step and its module: the caller (a server reading what a browser posted) has
    /// already checked the samples and computed the measures with the module's analyzer.
    public mutating func recordActiveResult(_ result: ActiveStepResult) throws(TaskSessionError) {
        guard let step = currentStep else { throw .finished(finishReason ?? .completed) }
        guard case .active(let content) = step.kind else { throw .notAllowed("step '\(step.identifier)' is not an active step") }
        guard result.identifier == step.identifier, result.module == content.module else {
            throw .notAllowed("a result of '\(result.identifier)' (\(result.module)) was posted to step '\(step.identifier)' (\(content.module))")
        }
        current.active = result
    }

    /// What the current active step has recorded on this visit; nil when nothing yet.
    public var activeResult: ActiveStepResult? { currentStep == nil ? nil : current.active }

    /// Removes the signature from the current step (the pad's Clear button).
    public mutating func clearSignature() {
        guard currentStep != nil else { return }
        current.signature = nil
    }

    /// Records what became of one permission of a request-permissions step.
    public mutating func setPermission(_ identifier: String, outcome: PermissionOutcome) throws(TaskSessionError) {
        guard let step = currentStep else { throw .finished(finishReason ?? .completed) }
        guard case .requestPermissions(let requests) = step.kind, requests.contains(where: { $0.identifier == identifier }) else {
            throw .unknownItem(identifier)
        }
        current.permissions[identifier] = outcome
    }

    /// Stores a file produced on the current step through the session's ``files`` and lists it in the step result.
    ///
    /// The file is named `<step>-<identifier>-<visit>-<digest>.<extension>`, where `visit`
    /// numbers the step's visit on the path (so a loop's second pass does not overwrite the first) and `digest` is the
    /// first eight hex digits of the content's SHA-256 (so a new file never overwrites one a saved state refers to);
    /// characters other than letters, digits, `-` and `_` become `_`, and then a short hash of the exact identifiers
    /// keeps names apart. Writing is atomic; recording the same identifier again on the same visit replaces the file
    /// in the result, and lets the earlier file go (see ``removeUnreferencedFiles()``).
    @discardableResult
    public mutating func recordFile(_ data: Data, identifier: String, fileExtension: String, contentType: String) throws(TaskSessionError) -> FileResult {
        guard let step = currentStep else { throw .finished(finishReason ?? .completed) }
        guard let files else { throw .notAllowed("this run has no place for files") }
        let safe = { (text: String) in String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }) }
        let stem = "\(safe(step.identifier))-\(safe(identifier))"
        let disambiguator = stem == "\(step.identifier)-\(identifier)" ? "" : "-" + Self.shortHash(step.identifier + "\u{0}" + identifier)
        let digest = SHA256.hash(data: data).prefix(4).map { String(format: "%02x", $0) }.joined()
        let fileName = "\(stem)\(disambiguator)-\(path.count)-\(digest).\(safe(fileExtension))"
        let existed: Bool
        do {
            existed = try files.write(data, named: fileName, ofRun: taskRunUUID)
        } catch {
            throw .fileWriteFailed("could not write \(fileName) in \(files.location(ofRun: taskRunUUID) ?? "the run's files"): \(error.localizedDescription)")
        }
        if !existed { filesWrittenHere.insert(fileName) }
        let result = FileResult(identifier: identifier, fileName: fileName, contentType: contentType, byteCount: data.count)
        for earlier in current.files where earlier.identifier == identifier && earlier.fileName != fileName { letGo(of: earlier.fileName) }
        current.files.removeAll { $0.identifier == identifier }
        current.files.append(result)
        return result
    }

    /// Eight hex digits of the FNV-1a hash of `text`: stable across runs and platforms.
    static func shortHash(_ text: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return String(format: "%08x", hash)
    }

    // MARK: - Moving

    /// Leaves the current step with its answers and shows the next one; finishes the run (completed) after the last.
    ///
    /// Throws ``TaskSessionError/missingAnswers(_:)`` while required answers are missing. A calculated item
    /// that could not be calculated does not hold the participant back: it stays unanswered, and its result
    /// says why (``QuestionResult/calculationError``).
    public mutating func goForward() throws(TaskSessionError) {
        guard currentStep != nil else { throw .finished(finishReason ?? .completed) }
        let missing = missingAnswers
        guard missing.isEmpty else { throw .missingAnswers(missing) }
        recalculate()
        current.calculationErrors = calculationErrors.mapValues(\.message)
        current.skipped = false
        try leaveCurrentStep()
    }

    /// Leaves an optional step without an answer: everything entered on it is cleared (a whole form, a
    /// signature, permissions, and files recorded on this visit, which the run lets go: see ``removeUnreferencedFiles()``).
    public mutating func skip() throws(TaskSessionError) {
        guard let step = currentStep else { throw .finished(finishReason ?? .completed) }
        guard step.isOptional else { throw .notOptional(step.identifier) }
        current.answers = [:]
        current.signature = nil
        current.permissions = [:]
        for file in current.files { letGo(of: file.fileName) }
        current.files = []
        current.active = nil
        current.skipped = true
        try leaveCurrentStep()
    }

    /// Returns to the previous step on the path taken, with its answers shown again. The current step's
    /// answers are kept aside and shown again if the participant comes back to it.
    public mutating func goBack() throws(TaskSessionError) {
        guard finishReason == nil else { throw .finished(finishReason!) }
        guard path.count > 1 else { throw .cannotGoBack }
        let left = path.removeLast()
        setAside[left.stepIdentifier] = left
        current.endDate = nil
        recalculate()
    }

    /// From a review step, goes back to an earlier step to change its answer; finishing that step returns
    /// to the review step (through the steps in between, when their answers still stand).
    public mutating func revisit(_ stepIdentifier: String) throws(TaskSessionError) {
        guard let step = currentStep else { throw .finished(finishReason ?? .completed) }
        guard case .review = step.kind else { throw .notAllowed("only a review step can send the participant back to a step") }
        guard let target = path.dropLast().lastIndex(where: { $0.stepIdentifier == stepIdentifier }) else {
            throw .notAllowed("step '\(stepIdentifier)' was not answered before this review")
        }
        while path.count - 1 > target {
            let left = path.removeLast()
            setAside[left.stepIdentifier] = left
        }
        current.endDate = nil
        current.returnToReview = step.identifier
        recalculate()
    }

    /// What a review step lists: each earlier step on the path with its answers.
    public var reviewEntries: [ReviewEntry] {
        guard let step = currentStep, case .review(let settings) = step.kind else { return [] }
        return path.dropLast().compactMap { visit in
            guard let reviewed = task.step(withIdentifier: visit.stepIdentifier) else { return nil }
            if settings.excludeInstructionSteps && reviewed.questions.isEmpty && !needsSignature(reviewed) { return nil }
            let answers = reviewed.questions.map { question in
                ReviewEntry.Item(identifier: question.identifier, answer: visit.skipped ? nil : visit.answers[question.identifier], format: question.format)
            }
            return ReviewEntry(step: reviewed, items: answers, skipped: visit.skipped, signed: visit.signature != nil)
        }
    }

    /// Ends the run from a step that offers early termination.
    public mutating func terminateEarly() throws(TaskSessionError) {
        guard let step = currentStep else { throw .finished(finishReason ?? .completed) }
        guard step.earlyTermination != nil else { throw .notAllowed("step '\(step.identifier)' does not offer ending the task early") }
        current.endDate = environment.now()
        finish(.earlyTermination)
    }

    /// Saves the run to continue later: the run ends with reason ``FinishReason/saved`` and the returned
    /// data resumes it on the current step.
    public mutating func save() throws(TaskSessionError) -> TaskRestorationData {
        guard finishReason == nil else { throw .finished(finishReason!) }
        let data = restorationData
        finish(.saved)
        return data
    }

    /// The run's state as restoration data, without ending it (for servers that persist every step).
    public var restorationData: TaskRestorationData {
        TaskRestorationData(formatVersion: TaskSession.restorationFormatVersion, taskIdentifier: task.identifier,
                            taskRunUUID: taskRunUUID, startDate: startDate, device: device, path: path, setAside: setAside)
    }

    /// Cancels the run, throwing its answers away; files already written stay in the output folder for the caller to remove.
    public mutating func discard() {
        guard finishReason == nil else { return }
        finish(.discarded)
    }

    /// Ends the run because something went wrong outside the session (a step could not be shown).
    public mutating func fail() {
        guard finishReason == nil else { return }
        finish(.failed)
    }

    // MARK: - Results

    /// The result so far: a step result for each step on the path taken, in visited order; when a loop
    /// revisited a step, the earlier passes are marked previous.
    public var result: TaskResult {
        let end = endDate ?? environment.now()
        var lastPass: [String: Int] = [:]
        for (index, visit) in path.enumerated() { lastPass[visit.stepIdentifier] = index }
        let stepResults = path.enumerated().compactMap { index, visit -> StepResult? in
            guard let step = task.step(withIdentifier: visit.stepIdentifier) else { return nil }
            return visit.stepResult(for: step, endDate: end, isPrevious: lastPass[visit.stepIdentifier] != index)
        }
        return TaskResult(identifier: task.identifier, taskRunUUID: taskRunUUID, startDate: startDate, endDate: end,
                          device: device, outputDirectory: files?.location(ofRun: taskRunUUID),
                          stepResults: stepResults)
    }

    /// Answers as conditions see them: the latest visit of each step on the path, the current one included.
    /// Results are built only for the steps a condition reads.
    private var conditionContext: ConditionContext {
        let path = self.path, task = self.task, now = environment.now()
        var context = ConditionContext(otherTasks: otherTasks) { identifier in
            guard let visit = path.last(where: { $0.stepIdentifier == identifier }),
                  let step = task.step(withIdentifier: identifier) else { return nil }
            return visit.stepResult(for: step, endDate: visit.endDate ?? now, isPrevious: false)
        }
        if let calculator {
            let result = self.result, environment = self.environment
            context.evaluateExpression = { condition in
                (try? calculator.holds(condition, task: task, result: result, environment: environment)) ?? false
            }
        }
        return context
    }

    // MARK: - Internals

    private mutating func leaveCurrentStep() throws(TaskSessionError) {
        let leaving = current
        let now = environment.now()
        current.endDate = now
        setAside[leaving.stepIdentifier] = nil
        var next = try nextVisit(after: leaving.stepIdentifier, at: now)
        // Returning from a change made on a review step: walk forward through steps whose set-aside answers
        // still stand, until the review step is reached again.
        if let review = leaving.returnToReview {
            current.returnToReview = nil
            while var visit = next, visit.stepIdentifier != review,
                  let step = task.step(withIdentifier: visit.stepIdentifier),
                  let kept = setAside[visit.stepIdentifier], isComplete(kept, for: step) {
                visit = kept
                visit.endDate = now
                path.append(visit)
                setAside[visit.stepIdentifier] = nil
                next = try nextVisit(after: visit.stepIdentifier, at: now)
            }
        }
        guard let next else {
            finish(.completed)
            return
        }
        path.append(next)
        recalculate()
    }

    /// The visit for the step navigation leads to after `identifier`, pre-filled from a set-aside visit or
    /// an earlier pass; nil when the task ends.
    private func nextVisit(after identifier: String, at now: Date) throws(TaskSessionError) -> StepVisit? {
        switch task.navigate(after: identifier, context: { conditionContext }) {
        case .end:
            return nil
        case .cycle(let step):
            throw .navigationCycle(step)
        case .step(let step):
            var visit = StepVisit(stepIdentifier: step.identifier, startDate: now)
            if let kept = setAside[step.identifier] ?? path.last(where: { $0.stepIdentifier == step.identifier }) {
                visit.answers = kept.answers
                visit.signature = kept.signature
                visit.permissions = kept.permissions
                visit.files = kept.files
            } else {
                visit.answers = initialAnswers(of: step)
            }
            return visit
        }
    }

    private func isComplete(_ visit: StepVisit, for step: Step) -> Bool {
        if visit.skipped { return step.isOptional }
        let required: Bool
        if case .question = step.kind {
            required = visit.answers[step.identifier] != nil
        } else {
            required = step.questions.filter { !$0.isOptional }.allSatisfy { visit.answers[$0.identifier] != nil }
        }
        return required && (!needsSignature(step) || visit.signature != nil)
    }

    private mutating func finish(_ reason: FinishReason) {
        finishReason = reason
        endDate = environment.now()
    }
}

/// One line of a review step: an earlier step and the answers given there.
public struct ReviewEntry: Hashable, Sendable {
    /// The reviewed step.
    public var step: Step
    /// The step's questions with their answers, in the step's order.
    public var items: [Item]
    /// Whether the participant skipped the step; the items then have no answers.
    public var skipped: Bool
    /// Whether a signature was given on the step.
    public var signed: Bool

    /// One question of a reviewed step and its answer.
    public struct Item: Hashable, Sendable {
        /// The question's identifier: the step's for a question step, the item's for a form item.
        public var identifier: String
        /// The answer given; nil when the question was not answered or the step was skipped.
        public var answer: Answer?
        /// The question's answer format, for showing the answer with ``AnswerFormat/display(_:locale:)``.
        public var format: AnswerFormat
    }
}
