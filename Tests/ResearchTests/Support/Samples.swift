import Foundation
@testable import Research

/// One sample of every answer format, step kind and result item, for round-trip tests.
enum Samples {
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    static let choices = [
        TextChoice(text: "Not at all", value: 0, detailText: "Never"),
        TextChoice(text: "Several days", value: 1),
        TextChoice(text: "None of these", value: "none", exclusive: true),
        TextChoice(text: "Other", value: "other", other: OtherChoice(placeholder: "Say more", textRequired: true)),
    ]

    static let formats: [AnswerFormat] = [
        .boolean(BooleanFormat(yesText: "Yes, limited", noText: "No", dontKnow: DontKnowOption(text: "Not sure"))),
        .textChoice(TextChoiceFormat(style: .multiple, choices: choices)),
        .imageChoice(ImageChoiceFormat(style: .single, choices: [
            ImageChoice(image: ImageReference(url: "happy.png", altText: "Happy face"), selectedImage: ImageReference(url: "happy-on.png"), text: "Happy", value: "happy"),
            ImageChoice(image: ImageReference(url: "sad.png", altText: "Sad face"), text: "Sad", value: 2.5),
        ])),
        .valuePicker(ValuePickerFormat(choices: Array(choices.prefix(2)))),
        .multipleValuePicker(MultipleValuePickerFormat(pickers: [ValuePickerFormat(choices: Array(choices.prefix(2))), ValuePickerFormat(choices: Array(choices.prefix(2)))], separator: "/")),
        .textScale(TextScaleFormat(choices: Array(choices.prefix(2)), defaultIndex: 1, vertical: true)),
        .scale(ScaleFormat(minimum: 0, maximum: 10, step: 2, defaultValue: 4, vertical: true, minimumDescription: "None", maximumDescription: "Worst", dontKnow: DontKnowOption())),
        .continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, maximumFractionDigits: 2, defaultValue: 0.5, percentStyle: true)),
        .numeric(NumericFormat(style: .decimal, unit: "kg", minimum: 0, maximum: Decimal(string: "300.5")!, maximumFractionDigits: 1, defaultValue: 70, placeholder: "Weight")),
        .height(HeightFormat(measurementSystem: .usCustomary, minimum: 50, maximum: 250)),
        .weight(WeightFormat(measurementSystem: .metric, precision: .high, minimum: 2, maximum: 300, defaultValue: 70)),
        .age(AgeFormat(minimumAge: 18, maximumAge: 90, defaultValue: 40)),
        .date(DateFormat(minimum: Date(timeIntervalSince1970: 1_767_225_600), maximum: Date(timeIntervalSince1970: 1_798_761_600))),
        .dateTime(DateFormat(defaultValue: Date(timeIntervalSince1970: 1_774_771_200))),
        .timeOfDay(TimeOfDayFormat(defaultValue: TimeOfDay(hour: 8, minute: 30))),
        .timeInterval(TimeIntervalFormat(maximum: 7200, stepMinutes: 5, defaultValue: 1800)),
        .text(TextFormat(maximumLength: 100, multipleLines: true, validationPattern: "[A-Z].*", invalidMessage: "Start with a capital letter.", placeholder: "Tell us")),
        .email(EmailFormat(placeholder: "you@example.org")),
        .location(LocationFormat(useCurrentLocation: false)),
        .sesLadder(SESLadderFormat(numberOfRungs: 10, topRungText: "Best off", bottomRungText: "Worst off")),
        .file(FileFormat(allowedContentTypes: ["image/*", "application/pdf"], maximumBytes: 2_000_000)),
    ]

    /// An answer of the right kind for each format type.
    static let answers: [AnswerFormatType: Answer] = [
        .boolean: .boolean(true),
        .textChoice: .choices([ChoiceSelection(1), ChoiceSelection("other", text: "Knee pain")]),
        .imageChoice: .choices([ChoiceSelection(2.5)]),
        .valuePicker: .choices([ChoiceSelection(0)]),
        .multipleValuePicker: .components([0, 1]),
        .textScale: .choices([ChoiceSelection(1)]),
        .scale: .number(6),
        .continuousScale: .number(Decimal(string: "0.25")!),
        .numeric: .number(Decimal(string: "72.5")!),
        .height: .number(Decimal(string: "172.72")!),
        .weight: .number(Decimal(string: "68.04")!),
        .age: .number(42),
        .date: .date(DateAnswer(year: 2026, month: 3, day: 29, timeZone: tokyo)!),
        .dateTime: .date(DateAnswer(date: Date(timeIntervalSince1970: 1_774_771_200), timeZone: TimeZone(identifier: "Europe/Berlin")!, includesTime: true)),
        .timeOfDay: .timeOfDay(TimeOfDay(hour: 21, minute: 5, second: 30)),
        .timeInterval: .timeInterval(5400),
        .text: .text("Line one\nLine two"),
        .email: .text("ada@example.org"),
        .location: .location(LocationAnswer(address: "1 Infinite Loop", latitude: 37.33, longitude: -122.03)),
        .sesLadder: .number(7),
        .file: .file(FileAnswer(fileName: "photo-photo-1.jpg", contentType: "image/jpeg", byteCount: 1024,
                                sha256: String(repeating: "ab", count: 32), title: "knee.jpg")),
    ]

    static let steps: [Step] = [
        Step(identifier: "intro", kind: .instruction, title: "Welcome", text: "About this survey", detailText: "Five minutes",
             footnote: "Small print", image: ImageReference(url: "knee.png", altText: "A knee"),
             bodyItems: [BodyItem(text: "Share data", detailText: "Only with the team", style: .bullet), BodyItem(text: "Sign", style: .image, image: ImageReference(url: "pen.png", altText: "Pen"))],
             learnMore: LearnMoreItem(linkText: "Why?", title: "Why we ask", text: "Because."), earlyTermination: EarlyTermination(buttonText: "Stop")),
        Step(identifier: "stairs", kind: .question(formats[0]), title: "Stairs", text: "Does your health limit you?", isOptional: false),
        Step(identifier: "week", kind: .form(FormContent(items: [
            FormItem(sectionTitle: "Mood", detailText: "Last two weeks"),
            FormItem(identifier: "interest", text: "Little interest", detailText: "Or pleasure", answerFormat: formats[1], isOptional: false,
                     placeholder: "Pick", learnMore: LearnMoreItem(text: "More")),
        ], cardStyle: true))),
        Step(identifier: "review", kind: .review(ReviewContent(excludeInstructionSteps: false))),
        Step(identifier: "consent", kind: .webContent(WebContent(html: "<h1>Consent</h1>", showSignatureAfterContent: true))),
        Step(identifier: "list", kind: .table(TableContent(items: ["One", "Two"], bulleted: true))),
        Step(identifier: "sign", kind: .signature(SignatureContent(signatureLineText: "Participant"))),
        Step(identifier: "wait", kind: .wait(WaitContent(duration: 3, indicator: .progressBar))),
        Step(identifier: "permissions", kind: .requestPermissions([PermissionRequest(identifier: "n", kind: .notifications, title: "Reminders", detailText: "Daily")])),
        Step(identifier: "video", kind: .videoInstruction(VideoContent(videoURL: "exercise.mp4", thumbnailTime: 2, captionsURL: "exercise.vtt"))),
        Step(identifier: "tapping.right", kind: .active(ActiveStepContent(module: "tapping", duration: 20,
                                                                          settings: ["targets": .number(2), "hand": .text("right"), "practice": .flag(false)])),
             isOptional: false),
        Step(identifier: "done", kind: .completion, title: "Thanks"),
    ]

    static let resultItems: [ResultItem] = {
        var items: [ResultItem] = AnswerFormatType.allCases.map { type in
            .question(QuestionResult(identifier: "q-\(type.rawValue)", type: type, answer: answers[type], unit: type == .numeric ? "kg" : nil))
        }
        items.append(.question(QuestionResult(identifier: "unanswered", type: .scale, answer: nil)))
        items.append(.question(QuestionResult(identifier: "unsure", type: .numeric, answer: .dontKnow, unit: "kg")))
        items.append(.signature(SignatureResult(identifier: "sign", signature: Signature(width: 300, height: 100, strokes: [[SignaturePoint(x: 1.5, y: 2, t: 0), SignaturePoint(x: 10, y: 20, t: 16.5)]]), signedDate: Date(timeIntervalSince1970: 1_774_771_200.25))))
        items.append(.permission(PermissionResult(identifier: "n", permission: .notifications, outcome: .denied)))
        items.append(.file(FileResult(identifier: "audio", fileName: "voice-audio.wav", contentType: "audio/wav", byteCount: 4096)))
        return items
    }()
}
