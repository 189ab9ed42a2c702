import Foundation
import Testing
@testable import Research

private let face = ImageReference(url: "face.png")

/// The same options as a text choice format and as an image choice format.
private func both(_ options: [(String, ChoiceValue)], style: ChoiceStyle = .single) -> (text: AnswerFormat, image: AnswerFormat) {
    (.textChoice(TextChoiceFormat(style: style, choices: options.map { TextChoice(text: $0.0, value: $0.1) })),
     .imageChoice(ImageChoiceFormat(style: style, choices: options.map { ImageChoice(image: face, text: $0.0, value: $0.1) })))
}

/// Why `format` refuses `answer`; nil when it is accepted.
private func refusal(_ format: AnswerFormat, _ answer: Answer) -> String? {
    do throws(AnswerValidationError) {
        try format.validate(answer)
        return nil
    } catch {
        return error.message
    }
}

private func json(_ format: AnswerFormat) throws -> String {
    String(decoding: try ResearchJSON.encoder(pretty: false).encode(format), as: UTF8.self)
}

private func decoded(_ json: String) throws -> AnswerFormat {
    try ResearchJSON.decoder().decode(AnswerFormat.self, from: Data(json.utf8))
}

/// Text choices and image choices are one ``ChoiceFormat`` over two kinds of option: their settings are checked,
/// their answers validated and typed answers read by the same code, with the same messages and paths.
@Suite("ChoiceFormat: text and image choices share their rules")
struct ChoiceFormatTests {
    @Test func constructionProblemsAreTheSameForBoth() {
        let lists: [[(String, ChoiceValue)]] = [
            [],
            [("A", 1), (" ", 2)],
            [("A", "a"), ("B", "b"), ("C", "a")],
            [("Two", 2), ("Also two", 2.0)],
            [("A", "")],
            [("A", .decimal(.infinity))],
        ]
        for options in lists {
            let (text, image) = both(options)
            #expect(!text.constructionProblems().isEmpty)
            #expect(text.constructionProblems() == image.constructionProblems())
        }
        let expected = [
            FormatProblem(path: "choices[1].text", message: "must not be empty"),
            FormatProblem(path: "choices[1].value", message: "repeats the value of choices[0] (\"a\"); values must be unique"),
        ]
        let (text, image) = both([("A", "a"), ("", "a")])
        #expect(text.constructionProblems() == expected)
        #expect(image.constructionProblems() == expected)
        #expect(both([]).image.constructionProblems() == [FormatProblem(path: "choices", message: "needs at least one choice")])
    }

    @Test func exclusiveIsRefusedInSingleStyleAndPicturesAreNeverExclusive() {
        let exclusive = [TextChoice(text: "A", value: 1), TextChoice(text: "None", value: 0, exclusive: true)]
        #expect(AnswerFormat.textChoice(TextChoiceFormat(style: .single, choices: exclusive)).constructionProblems()
            == [FormatProblem(path: "choices[1].exclusive", message: "only has a meaning in multiple choice (the style is single)")])
        #expect(AnswerFormat.textChoice(TextChoiceFormat(style: .multiple, choices: exclusive)).constructionProblems() == [])
        let picture = ImageChoice(image: face, text: "None", value: 0)
        #expect(!picture.exclusive)
        #expect(picture.other == nil)
    }

    @Test func validationIsTheSameForBoth() {
        let answers: [Answer] = [
            .choices([ChoiceSelection(1)]),
            .choices([ChoiceSelection(1), ChoiceSelection(2)]),
            .choices([ChoiceSelection(1), ChoiceSelection(1)]),
            .choices([ChoiceSelection(3)]),
            .choices([ChoiceSelection(2.0)]),
            .choices([ChoiceSelection(1, text: "very")]),
            .choices([]),
            .number(1),
            .dontKnow,
        ]
        for style in [ChoiceStyle.single, .multiple] {
            let (text, image) = both([("Happy", 1), ("Sad", 2)], style: style)
            for answer in answers {
                #expect(refusal(text, answer) == refusal(image, answer), "\(style) \(answer)")
            }
        }
        let (single, singleImage) = both([("Happy", 1), ("Sad", 2)])
        for format in [single, singleImage] {
            #expect(refusal(format, .choices([ChoiceSelection(1), ChoiceSelection(2)])) == "Choose only one answer.")
            #expect(refusal(format, .choices([ChoiceSelection(3)])) == "That answer is not one of the choices.")
            #expect(refusal(format, .choices([ChoiceSelection(1, text: "very")])) == "“Happy” doesn’t take any text.")
        }
        let (multiple, multipleImage) = both([("Happy", 1), ("Sad", 2)], style: .multiple)
        for format in [multiple, multipleImage] {
            #expect(refusal(format, .choices([ChoiceSelection(1), ChoiceSelection(2)])) == nil)
            #expect(refusal(format, .choices([ChoiceSelection(1), ChoiceSelection(1)])) == "Choose each answer only once.")
        }
    }

    @Test func typedAnswersHintsAndDisplayAreTheSameForBoth() throws {
        for style in [ChoiceStyle.single, .multiple] {
            let (text, image) = both([("Happy", "happy"), ("Sad", "sad")], style: style)
            for typed in ["1", "sad", "Happy", "1, 2", "3", ""] {
                #expect((try? text.answer(fromText: typed)) == (try? image.answer(fromText: typed)), "\(style) \(typed)")
            }
            #expect(text.hint() == image.hint())
            let answer = Answer.choices([ChoiceSelection("sad")])
            #expect(text.display(answer) == "Sad")
            #expect(image.display(answer) == "Sad")
        }
    }

    @Test func togglingWorksOnBoth() {
        let (text, image) = (TextChoiceFormat(style: .multiple, choices: [TextChoice(text: "A", value: 1), TextChoice(text: "B", value: 2)]),
                             ImageChoiceFormat(style: .multiple, choices: [ImageChoice(image: face, text: "A", value: 1),
                                                                           ImageChoice(image: face, text: "B", value: 2)]))
        let afterText = text.toggling(2, in: text.toggling(1, in: []))
        let afterImage = image.toggling(2, in: image.toggling(1, in: []))
        #expect(afterText == [ChoiceSelection(1), ChoiceSelection(2)])
        #expect(afterImage == afterText)
    }

    @Test func jsonIsUnchanged() throws {
        let textJSON = #"{"choices":[{"text":"A","value":1},{"detailText":"None of them","exclusive":true,"other":{"textRequired":false},"text":"None","value":"none"}],"style":"multiple","type":"textChoice"}"#
        let text = AnswerFormat.textChoice(TextChoiceFormat(style: .multiple, choices: [
            TextChoice(text: "A", value: 1),
            TextChoice(text: "None", value: "none", detailText: "None of them", exclusive: true, other: OtherChoice()),
        ]))
        #expect(try json(text) == textJSON)
        #expect(try decoded(textJSON) == text)

        let imageJSON = #"{"choices":[{"image":{"altText":"A smile","url":"smile.png"},"selectedImage":{"url":"smile-on.png"},"text":"Happy","value":"happy"},{"image":{"url":"face.png"},"text":"Sad","value":2.5}],"style":"single","type":"imageChoice"}"#
        let image = AnswerFormat.imageChoice(ImageChoiceFormat(choices: [
            ImageChoice(image: ImageReference(url: "smile.png", altText: "A smile"), selectedImage: ImageReference(url: "smile-on.png"),
                        text: "Happy", value: "happy"),
            ImageChoice(image: face, text: "Sad", value: 2.5),
        ]))
        #expect(try json(image) == imageJSON)
        #expect(try decoded(imageJSON) == image)

        // The style defaults to single when it is left out, for both.
        #expect(try decoded(#"{"type":"textChoice","choices":[{"text":"A","value":1}]}"#)
            == .textChoice(TextChoiceFormat(style: .single, choices: [TextChoice(text: "A", value: 1)])))
        #expect(try decoded(#"{"type":"imageChoice","choices":[{"image":{"url":"face.png"},"text":"A","value":1}]}"#)
            == .imageChoice(ImageChoiceFormat(style: .single, choices: [ImageChoice(image: face, text: "A", value: 1)])))
    }
}
