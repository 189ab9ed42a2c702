import Foundation
import Research

/// Walks a participant through a task in the terminal: shows each step, reads answers and commands, and
/// drives a ``TaskSession``. Every rule (validation, navigation, progress) is the session's; this type only
/// turns steps into text and lines into calls.
struct TerminalRunner<Input: LineInput, Output: TextOutput> {
    private(set) var session: TaskSession
    private var input: Input
    let output: Output
    /// Restoration data, once the participant typed `save`.
    private(set) var savedData: TaskRestorationData?

    init(session: TaskSession, input: Input, output: Output) {
        self.session = session
        self.input = input
        self.output = output
    }

    /// How a terminal run ended.
    enum Outcome: Equatable {
        case finished(FinishReason)
        /// Standard input closed before the task ended.
        case inputEnded
    }

    /// What a line typed at a prompt asks for.
    private enum Command: Equatable {
        case back, skip, save, quit, help
        init?(_ line: String) {
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "back": self = .back
            case "skip": self = .skip
            case "save": self = .save
            case "quit": self = .quit
            case "help": self = .help
            default: return nil
            }
        }
    }

    /// The result of handling a prompt: keep going on this step, or the run is over.
    private enum Flow {
        case next
        case end(Outcome)
    }

    mutating func run() -> Outcome {
        if let title = session.task.title { output.line(title); output.line(String(repeating: "=", count: title.count)) }
        while let step = session.currentStep {
            showHeader(step)
            if case .end(let outcome) = present(step) { return outcome }
        }
        return .finished(session.finishReason ?? .completed)
    }

    // MARK: - Steps

    private mutating func present(_ step: Step) -> Flow {
        switch step.kind {
        case .question(let format):
            switch ask(itemIdentifier: step.identifier, text: nil, detail: nil, format: format, isForm: false, optional: step.isOptional) {
            case .answered: return forward()
            case .flow(let flow): return flow
            }
        case .form(let form):
            for item in form.items {
                if item.isSectionTitle {
                    output.line()
                    output.line("— \(item.text ?? "") —")
                    if let detail = item.detailText { output.line(detail) }
                    continue
                }
                guard let identifier = item.identifier, let format = item.answerFormat else { continue }
                if item.isCalculated {
                    // Calculated from the answers so far; shown, never asked (a hidden one is not shown either).
                    if item.isHidden { continue }
                    output.line()
                    let value = session.answer(for: identifier).map { format.display($0, locale: session.locale) }
                        ?? session.calculationErrors[identifier].map { "could not be calculated: \($0.message)" } ?? "no value yet"
                    output.line("\(item.text ?? identifier): \(value)")
                    if let detail = item.detailText { output.line(detail) }
                    continue
                }
                let flow = ask(itemIdentifier: identifier, text: item.text, detail: item.detailText, format: format,
                               isForm: true, optional: item.isOptional, learnMore: item.learnMore)
                switch flow {
                case .answered: continue
                case .flow(let flow): return flow
                }
            }
            return forward()
        case .review:
            return review()
        case .webContent(let content):
            output.line(Self.plainText(fromHTML: content.html))
            if content.showSignatureAfterContent {
                return unavailable(step, what: "a drawn signature, which a terminal cannot take. Sign it in the web app.")
            }
            return waitForEnter()
        case .signature:
            return unavailable(step, what: "a drawn signature, which a terminal cannot take. Sign it in the web app.")
        case .active:
            return unavailable(step, what: "a test measured on a touch screen or with a mouse, which a terminal cannot run. Take it in the web app.")
        case .table(let content):
            for item in content.items { output.line(content.bulleted ? "  • \(item)" : "  \(item)") }
            return waitForEnter()
        case .videoInstruction(let content):
            output.line("Video: \(content.videoURL)")
            if let captions = content.captionsURL { output.line("Captions: \(captions)") }
            return waitForEnter()
        case .wait(let content):
            if let duration = content.duration {
                output.line("Please wait \(Int(duration.rounded(.up))) seconds…")
                Thread.sleep(forTimeInterval: duration)
            }
            return forward()
        case .requestPermissions(let requests):
            for request in requests {
                output.line("\(request.title ?? request.kind.rawValue.capitalized)\(request.detailText.map { ": \($0)" } ?? "")")
                if request.kind == .email {
                    // Only the study's server sends email: the address is given on the web, not to a terminal run.
                    output.line("  Email reminders are set up on the web (the study's Settings → Reminders); a terminal run asks for no address.")
                    try? session.setPermission(request.identifier, outcome: .unavailable)
                    continue
                }
                while true {
                    output.write("Allow? (yes/no) > ")
                    guard let line = input.readLine() else { return .end(.inputEnded) }
                    if let command = Command(line) {
                        if case .end(let outcome) = handle(command) { return .end(outcome) }
                        if command == .help { continue }
                        return .next
                    }
                    switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                    case "y", "yes": try? session.setPermission(request.identifier, outcome: .granted)
                    case "n", "no": try? session.setPermission(request.identifier, outcome: .denied)
                    default: output.line("  ! Type yes or no."); continue
                    }
                    break
                }
            }
            return forward()
        case .instruction, .completion:
            return waitForEnter(finalStep: step.kind == .completion)
        }
    }

    private func showHeader(_ step: Step) {
        output.line()
        if let progress = session.progress { output.line("Step \(progress.current) of \(progress.total)") }
        if let title = step.title { output.line(title) }
        if let text = step.text { output.line(text) }
        if let detail = step.detailText { output.line(detail) }
        if let image = step.image, let alt = image.altText { output.line("[Image: \(alt)]") }
        for item in step.bodyItems {
            let marker: String
            switch item.style {
            case .bullet: marker = "  • "
            case .image: marker = item.image?.altText.map { "  [\($0)] " } ?? "  "
            case .text: marker = "  "
            }
            output.line(marker + [item.text, item.detailText].compactMap { $0 }.joined(separator: " — "))
        }
        if let learnMore = step.learnMore {
            output.line("\(learnMore.linkText ?? "Learn more"): \(learnMore.title.map { "\($0). " } ?? "")\(learnMore.text)")
        }
        if let footnote = step.footnote { output.line(footnote) }
    }

    /// How asking one question ended: with an answer (or a deliberate blank), or with a command's flow.
    private enum AskResult {
        case answered
        case flow(Flow)
    }

    /// Asks one question until it has a valid answer, is left empty (optional form items), or a command ends the step.
    private mutating func ask(itemIdentifier: String, text: String?, detail: String?, format: AnswerFormat,
                              isForm: Bool, optional: Bool, learnMore: LearnMoreItem? = nil) -> AskResult {
        if let text { output.line(); output.line(text) }
        if let detail { output.line(detail) }
        if let learnMore { output.line("\(learnMore.linkText ?? "Learn more"): \(learnMore.text)") }
        showChoices(format)
        let item: String? = isForm ? itemIdentifier : nil
        while true {
            let current = session.answer(for: item)
            var prompt = "(\(format.hint(locale: session.locale)))"
            if let current { prompt += " [current: \(format.display(current, locale: session.locale)) — Enter keeps it]" }
            output.line(prompt)
            output.write("> ")
            guard var line = readAnswer(multiline: Self.isMultiline(format)) else { return .flow(.end(.inputEnded)) }
            if let command = Command(line) {
                if command == .help { showHelp(); continue }
                let flow = handle(command)
                if case .end = flow { return .flow(flow) }
                return .flow(.next)
            }
            if line.hasPrefix("\\") { line.removeFirst() }
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if current != nil { return .answered }
                if isForm && optional { return .answered }
                output.line(isForm || !optional ? "  ! This question needs an answer." : "  ! Type an answer, or 'skip' to leave it empty.")
                continue
            }
            do {
                if case .file = format {
                    // A file question takes the path of a file, which is copied into the run's folder.
                    let path = (line.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
                    guard let data = FileManager.default.contents(atPath: path) else {
                        output.line("  ! There is no readable file at \(path).")
                        continue
                    }
                    let name = (path as NSString).lastPathComponent
                    try session.attachFile(data, title: name, contentType: Self.contentType(ofFileNamed: name), for: item)
                    return .answered
                }
                try session.setAnswer(text: line, for: item)
                return .answered
            } catch .invalidAnswer(_, let error) {
                output.line("  ! \(error.message)")
            } catch {
                output.line("  ! \(error)")
            }
        }
    }

    /// The media type of a file from its extension, for the common kinds a study asks for; `application/octet-stream` otherwise.
    static func contentType(ofFileNamed name: String) -> String {
        let types = ["jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "heic": "image/heic",
                     "webp": "image/webp", "pdf": "application/pdf", "txt": "text/plain", "csv": "text/csv", "json": "application/json",
                     "mp4": "video/mp4", "mov": "video/quicktime", "m4a": "audio/mp4", "mp3": "audio/mpeg", "wav": "audio/wav"]
        return types[(name as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
    }

    private mutating func readAnswer(multiline: Bool) -> String? {
        guard let first = input.readLine() else { return nil }
        guard multiline, !first.trimmingCharacters(in: .whitespaces).isEmpty, Command(first) == nil else { return first }
        var lines = [first]
        while let next = input.readLine(), !next.isEmpty { lines.append(next) }
        return lines.joined(separator: "\n")
    }

    private static func isMultiline(_ format: AnswerFormat) -> Bool {
        if case .text(let settings) = format { return settings.multipleLines }
        return false
    }

    private func showChoices(_ format: AnswerFormat) {
        func list(_ choices: [TextChoice]) {
            for (index, choice) in choices.enumerated() {
                output.line("  \(index + 1)) \(choice.text)\(choice.exclusive ? " (only this)" : "")\(choice.other != nil ? " (type \(index + 1): your words)" : "")")
                if let detail = choice.detailText { output.line("     \(detail)") }
            }
        }
        switch format {
        case .boolean(let settings):
            output.line("  1) \(settings.yesText ?? "Yes")")
            output.line("  2) \(settings.noText ?? "No")")
        case .textChoice(let settings): list(settings.choices)
        case .valuePicker(let settings): list(settings.choices)
        case .textScale(let settings): list(settings.choices)
        case .imageChoice(let settings):
            for (index, choice) in settings.choices.enumerated() { output.line("  \(index + 1)) \(choice.text)") }
        case .multipleValuePicker(let settings):
            for (number, picker) in settings.pickers.enumerated() {
                output.line("  Value \(number + 1): " + picker.choices.enumerated().map { "\($0 + 1)) \($1.text)" }.joined(separator: "  "))
            }
        case .scale(let settings):
            if settings.minimumDescription != nil || settings.maximumDescription != nil {
                output.line("  \(settings.minimum) = \(settings.minimumDescription ?? "")   \(settings.maximum) = \(settings.maximumDescription ?? "")")
            }
        case .continuousScale(let settings):
            if settings.minimumDescription != nil || settings.maximumDescription != nil {
                output.line("  \(settings.minimum) = \(settings.minimumDescription ?? "")   \(settings.maximum) = \(settings.maximumDescription ?? "")")
            }
        case .sesLadder(let settings):
            output.line("  \(settings.numberOfRungs) = \(settings.topRungText ?? "top")   1 = \(settings.bottomRungText ?? "bottom")")
        default:
            break
        }
        if let dontKnow = format.dontKnow { output.line("  ? = \(dontKnow.text ?? "I don't know")") }
    }

    private mutating func review() -> Flow {
        let entries = session.reviewEntries
        for (index, entry) in entries.enumerated() {
            let title = entry.step.title ?? entry.step.text ?? entry.step.identifier
            output.line("  \(index + 1)) \(title)")
            if entry.skipped { output.line("       (skipped)"); continue }
            for item in entry.items {
                let answer = item.answer.map { item.format.display($0, locale: session.locale) } ?? "(no answer)"
                output.line("       \(item.identifier): \(answer)")
            }
            if entry.signed { output.line("       (signed)") }
        }
        while true {
            output.write("Type a number to change that answer, or press Enter to continue > ")
            guard let line = input.readLine() else { return .end(.inputEnded) }
            if let command = Command(line) {
                if command == .help { showHelp(); continue }
                return handle(command)
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return forward() }
            guard let number = Int(trimmed), entries.indices.contains(number - 1) else {
                output.line("  ! Type a number from 1 to \(entries.count), or press Enter.")
                continue
            }
            do {
                try session.revisit(entries[number - 1].step.identifier)
            } catch {
                output.line("  ! \(error)")
                continue
            }
            return .next
        }
    }

    /// A step the terminal cannot present (`what` it asks for): the participant may skip it when it is optional, or save
    /// the run to finish it in the web app.
    private mutating func unavailable(_ step: Step, what: String) -> Flow {
        output.line("This step asks for \(what)")
        while true {
            output.write(step.isOptional ? "Type 'skip' to continue without it, or 'save' > " : "Type 'save' to keep your answers, or 'quit' > ")
            guard let line = input.readLine() else { return .end(.inputEnded) }
            if let command = Command(line), command != .help { return handle(command) }
            showHelp()
        }
    }

    private mutating func waitForEnter(finalStep: Bool = false) -> Flow {
        while true {
            output.write(finalStep ? "Press Enter to finish > " : "Press Enter to continue > ")
            guard let line = input.readLine() else { return .end(.inputEnded) }
            if let command = Command(line) {
                if command == .help { showHelp(); continue }
                return handle(command)
            }
            return forward()
        }
    }

    private mutating func forward() -> Flow {
        do {
            try session.goForward()
        } catch .missingAnswers(let items) {
            output.line("  ! Answer the required question\(items.count == 1 ? "" : "s") first: \(items.joined(separator: ", ")).")
        } catch {
            output.line("  ! \(error)")
        }
        if let reason = session.finishReason { return .end(.finished(reason)) }
        return .next
    }

    private mutating func handle(_ command: Command) -> Flow {
        switch command {
        case .back:
            do { try session.goBack() } catch { output.line("  ! \(error)") }
            return .next
        case .skip:
            do { try session.skip() } catch { output.line("  ! \(error)") }
            if let reason = session.finishReason { return .end(.finished(reason)) }
            return .next
        case .save:
            do {
                savedData = try session.save()
                return .end(.finished(.saved))
            } catch {
                output.line("  ! \(error)")
                return .next
            }
        case .quit:
            session.discard()
            return .end(.finished(.discarded))
        case .help:
            showHelp()
            return .next
        }
    }

    private func showHelp() {
        output.line("Type your answer and press Enter. Commands: back (previous step), skip (leave an optional step empty),")
        output.line("save (keep your answers and stop), quit (stop and discard). To answer with one of these words, start with \\.")
    }

    /// Turns HTML into readable text: tags dropped, block ends as line breaks, common entities decoded.
    static func plainText(fromHTML html: String) -> String {
        var text = html.replacingOccurrences(of: "<(br|/p|/h[1-6]|/li|/div)[^>]*>", with: "\n", options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: "<li[^>]*>", with: "  • ", options: [.regularExpression, .caseInsensitive])
        text = text.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: "\n")
            .replacingOccurrences(of: "\n{3,}", with: "\n\n", options: .regularExpression)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
