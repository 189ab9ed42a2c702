import Foundation
import Research

/// Builds the view model of the current step's page from a task session: every decision about what the page
/// shows is made here, so that the templates stay logic-less.
struct StepPageBuilder {
    let session: TaskSession
    let step: Step
    let context: PageContext
    let errors: [String: FieldProblem]
    /// The fields posted with errors, shown again as typed; nil to show the stored answers.
    let posted: [String: [String]]?
    let fields: StepFields
    /// The page language's locale, for numbers and dates shown to the participant.
    let displayLocale: Locale

    var strings: WebStrings { context.strings }

    init(session: TaskSession, step: Step, context: PageContext, errors: [String: FieldProblem], posted: [String: [String]]?) {
        self.session = session
        self.step = step
        self.context = context
        self.errors = errors
        self.posted = posted
        self.fields = StepFields(step: step, locale: session.locale, timeZone: session.timeZone, offersReminderEmail: context.offersReminderEmail)
        self.displayLocale = context.strings.locale
    }

    func build() -> StepPageView {
        let questions = questionViews()
        let signature = signatureView()
        let permissions = permissionViews()
        let heading = step.title ?? session.task.title ?? step.text ?? ""
        var summary: ErrorSummaryView?
        if !errors.isEmpty {
            var links = questions.compactMap { question -> ErrorLinkView? in
                question.error.map { ErrorLinkView(href: "#" + focusTarget(question), message: $0) }
            }
            if let error = signature?.error { links.append(ErrorLinkView(href: "#sig", message: error)) }
            for email in permissions.compactMap(\.email) {
                if let error = email.error { links.append(ErrorLinkView(href: "#" + email.id, message: error)) }
            }
            summary = ErrorSummaryView(title: strings[.errorSummaryTitle], items: links)
        }
        let titleParts = [heading, context.studyName].compactMap { $0 }.filter { !$0.isEmpty }
        let documentTitle = (errors.isEmpty ? "" : strings[.errorTitlePrefix] + ": ") + titleParts.joined(separator: " – ")
        let review = reviewViews()
        var table: [String: String] = [:]
        for key in WebStringKey.allCases { table[key.rawValue] = strings[key] }
        return StepPageView(
            shell: PageShell(language: strings.language, documentTitle: documentTitle, themeTint: context.themeTint, assets: context.assets,
                             languageNotice: context.languageNotice),
            studyName: context.studyName,
            progress: session.progress.map { progress in
                ProgressView(text: strings.format(.stepProgress, ["current": progress.current, "total": progress.total]),
                             percent: progress.total > 0 ? progress.current * 100 / progress.total : 0)
            },
            errorSummary: summary, formAction: context.formAction,
            postsFiles: fields.questions.contains { $0.format.type == .file },
            csrf: CSRFFieldView(name: StepSubmission.csrfFieldName, token: context.csrfToken), stepField: StepSubmission.stepFieldName, stepIdentifier: step.identifier,
            step: StepView(
                title: heading, text: isQuestionStep ? nil : step.text, detail: isQuestionStep ? nil : step.detailText,
                footnote: step.footnote, image: step.image.map(imageView), bodyItems: step.bodyItems.map(bodyItemView),
                hasBody: !step.bodyItems.isEmpty, learnMore: step.learnMore.map(learnMoreView), entries: entries(questions), table: tableView(),
                webHTML: webHTML(), signature: signature, wait: waitView(), permissions: permissions,
                video: videoView(), review: review, hasReview: !review.isEmpty, active: activeView(), measures: measuresView()),
            buttons: buttons(), s: table)
    }

    private var isQuestionStep: Bool {
        if case .question = step.kind { return true }
        return false
    }

    /// The element an error summary link moves to: the field, or a group's first control.
    private func focusTarget(_ question: QuestionView) -> String {
        if let first = question.choices?.options.first { return first.id }
        if let first = question.pickers.first { return first.id }
        if let first = question.parts.first { return first.id }
        return question.id
    }

    // MARK: - Texts, images, body

    private func imageView(_ image: ImageReference) -> ImageView {
        ImageView(src: context.resolveURL(image.url), alt: image.altText ?? "")
    }

    private func bodyItemView(_ item: BodyItem) -> BodyItemView {
        let style: String
        switch item.style {
        case .text: style = "text"
        case .bullet: style = "bullet"
        case .image: style = item.image == nil ? "text" : "pic"
        }
        return BodyItemView(text: item.text, detail: item.detailText, styleClass: style,
                            image: item.style == .image ? item.image.map(imageView) : nil)
    }

    private func learnMoreView(_ item: LearnMoreItem) -> LearnMoreView {
        LearnMoreView(summary: item.linkText ?? strings[.learnMore], title: item.title, text: item.text)
    }

    private func tableView() -> TableView? {
        guard case .table(let content) = step.kind else { return nil }
        return TableView(items: content.items, bulleted: content.bulleted)
    }

    private func webHTML() -> String? {
        guard case .webContent(let content) = step.kind else { return nil }
        return content.html
    }

    private func waitView() -> WaitView? {
        guard case .wait(let content) = step.kind else { return nil }
        return WaitView(message: strings[.pleaseWait], seconds: content.duration.map { QuestionFields.text($0) })
    }

    private func videoView() -> VideoView? {
        guard case .videoInstruction(let content) = step.kind else { return nil }
        var src = context.resolveURL(content.videoURL)
        if content.thumbnailTime > 0, !src.contains("#") { src += "#t=\(QuestionFields.text(content.thumbnailTime))" }
        return VideoView(src: src, captions: content.captionsURL.map(context.resolveURL), openLabel: strings[.openVideo])
    }

    // MARK: - Active steps

    private func activeView() -> ActiveView? {
        guard case .active(let content) = step.kind else { return nil }
        let base = if case .linked(let basePath) = context.assets { basePath } else { "/assets" }
        let texts: [String: String] = [
            "startsIn": strings[.activeStartsIn], "secondsLeft": strings[.activeSecondsLeft], "tap": strings[.activeTap],
            "stop": strings[.activeStop], "sending": strings[.activeSending], "hold": strings[.activeHold], "trial": strings[.activeTrial],
            "red": strings[.colorRed], "green": strings[.colorGreen], "blue": strings[.colorBlue], "yellow": strings[.colorYellow],
            "watch": strings[.activeWatch], "yourTurn": strings[.activeYourTurn], "trailLetters": strings[.trailLetters],
            "tower": strings[.hanoiTower], "moves": strings[.hanoiMoves], "amsler": strings[.amslerGrid], "clear": strings[.clear],
            "done": strings[.done], "pegs": strings[.pegsDone],
            "touchToStart": strings[.motionTouchToStart], "touchToFinish": strings[.motionTouchToFinish],
            "motionDenied": strings[.motionDenied], "motionAbsent": strings[.motionAbsent], "motionNoReadings": strings[.motionNoReadings],
            "tooEarly": strings[.shakeTooEarly], "tooSlow": strings[.shakeTooSlow],
            "touchWhenDone": strings[.walkTouchWhenDone], "walkUnderway": strings[.walkUnderway],
        ]
        return ActiveView(module: content.module, script: "\(base)/active/\(content.module).js?v=\(WebAssets.version)",
                          duration: QuestionFields.text(content.duration ?? 0), settings: Self.json(content.settings), texts: Self.json(texts),
                          needsScript: strings[.activeNeedsScript], fieldName: StepSubmission.samplesFieldName, nextLabel: strings[.next])
    }

    /// The measures of the run's active steps, on its completion step.
    private func measuresView() -> ActiveMeasuresView? {
        guard step.kind == .completion else { return nil }
        let results = session.result.stepResults.filter { !$0.isPrevious }.compactMap(\.activeResult).filter { !$0.measures.isEmpty }
        guard !results.isEmpty else { return nil }
        return ActiveMeasuresView(title: strings[.activeResults], steps: results.map { result in
            let title = session.task.step(withIdentifier: result.identifier)?.title ?? result.identifier
            return ActiveStepMeasuresView(title: title, incomplete: result.isComplete ? nil : strings[.activeIncomplete],
                                          measures: result.measures.map { MeasureView(label: measureLabel($0.identifier), value: measureText($0)) })
        })
    }

    /// The measure's name in the page's language: the string `measure` + its identifier with a capital; the identifier
    /// itself for a measure without one.
    private func measureLabel(_ identifier: String) -> String {
        WebStringKey(rawValue: "measure" + identifier.prefix(1).uppercased() + identifier.dropFirst()).map { strings[$0] } ?? identifier
    }

    private func measureText(_ measure: ActiveMeasure) -> String {
        guard let value = measure.value else { return strings[.measureNone] }
        let number = value.formatted(.number.precision(.fractionLength(0...1)).locale(displayLocale))
        return measure.units.map { $0 == "%" ? number + " %" : number + " " + $0 } ?? number
    }

    private static func json<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    // MARK: - Buttons

    private func buttons() -> [ButtonView] {
        var buttons: [ButtonView] = []
        if case .active = step.kind {
            // The module submits the step itself when it is done; the participant may only go back (or skip one that allows it).
            if session.canGoBack { buttons.append(ButtonView(value: "back", label: strings[.back], primary: false, skipsValidation: true)) }
            return buttons
        }
        let isLast = step.kind == .completion || session.task.steps.last?.identifier == step.identifier
        buttons.append(ButtonView(value: isLast ? "done" : "next", label: strings[isLast ? .done : .next], primary: true, skipsValidation: false))
        if session.canGoBack { buttons.append(ButtonView(value: "back", label: strings[.back], primary: false, skipsValidation: true)) }
        let asksSomething = !fields.questions.isEmpty || fields.needsSignature || !fields.permissions.isEmpty
        if session.canSkip, asksSomething {
            buttons.append(ButtonView(value: "skip", label: strings[.skip], primary: false, skipsValidation: true))
        }
        if let termination = step.earlyTermination {
            let label = termination.buttonText.trimmingCharacters(in: .whitespaces).isEmpty ? strings[.end] : termination.buttonText
            buttons.append(ButtonView(value: "end", label: label, primary: false, skipsValidation: true))
        }
        return buttons
    }

    // MARK: - Questions

    /// The questions with the texts of their form items (or of the question step).
    private func questionViews() -> [QuestionView] {
        var items: [String: FormItem] = [:]
        if case .form(let form) = step.kind {
            for item in form.items { if let id = item.identifier { items[id] = item } }
        }
        let cards: Bool
        if case .form(let form) = step.kind { cards = form.cardStyle } else { cards = false }
        return zip(fields.questions, StepFields.askedQuestions(of: step)).map { question, info in
            let item = items[question.identifier]
            let label: String
            let detail: String?
            if isQuestionStep {
                label = step.text ?? step.title ?? ""
                detail = step.detailText
            } else {
                label = item?.text ?? ""
                detail = item?.detailText
            }
            // Next on a question step needs an answer, as in ResearchKit (an optional one is left empty with Skip);
            // a form needs its non-optional items. Only a question that cannot be skipped is marked Required.
            let answerNeeded = isQuestionStep || !info.isOptional
            var builder = QuestionViewBuilder(fields: question, strings: strings, displayLocale: displayLocale, timeZone: session.timeZone,
                                              values: values(for: question), error: errors[question.identifier]?.text(in: strings),
                                              label: label, detail: detail, placeholder: item?.placeholder,
                                              learnMore: item?.learnMore.map(learnMoreView), answerNeeded: answerNeeded,
                                              markedRequired: !info.isOptional, card: cards,
                                              resolveURL: context.resolveURL)
            if case .file(let file)? = session.answer(for: question.identifier) { builder.storedFile = file }
            return builder.build()
        }
    }

    /// What the question's fields show: the posted values after an error, else the stored answer, else the default.
    private func values(for question: QuestionFields) -> [String: [String]] {
        if let posted { return posted }
        if let stored = session.answer(for: question.identifier) { return question.values(for: stored) }
        return question.values(for: question.defaultAnswer)
    }

    private func entries(_ questions: [QuestionView]) -> [FormEntryView] {
        guard case .form(let form) = step.kind else { return questions.map { FormEntryView(section: nil, question: $0) } }
        var remaining = questions[...]
        return form.items.compactMap { item in
            if item.isSectionTitle { return FormEntryView(section: SectionView(title: item.text, detail: item.detailText), question: nil) }
            if item.isCalculated { return item.isHidden ? nil : FormEntryView(section: nil, question: nil, calculated: calculatedView(item)) }
            guard let question = remaining.popFirst() else { return nil }
            return FormEntryView(section: nil, question: question)
        }
    }

    /// A calculated item's value as the session computed it, with a UCUM annotation unit such as `{score}` left
    /// out (it names what the number is, which the label already says).
    private func calculatedView(_ item: FormItem) -> CalculatedValueView {
        let identifier = item.identifier ?? ""
        var value = session.answer(for: identifier).flatMap { answer in item.answerFormat.map { display(answer, format: $0) } }
        if let unit = item.answerFormat?.unit, unit.hasPrefix("{"), unit.hasSuffix("}") {
            value = value.map { $0.replacingOccurrences(of: " \(unit)", with: "") }
        }
        let problem = session.calculationErrors[identifier] == nil ? nil : strings[.calculationFailed]
        return CalculatedValueView(id: "calc-\(identifier)", label: item.text ?? identifier, detail: item.detailText,
                                   value: value ?? (problem == nil ? strings[.notAnswered] : nil), problem: problem)
    }

    // MARK: - Signature and permissions

    private func signatureView() -> SignatureView? {
        guard fields.needsSignature else { return nil }
        var lineText: String?
        if case .signature(let content) = step.kind { lineText = content.signatureLineText }
        let stored = session.signature.map { result in
            StoredSignatureView(note: strings[.signed], svg: drawing(result.signature), typedName: result.signature.typedName)
        }
        let typed = context.allowsTypedSignature
            ? TypedNameView(field: StepSubmission.typedNameFieldName, label: strings[.typeNameInstead],
                            value: posted?[StepSubmission.typedNameFieldName]?.first ?? "")
            : nil
        return SignatureView(field: StepSubmission.signatureFieldName, label: strings[.signHere],
                             instructions: strings[.signatureInstructions], noScript: strings[.signatureNeedsScript],
                             lineText: lineText, error: errors[StepSubmission.signatureFieldName]?.text(in: strings),
                             stored: stored, typedName: typed)
    }

    /// The stored strokes as SVG path data, so a saved signature shows without the script.
    private func drawing(_ signature: Signature) -> SignatureDrawingView? {
        guard !signature.strokes.joined().isEmpty else { return nil }
        func number(_ value: Double) -> String { QuestionFields.text((value * 10).rounded() / 10) }
        let paths = signature.strokes.filter { !$0.isEmpty }.map { stroke in
            var path = "M\(number(stroke[0].x)) \(number(stroke[0].y))"
            for point in stroke.dropFirst() { path += "L\(number(point.x)) \(number(point.y))" }
            if stroke.count == 1 { path += "h.1" }
            return path
        }
        return SignatureDrawingView(viewBox: "0 0 \(number(signature.width)) \(number(signature.height))", paths: paths)
    }

    private func permissionViews() -> [PermissionView] {
        fields.permissions.enumerated().map { index, request in
            let name = StepFields.permissionName(index + 1)
            let title = request.title ?? Self.permissionTitle(request.kind)
            guard request.kind == .email else {
                let chosen = posted.map { $0[name]?.first.flatMap(PermissionOutcome.init(rawValue:)) } ?? session.permissionOutcome(request.identifier)
                let choice = PermissionChoiceView(name: name, id: name, kind: request.kind.rawValue, allowLabel: strings[.allow],
                                                  denyLabel: strings[.doNotAllow], granted: chosen == .granted, denied: chosen == .denied)
                return PermissionView(title: title, detail: request.detailText, choice: choice, email: nil, unavailable: nil)
            }
            guard fields.offersReminderEmail else {
                return PermissionView(title: title, detail: request.detailText, choice: nil, email: nil, unavailable: strings[.remindersEmailUnavailable])
            }
            // The address is shown back only after a refused post (its start, as the reminders page does); it is never stored with the run.
            let error = errors[request.identifier]?.text(in: strings)
            let email = PermissionEmailView(name: name, id: name, label: strings[.remindersEmailLabel],
                                            value: String((posted?[name]?.first ?? "").prefix(300)),
                                            hint: strings[.permissionEmailHint], hintId: "\(name)-hint",
                                            given: posted == nil && session.permissionOutcome(request.identifier) == .granted ? strings[.permissionEmailGiven] : nil,
                                            error: error, errorId: "\(name)-err",
                                            describedBy: error == nil ? "\(name)-hint" : "\(name)-err \(name)-hint")
            return PermissionView(title: title, detail: request.detailText, choice: nil, email: email, unavailable: nil)
        }
    }

    /// A permission's kind as a title when the study gives none.
    static func permissionTitle(_ kind: PermissionKind) -> String {
        switch kind {
        case .notifications: "Notifications"
        case .location: "Location"
        case .motion: "Motion"
        case .camera: "Camera"
        case .microphone: "Microphone"
        case .health: "Health data"
        case .email: "Email reminders"
        }
    }

    // MARK: - Review

    private func reviewViews() -> [ReviewStepView] {
        session.reviewEntries.map { entry in
            let reviewed = entry.step
            var formItems: [String: FormItem] = [:]
            if case .form(let form) = reviewed.kind {
                for item in form.items { if let id = item.identifier { formItems[id] = item } }
            }
            let items: [ReviewItemView] = entry.skipped ? [] : entry.items.map { item in
                let question: String
                if case .question = reviewed.kind { question = reviewed.text ?? reviewed.title ?? item.identifier }
                else { question = formItems[item.identifier]?.text ?? item.identifier }
                return ReviewItemView(question: question, answer: item.answer.map { display($0, format: item.format) } ?? strings[.notAnswered])
            }
            var note: String?
            if entry.skipped { note = strings[.skipped] } else if entry.signed { note = "\(strings[.signature]): \(strings[.signed])" }
            return ReviewStepView(title: reviewed.title ?? reviewed.text ?? reviewed.identifier, items: items, hasItems: !items.isEmpty, note: note,
                                  editValue: "edit:\(reviewed.identifier)", editLabel: strings[.edit])
        }
    }

    /// An answer for people, in the page's language where the web runner has the words (yes and no, "I don't know",
    /// dates, ages, a ladder's rungs); otherwise as Research shows it.
    private func display(_ answer: Answer, format: AnswerFormat) -> String {
        switch (format, answer) {
        case (_, .dontKnow):
            return format.dontKnow?.text ?? strings[.dontKnow]
        case (.boolean(let f), .boolean(let value)):
            return value ? f.yesText ?? strings[.yes] : f.noText ?? strings[.no]
        case (_, .date(let value)):
            let formatter = DateFormatter()
            formatter.locale = displayLocale
            formatter.timeZone = value.timeZone
            formatter.dateStyle = .medium
            formatter.timeStyle = value.includesTime ? .short : .none
            return formatter.string(from: value.date)
        case (.age, .number(let value)):
            // An age is a whole number of years, as Research checks it.
            return strings.format(value == 1 ? .answerAgeOne : .answerAge, ["age": "\(value)"])
        case (.sesLadder(let f), .number(let value)):
            return strings.format(.answerRung, ["rung": "\(value)", "rungs": f.numberOfRungs])
        default:
            return format.display(answer, locale: displayLocale)
        }
    }
}
