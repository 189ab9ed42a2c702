import Foundation
import Testing
@testable import Research

/// Parsing, printing, JSON and evaluation of conditions.
struct ConditionTests {
    // MARK: Helpers

    private static let pain = AnswerReference(step: "pain")
    private static let meds = AnswerReference(step: "meds")

    private static func ref(_ text: String) -> AnswerReference {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let local = parts.count == 2 ? parts[1] : parts[0]
        let stepAndItem = local.split(separator: ".", maxSplits: 1).map(String.init)
        return AnswerReference(task: parts.count == 2 ? parts[0] : nil, step: stepAndItem[0],
                               item: stepAndItem.count == 2 ? stepAndItem[1] : nil)
    }

    private static func number(_ text: String) -> ConditionValue {
        .number(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!)
    }

    private static func syntaxError(_ text: String) -> ConditionSyntaxError? {
        do {
            _ = try Condition(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Parsing

    static let parsedTrees: [(String, Condition)] = [
        ("pain == 7", .comparison(pain, .equal, number("7"))),
        ("pain != 7", .comparison(pain, .notEqual, number("7"))),
        ("pain < -2.5", .comparison(pain, .less, number("-2.5"))),
        ("pain <= 0.125", .comparison(pain, .lessOrEqual, number("0.125"))),
        ("pain > 3", .comparison(pain, .greater, number("3"))),
        ("pain >= 7", .comparison(pain, .greaterOrEqual, number("7"))),
        ("pain>=7", .comparison(pain, .greaterOrEqual, number("7"))),
        ("pain >= -0", .comparison(pain, .greaterOrEqual, number("0"))),
        ("pain in 3...5", .inRange(pain, lower: number("3"), upper: number("5"))),
        ("pain in -1.5...2.5", .inRange(pain, lower: number("-1.5"), upper: number("2.5"))),
        (#"visit in "2026-01-01"..."2026-12-31""#, .inRange(Self.ref("visit"), lower: .string("2026-01-01"), upper: .string("2026-12-31"))),
        (#"symptoms contains "fever""#, .contains(Self.ref("symptoms"), .string("fever"))),
        ("bp contains 120", .contains(Self.ref("bp"), number("120"))),
        (#"name matches "^A.*""#, .matches(Self.ref("name"), pattern: "^A.*")),
        ("answered(meds)", .answered(meds)),
        ("answered ( meds )", .answered(meds)),
        ("dontKnow(meds)", .dontKnow(meds)),
        ("true", .constant(true)),
        ("false", .constant(false)),
        ("smoker == true", .comparison(Self.ref("smoker"), .equal, .boolean(true))),
        ("smoker != false", .comparison(Self.ref("smoker"), .notEqual, .boolean(false))),
        (#"mood == "happy""#, .comparison(Self.ref("mood"), .equal, .string("happy"))),
        ("not answered(meds)", .not(.answered(meds))),
        ("not not true", .not(.not(.constant(true)))),
        ("vitals.weight > 80", .comparison(Self.ref("vitals.weight"), .greater, number("80"))),
        ("baseline:pain > 4", .comparison(Self.ref("baseline:pain"), .greater, number("4"))),
        ("baseline:pain.level > 4", .comparison(Self.ref("baseline:pain.level"), .greater, number("4"))),
        ("baseline : pain . level > 4", .comparison(Self.ref("baseline:pain.level"), .greater, number("4"))),
        ("daily-check_2 == 1", .comparison(Self.ref("daily-check_2"), .equal, number("1"))),
        ("`q 1` == 1", .comparison(AnswerReference(step: "q 1"), .equal, number("1"))),
        ("`and` == 1", .comparison(AnswerReference(step: "and"), .equal, number("1"))),
        ("`a``b` == 1", .comparison(AnswerReference(step: "a`b"), .equal, number("1"))),
        ("`daily check`:`q 1`.`1st` == 1",
         .comparison(AnswerReference(task: "daily check", step: "q 1", item: "1st"), .equal, number("1"))),
        ("`é` == 1", .comparison(AnswerReference(step: "é"), .equal, number("1"))),
        ("pain == 123456789012345678901234567890.12345678",
         .comparison(pain, .equal, number("123456789012345678901234567890.12345678"))),
        ("pain == 007.500", .comparison(pain, .equal, number("7.5"))),
    ]

    @Test("each construct parses to its tree", arguments: parsedTrees)
    func parsesConstruct(text: String, expected: Condition) throws {
        #expect(try Condition(parsing: text) == expected)
    }

    @Test func numbersAreExactDecimals() throws {
        let condition = try Condition(parsing: "pain == 0.1")
        guard case .comparison(_, _, .number(let value)) = condition else {
            Issue.record("expected a comparison, got \(condition)")
            return
        }
        #expect(value == Decimal(sign: .plus, exponent: -1, significand: 1))
    }

    @Test func stringEscapes() throws {
        let condition = try Condition(parsing: #"note == "say \"hi\" \\ back\nnext\ttab \u{e9}\u{1F600}""#)
        #expect(condition == .comparison(Self.ref("note"), .equal, .string("say \"hi\" \\ back\nnext\ttab é😀")))
    }

    @Test func andBindsTighterThanOr() throws {
        let a = Condition.comparison(Self.ref("a"), .equal, Self.number("1"))
        let b = Condition.comparison(Self.ref("b"), .equal, Self.number("2"))
        let c = Condition.comparison(Self.ref("c"), .equal, Self.number("3"))
        #expect(try Condition(parsing: "a == 1 or b == 2 and c == 3") == .or([a, .and([b, c])]))
        #expect(try Condition(parsing: "a == 1 and b == 2 or c == 3") == .or([.and([a, b]), c]))
        #expect(try Condition(parsing: "a == 1 and (b == 2 or c == 3)") == .and([a, .or([b, c])]))
        #expect(try Condition(parsing: "not a == 1 and b == 2") == .and([.not(a), b]))
        #expect(try Condition(parsing: "not (a == 1 and b == 2)") == .not(.and([a, b])))
        #expect(try Condition(parsing: "not a == 1 or not b == 2") == .or([.not(a), .not(b)]))
    }

    @Test func sameOperatorChainsFlatten() throws {
        let a = Condition.comparison(Self.ref("a"), .equal, Self.number("1"))
        let b = Condition.comparison(Self.ref("b"), .equal, Self.number("2"))
        let c = Condition.comparison(Self.ref("c"), .equal, Self.number("3"))
        let d = Condition.comparison(Self.ref("d"), .equal, Self.number("4"))
        #expect(try Condition(parsing: "a == 1 and b == 2 and c == 3") == .and([a, b, c]))
        #expect(try Condition(parsing: "a == 1 and (b == 2 and c == 3)") == .and([a, b, c]))
        #expect(try Condition(parsing: "(a == 1 or b == 2) or (c == 3 or d == 4)") == .or([a, b, c, d]))
        #expect(try Condition(parsing: "((a == 1))") == a)
        #expect(try Condition(parsing: "(a == 1 or b == 2) and (c == 3 or d == 4)") == .and([.or([a, b]), .or([c, d])]))
    }

    @Test func parsesLoneReferences() throws {
        #expect(try AnswerReference(parsing: "pain") == Self.pain)
        #expect(try AnswerReference(parsing: "baseline:pain.level") == AnswerReference(task: "baseline", step: "pain", item: "level"))
        #expect(try AnswerReference(parsing: "`my task`:`in`") == AnswerReference(task: "my task", step: "in"))
        #expect(throws: ConditionSyntaxError(message: "the reference is empty", column: 1)) { try AnswerReference(parsing: "") }
        #expect(throws: ConditionSyntaxError(message: "the reference ends too early: expected a step identifier after ':'", column: 7)) {
            try AnswerReference(parsing: "task: ")
        }
        #expect(throws: ConditionSyntaxError(message: "unexpected '>' after the reference", column: 6)) {
            try AnswerReference(parsing: "pain > 3")
        }
    }

    // MARK: Printing and round trips

    static let canonicalTexts: [String] = [
        "pain >= 7",
        "pain == 7",
        "pain != -2.5",
        "pain < 0.001",
        "pain <= 10",
        "pain > 1000000",
        "pain in 3...5",
        #"visit in "2026-01-01"..."2026-12-31""#,
        #"symptoms contains "fever""#,
        "bp contains 120",
        #"name matches "^A.*""#,
        "answered(meds)",
        "dontKnow(meds)",
        "true",
        "false",
        "smoker == false",
        "not answered(meds)",
        "not not true",
        "pain >= 7 and not answered(meds)",
        "a == 1 or b == 2 or c == 3",
        "a == 1 and b == 2 or c == 3",
        "a == 1 and (b == 2 or c == 3)",
        "not (a == 1 and b == 2)",
        "not (a == 1 or b == 2) and c == 3",
        "(a == 1 or b == 2) and (c == 3 or not d == 4)",
        "baseline:pain.level > 4",
        "`daily check`:`q 1`.`1st` == \"yes\"",
        "`and` == true",
        "`a``b`.item contains \"x\"",
        #"note == "say \"hi\" \\ back\nnext\ttab \u{7}""#,
        #"wake >= "07:30""#,
    ]

    @Test("canonical text prints back unchanged", arguments: canonicalTexts)
    func canonicalTextRoundTrips(text: String) throws {
        let condition = try Condition(parsing: text)
        #expect(condition.description == text)
        #expect(try Condition(parsing: condition.description) == condition)
    }

    @Test func printsCanonicalSpacingAndNumbers() throws {
        #expect(try Condition(parsing: "  pain>=7.50   and(not(answered( meds )))").description == "pain >= 7.5 and not answered(meds)")
        #expect(try Condition(parsing: "(a == 1 and b == 2) and c == 3").description == "a == 1 and b == 2 and c == 3")
        #expect(try Condition(parsing: "pain == 007.100").description == "pain == 7.1")
        #expect(Condition.comparison(Self.pain, .equal, .number(Decimal(sign: .minus, exponent: 3, significand: 25))).description == "pain == -25000")
        #expect(Condition.comparison(Self.pain, .equal, .number(Decimal(sign: .plus, exponent: -2, significand: 250))).description == "pain == 2.5")
    }

    static let handBuiltTrees: [Condition] = [
        .comparison(AnswerReference(task: "t-1", step: "`", item: "x y"), .lessOrEqual, .number(Decimal(sign: .minus, exponent: -3, significand: 25))),
        .comparison(AnswerReference(step: "true"), .equal, .string("\u{301}combining first, \r\n CRLF, \u{0} NUL, \u{7F} DEL")),
        .comparison(AnswerReference(step: "x", item: "dontKnow"), .notEqual, .boolean(true)),
        .inRange(AnswerReference(step: "9lives"), lower: .number(-1), upper: .number(Decimal(sign: .plus, exponent: 20, significand: 1))),
        .contains(AnswerReference(task: "a:b", step: "c.d"), .string("\"quoted\" `tick`")),
        .matches(AnswerReference(step: "name"), pattern: #"^\d{3}-"[a-z]+"$"#),
        .and([.or([.answered(meds), .dontKnow(meds)]), .not(.or([.constant(true), .constant(false)])), .not(.not(.answered(pain)))]),
        .or([.and([.answered(meds), .not(.answered(pain))]), .constant(false)]),
        .not(.and([.constant(true), .constant(false)])),
    ]

    @Test("hand-built tree prints to text that parses back to it", arguments: handBuiltTrees)
    func treeRoundTrips(tree: Condition) throws {
        #expect(try Condition(parsing: tree.description) == tree)
    }

    static let references: [AnswerReference] = [
        AnswerReference(step: "pain"),
        AnswerReference(step: "vitals", item: "weight"),
        AnswerReference(task: "baseline", step: "pain", item: "level"),
        AnswerReference(task: "a:b", step: "c.d", item: "``"),
        AnswerReference(task: "not", step: "in", item: "true"),
        AnswerReference(step: " leading and trailing "),
    ]

    @Test("reference prints to text that parses back to it", arguments: references)
    func referenceRoundTrips(reference: AnswerReference) throws {
        #expect(try AnswerReference(parsing: reference.description) == reference)
    }

    @Test func printsTreesTheParserCannotProduceAsEquivalents() {
        let a = Condition.answered(Self.meds)
        let b = Condition.answered(Self.pain)
        #expect(Condition.and([]).description == "true")
        #expect(Condition.or([]).description == "false")
        #expect(Condition.and([.or([a, b])]).description == "answered(meds) or answered(pain)")
        #expect(Condition.not(.and([.or([a, b])])).description == "not (answered(meds) or answered(pain))")
        #expect(Condition.and([a, .and([b, a])]).description == "answered(meds) and answered(pain) and answered(meds)")
        #expect(Condition.and([a, .or([b])]).description == "answered(meds) and answered(pain)")
    }

    @Test func quotesIdentifiersOnlyWhenNeeded() {
        #expect(AnswerReference(step: "pain_level-2").description == "pain_level-2")
        #expect(AnswerReference(step: "2nd").description == "`2nd`")
        #expect(AnswerReference(step: "-x").description == "`-x`")
        #expect(AnswerReference(step: "contains").description == "`contains`")
        #expect(AnswerReference(step: "Contains").description == "Contains")
        #expect(AnswerReference(task: "a b", step: "c`d", item: "é").description == "`a b`:`c``d`.`é`")
    }

    // MARK: Syntax errors

    static let syntaxErrors: [(String, Int, String)] = [
        ("", 1, "the condition is empty"),
        ("   ", 1, "the condition is empty"),
        ("pain >= ", 9, "the condition ends too early: expected a value after '>='"),
        ("pain >= and x", 9, "expected a value after '>='"),
        ("mood == happy", 9, #"expected a value after '=='; write text in double quotes: "happy""#),
        ("pain = 7", 6, "use '==' to compare"),
        ("pain ! 7", 6, "use 'not' to negate a condition, or '!=' to compare"),
        ("pain > 1 && meds > 2", 10, "use 'and' instead of '&&'"),
        ("pain > 1 || meds > 2", 10, "use 'or' instead of '||'"),
        ("(pain > 1", 10, "missing ')' to close the '(' at column 1"),
        ("(pain > 1 meds", 11, "expected ')' to close the '(' at column 1"),
        ("pain > 1)", 9, "unmatched ')'"),
        ("pain > 1 meds", 10, "unexpected 'meds' after a complete condition; join conditions with 'and' or 'or'"),
        ("pain", 5, "the condition ends too early: expected a comparison (==, !=, <, <=, >, >=, in, contains or matches) after 'pain'"),
        ("pain 7", 6, "expected a comparison (==, !=, <, <=, >, >=, in, contains or matches) after 'pain'"),
        ("pain >= 7 and", 14, "the condition ends too early: expected a condition after 'and'"),
        ("pain >= 7 and or meds > 1", 15, "expected a condition after 'and'"),
        ("not", 4, "the condition ends too early: expected a condition after 'not'"),
        ("()", 2, "expected a condition after '('"),
        ("7 < pain", 1, "expected a condition; a comparison starts with the reference, as in 'pain >= 7'"),
        ("answered meds", 10, "expected '(' after 'answered'"),
        ("answered(meds", 14, "the condition ends too early: expected ')' after the reference in 'answered(…)'"),
        ("dontKnow()", 10, "expected a step identifier after '('"),
        ("answered(and)", 10, "'and' is a keyword; write `and` in backticks to use it as an identifier"),
        ("in == 1", 1, "expected a condition"),
        ("baseline: == 1", 11, "expected a step identifier after ':'"),
        ("a:b:c == 1", 4, "a reference names at most one task, as in task:step.item"),
        ("a.b.c == 1", 4, "a reference names at most one item, as in task:step.item"),
        ("pain in 3..5", 10, "write a range with three dots: lower...upper"),
        ("pain in 3 5", 11, "expected '...' after '3'; write a range as lower...upper"),
        ("pain in 3...", 13, "the condition ends too early: expected a value after '...'"),
        ("pain > 1e5", 9, "write numbers without an exponent, with all their digits"),
        ("pain > 2abc", 8, "'2abc' is not a number; write an identifier that starts with a digit in backticks"),
        ("pain > 3.", 10, "expected digits after the decimal point"),
        ("pain > 12345678901234567890123456789012345678901234", 8,
         "the number 12345678901234567890123456789012345678901234 has too many digits to be held exactly"),
        (#"note == "abc"#, 9, #"the string has no closing '"'"#),
        (#"note == "a\qb""#, 11, #"unknown escape '\q' in a string; use \", \\, \n, \t or \u{…}"#),
        (#"note == "\u{110000}""#, 10, #"\u{110000} is not a Unicode scalar value"#),
        (#"note == "\u{zz}""#, 10, #"write a Unicode escape as \u{…} with 1 to 8 hexadecimal digits"#),
        (#"note == "\u41""#, 10, #"write a Unicode escape as \u{…} with 1 to 8 hexadecimal digits"#),
        ("`abc == 1", 1, "the identifier has no closing '`'"),
        ("`` == 1", 1, "an identifier in backticks cannot be empty"),
        ("note == 'a'", 9, "write strings in double quotes"),
        ("é == 1", 1, "unexpected character 'é'; write identifiers with other characters in backticks"),
        (#"note == "👍🏽" x"#, 13, "unexpected 'x' after a complete condition; join conditions with 'and' or 'or'"),
        ("name matches 7", 14, "expected a regular expression in double quotes after 'matches'"),
    ]

    @Test("syntax error message and column", arguments: syntaxErrors)
    func reportsSyntaxError(text: String, column: Int, message: String) {
        let error = Self.syntaxError(text)
        #expect(error == ConditionSyntaxError(message: message, column: column))
    }

    @Test func invalidRegexIsReportedAtThePattern() throws {
        let error = try #require(Self.syntaxError(#"name matches "a(b" or true"#))
        #expect(error.column == 14)
        #expect(error.message.hasPrefix("invalid regular expression: "))
        #expect(error.description == "column 14: \(error.message)")
    }

    @Test func limitsNesting() throws {
        let deepest = String(repeating: "(", count: 100) + "true" + String(repeating: ")", count: 100)
        #expect(try Condition(parsing: deepest) == .constant(true))
        let tooDeep = String(repeating: "(", count: 101) + "true" + String(repeating: ")", count: 101)
        #expect(Self.syntaxError(tooDeep) == ConditionSyntaxError(
            message: "the condition nests parentheses and 'not' more than 100 deep", column: 101))
        let negations = String(repeating: "not ", count: 101) + "true"
        #expect(Self.syntaxError(negations)?.column == 401)
    }

    @Test func errorDescriptionNamesTheColumn() {
        #expect(ConditionSyntaxError(message: "expected a value after '>='", column: 9).description == "column 9: expected a value after '>='")
    }

    // MARK: JSON

    private static func json(_ condition: Condition) throws -> String {
        String(decoding: try ResearchJSON.encoder(pretty: false).encode(condition), as: UTF8.self)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try ResearchJSON.decoder().decode(type, from: Data(json.utf8))
    }

    @Test func encodesObjectTree() throws {
        #expect(try Self.json(Condition(parsing: "pain >= 7")) == #"{"op":">=","ref":"pain","value":7}"#)
        #expect(try Self.json(Condition(parsing: "pain in 3...5.5")) == #"{"lower":3,"op":"in","ref":"pain","upper":5.5}"#)
        #expect(try Self.json(Condition(parsing: #"symptoms contains "fever""#)) == #"{"op":"contains","ref":"symptoms","value":"fever"}"#)
        #expect(try Self.json(Condition(parsing: #"name matches "^A.*""#)) == #"{"op":"matches","pattern":"^A.*","ref":"name"}"#)
        #expect(try Self.json(Condition(parsing: "answered(meds)")) == #"{"op":"answered","ref":"meds"}"#)
        #expect(try Self.json(Condition(parsing: "dontKnow(baseline:pain.level)")) == #"{"op":"dontKnow","ref":"baseline:pain.level"}"#)
        #expect(try Self.json(Condition(parsing: "smoker == false")) == #"{"op":"==","ref":"smoker","value":false}"#)
        #expect(try Self.json(Condition(parsing: "not true or false")) == #"{"conditions":[{"condition":{"op":"true"},"op":"not"},{"op":"false"}],"op":"or"}"#)
        #expect(try Self.json(Condition(parsing: "true and `q 1` != -0.5")) == #"{"conditions":[{"op":"true"},{"op":"!=","ref":"`q 1`","value":-0.5}],"op":"and"}"#)
    }

    @Test("tree survives JSON", arguments: handBuiltTrees + canonicalTexts.map { try! Condition(parsing: $0) })
    func jsonRoundTrips(tree: Condition) throws {
        let data = try ResearchJSON.encoder().encode(tree)
        #expect(try ResearchJSON.decoder().decode(Condition.self, from: data) == tree)
    }

    @Test func decodesTextForm() throws {
        let expected = Condition.and([.comparison(Self.pain, .greaterOrEqual, Self.number("7")), .not(.answered(Self.meds))])
        #expect(try Self.decode(Condition.self, #""pain >= 7 and not answered(meds)""#) == expected)
        let rule = try Self.decode(ConditionalDestination.self, #"{"if": "pain >= 7 and not answered(meds)", "goTo": "done"}"#)
        #expect(rule == ConditionalDestination(if: expected, goTo: .step("done")))
        let mixed = try Self.decode(Condition.self, #"{"op": "or", "conditions": ["answered(meds)", {"op": "false"}]}"#)
        #expect(mixed == .or([.answered(Self.meds), .constant(false)]))
    }

    @Test func decodesValuesExactly() throws {
        let condition = try Self.decode(Condition.self, #"{"op": "in", "ref": "pain", "lower": 0.1, "upper": 1e3}"#)
        #expect(condition == .inRange(Self.pain, lower: Self.number("0.1"), upper: Self.number("1000")))
        #expect(try Self.decode([ConditionValue].self, #"[true, 2.5, "2.5", false]"#) == [.boolean(true), Self.number("2.5"), .string("2.5"), .boolean(false)])
        #expect(throws: DecodingError.self) { try Self.decode(ConditionValue.self, "null") }
        #expect(throws: DecodingError.self) { try Self.decode(ConditionValue.self, "[1]") }
    }

    @Test func referencesEncodeAsText() throws {
        let reference = AnswerReference(task: "my task", step: "pain", item: "level")
        let data = try ResearchJSON.encoder(pretty: false).encode(reference)
        #expect(String(decoding: data, as: UTF8.self) == #""`my task`:pain.level""#)
        #expect(try ResearchJSON.decoder().decode(AnswerReference.self, from: data) == reference)
        #expect(throws: DecodingError.self) { try Self.decode(AnswerReference.self, #""pain >= 7""#) }
    }

    @Test func badTextFormBecomesDecodingErrorWithSyntaxDetails() throws {
        do {
            _ = try Self.decode(Condition.self, #""pain >= ""#)
            Issue.record("decoding should fail")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("column 9: the condition ends too early: expected a value after '>='"))
            #expect(context.underlyingError as? ConditionSyntaxError == ConditionSyntaxError(
                message: "the condition ends too early: expected a value after '>='", column: 9))
        }
    }

    @Test func rejectsMalformedObjects() throws {
        do {
            _ = try Self.decode(Condition.self, #"{"op": "=", "ref": "pain", "value": 7}"#)
            Issue.record("decoding should fail")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.hasPrefix("unknown condition op '='"))
        }
        do {
            _ = try Self.decode(Condition.self, #"{"op": "matches", "ref": "name", "pattern": "a(b"}"#)
            Issue.record("decoding should fail")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.hasPrefix("invalid regular expression"))
        }
        do {
            _ = try Self.decode(Condition.self, #"{"op": "answered", "ref": "a b"}"#)
            Issue.record("decoding should fail")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("column 3"))
        }
        #expect(throws: DecodingError.self) { try Self.decode(Condition.self, #"{"op": ">=", "ref": "pain"}"#) }
        #expect(throws: DecodingError.self) { try Self.decode(Condition.self, "7") }
    }

    // MARK: Evaluation

    private static let start = Date(timeIntervalSince1970: 1_772_000_000)
    private static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    private static func question(_ identifier: String, _ type: AnswerFormatType, _ answer: Answer?, isPrevious: Bool = false) -> StepResult {
        StepResult(identifier: identifier, startDate: start, endDate: start,
                   results: [.question(QuestionResult(identifier: identifier, type: type, answer: answer))],
                   isPrevious: isPrevious)
    }

    private static let context: ConditionContext = {
        let visitDay = DateAnswer(year: 2026, month: 3, day: 1, timeZone: tokyo)!
        // 2026-03-02 01:30 in Tokyo is still 2026-03-01 in UTC.
        let visitTime = DateAnswer(date: ISO8601.date(from: "2026-03-02T01:30:00+09:00")!, timeZone: tokyo, includesTime: true)
        var buddhistDay = visitDay
        buddhistDay.calendar = .buddhist
        let baseline = TaskResult(
            identifier: "baseline", taskRunUUID: UUID(), startDate: start, endDate: start,
            stepResults: [
                StepResult(identifier: "pain", startDate: start, endDate: start,
                           results: [.question(QuestionResult(identifier: "level", type: .scale, answer: .number(4)))]),
            ])
        return ConditionContext(current: [
            question("pain", .scale, .number(7)),
            question("meds", .textChoice, nil),
            question("sleep", .numeric, .dontKnow),
            question("smoker", .boolean, .boolean(false)),
            question("name", .text, .text("Alice Smith")),
            question("mood", .textChoice, .choices([ChoiceSelection("happy")])),
            question("symptoms", .textChoice, .choices([ChoiceSelection("fever"), ChoiceSelection("cough")])),
            question("none", .textChoice, .choices([])),
            question("level", .textScale, .choices([ChoiceSelection(3)])),
            question("ratio", .valuePicker, .choices([ChoiceSelection(.decimal(0.1))])),
            question("bp", .multipleValuePicker, .components([120, 80])),
            question("duration", .timeInterval, .timeInterval(90.5)),
            question("visit", .date, .date(visitDay)),
            question("visitTime", .dateTime, .date(visitTime)),
            question("buddhistVisit", .date, .date(buddhistDay)),
            question("wake", .timeOfDay, .timeOfDay(TimeOfDay(hour: 7, minute: 30))),
            StepResult(identifier: "vitals", startDate: start, endDate: start, results: [
                .question(QuestionResult(identifier: "weight", type: .weight, answer: .number(70.5))),
                .question(QuestionResult(identifier: "height", type: .height, answer: nil)),
            ]),
            question("loop", .numeric, .number(1), isPrevious: true),
            question("loop", .numeric, .number(2)),
            question("gone", .numeric, .number(5), isPrevious: true),
            StepResult(identifier: "skippedStep", startDate: start, endDate: start, skipped: true),
        ], otherTasks: ["baseline": baseline])
    }()

    static let evaluations: [(String, Bool)] = [
        // Constants and connectives.
        ("true", true), ("false", false), ("not false", true),
        ("pain == 7 and smoker == false", true), ("pain == 7 and smoker == true", false),
        ("pain == 1 or smoker == false", true), ("pain == 1 or smoker == true", false),
        // Numbers.
        ("pain == 7", true), ("pain == 7.0", true), ("pain != 7", false), ("pain != 6", true),
        ("pain < 8", true), ("pain < 7", false), ("pain <= 7", true), ("pain <= 6.99", false),
        ("pain > 6", true), ("pain > 7", false), ("pain >= 7", true), ("pain >= 7.01", false),
        ("pain in 7...9", true), ("pain in 1...7", true), ("pain in 8...9", false), ("pain in 1...6", false),
        ("vitals.weight == 70.5", true), ("vitals.weight > 71", false),
        ("duration == 90.5", true), ("duration in 60...120", true), ("duration < 90", false),
        ("level == 3", true), ("level >= 4", false), ("ratio == 0.1", true), ("ratio < 0.1", false),
        // Booleans.
        ("smoker == false", true), ("smoker != true", true), ("smoker < true", true), ("smoker == true", false),
        // Strings.
        (#"name == "Alice Smith""#, true), (#"name == "alice smith""#, false), (#"name > "Alice""#, true),
        (#"mood == "happy""#, true), (#"mood != "happy""#, false), (#"mood != "sad""#, true), (#"mood < "sad""#, true),
        // Multiple choice: equal only to the one value chosen; several values are unequal but not ordered.
        (#"symptoms == "fever""#, false), (#"symptoms != "fever""#, true), (#"symptoms != "rash""#, true),
        (#"symptoms < "zzz""#, false), (#"symptoms in "a"..."z""#, false),
        (#"none == "fever""#, false), (#"none != "fever""#, true), ("none != true", false),
        // Unanswered and "don't know": comparisons are false, even !=.
        ("meds == 1", false), ("meds != 1", false), ("sleep == 1", false), ("sleep != 1", false),
        ("vitals.height != 180", false), ("missing != 1", false), ("skippedStep != 1", false),
        ("sleep in 0...24", false), (#"sleep contains "x""#, false), (#"sleep matches ".*""#, false),
        ("answered(pain)", true), ("answered(meds)", false), ("answered(sleep)", false), ("answered(missing)", false),
        ("dontKnow(sleep)", true), ("dontKnow(pain)", false), ("dontKnow(meds)", false),
        ("not answered(meds)", true), ("vitals.height == 1 or not answered(vitals.height)", true),
        // Type mismatches are false, even !=.
        (#"pain == "7""#, false), (#"pain != "7""#, false), ("pain == true", false), ("smoker != 0", false),
        ("name == 1", false), ("name != 1", false), ("level != \"3\"", false), ("mood != 1", false),
        (#"symptoms != 1"#, false), ("symptoms != true", false), ("wake != 7", false), ("visit != 1", false),
        (#"wake != "soon""#, false), (#"visit != "yesterday""#, false), (#"pain in "a"..."z""#, false),
        // contains.
        (#"symptoms contains "fever""#, true), (#"symptoms contains "cough""#, true), (#"symptoms contains "rash""#, false),
        (#"mood contains "happy""#, true), ("level contains 3", true), ("level contains 3.0", true), (#"level contains "3""#, false),
        ("bp contains 120", true), ("bp contains 80", true), ("bp contains 90", false),
        (#"name contains "ice S""#, true), (#"name contains "ALICE""#, false), ("name contains 1", false),
        (#"pain contains "7""#, false), ("pain contains 7", false), (#"meds contains "x""#, false),
        // matches: the whole text.
        (#"name matches "A.*""#, true), (#"name matches "Alice""#, false), (#"name matches "[A-Z][a-z]+ [A-Z][a-z]+""#, true),
        (#"mood matches "happy""#, false), (#"pain matches "7""#, false),
        // Dates: days in the answer's zone, date-times as instants.
        (#"visit == "2026-03-01""#, true), (#"visit < "2026-03-02""#, true), (#"visit > "2026-02-28""#, true),
        (#"visit != "2026-03-01""#, false), (#"visit in "2026-01-01"..."2026-12-31""#, true), (#"visit in "2026-03-02"..."2026-12-31""#, false),
        (#"visitTime == "2026-03-02""#, true), (#"visitTime == "2026-03-01""#, false), (#"visitTime >= "2026-03-02""#, true),
        (#"visitTime > "2026-03-01T16:00:00Z""#, true), (#"visitTime < "2026-03-01T17:00:00Z""#, true),
        (#"visitTime == "2026-03-01T16:30:00Z""#, true), (#"visitTime == "2026-03-02T01:30:00+09:00""#, true),
        (#"visit == "2026-02-29""#, false), (#"visit != "2026-02-29""#, false),
        (#"buddhistVisit == "2026-03-01""#, true),
        // Times of day.
        (#"wake == "07:30""#, true), (#"wake == "7:30""#, true), (#"wake == "07:30:00""#, true), (#"wake < "08:00""#, true),
        (#"wake > "07:30:01""#, false), (#"wake in "06:00"..."08:00""#, true), (#"wake >= "25:00""#, false),
        // Another task's latest result.
        ("baseline:pain.level == 4", true), ("baseline:pain.level > 5", false), ("answered(baseline:pain.level)", true),
        ("answered(baseline:pain)", false), ("answered(other:pain)", false), ("other:pain != 1", false),
        // Previous passes of a step are ignored.
        ("loop == 2", true), ("loop == 1", false), ("answered(gone)", false), ("gone == 5", false),
    ]

    @Test("evaluation", arguments: evaluations)
    func evaluates(text: String, expected: Bool) throws {
        #expect(try Condition(parsing: text).isSatisfied(by: Self.context) == expected)
    }

    @Test func emptyConnectivesFollowLogic() {
        #expect(Condition.and([]).isSatisfied(by: Self.context))
        #expect(!Condition.or([]).isSatisfied(by: Self.context))
    }

    @Test func navigationUsesConditions() throws {
        let context = ConditionContext(current: [Self.question("pain", .scale, .number(8))])
        let rule = ConditionalDestination(if: try Condition(parsing: "pain >= 7"), goTo: .step("doctor"))
        #expect(rule.condition.isSatisfied(by: context))
        let calm = ConditionContext(current: [Self.question("pain", .scale, .number(2))])
        #expect(!rule.condition.isSatisfied(by: calm))
    }
}

@Suite("Expression conditions")
struct ExpressionConditionTests {
    let condition = Condition.expression(ItemCalculation(language: "text/fhirpath", expression: #"%resource.item.where(linkId='a "b"').exists()"#))

    @Test func printsParsesAndEncodesBothWays() throws {
        #expect(condition.description == #"expression("text/fhirpath", "%resource.item.where(linkId='a \"b\"').exists()")"#)
        #expect(try Condition(parsing: condition.description) == condition)
        #expect(try Condition(parsing: "answered(x) and \(condition.description)") == .and([.answered(AnswerReference(step: "x")), condition]))
        let json = try ResearchJSON.encoder().encode(condition)
        #expect(String(decoding: json, as: UTF8.self).contains(#""op" : "expression""#))
        #expect(try ResearchJSON.decoder().decode(Condition.self, from: json) == condition)
        #expect(throws: ConditionSyntaxError.self) { try Condition(parsing: #"expression("text/fhirpath")"#) }
        #expect(throws: ConditionSyntaxError.self) { try Condition(parsing: "expression(text, x)") }
    }

    @Test func holdsOnlyWhenTheEvaluatorSaysSo() {
        var context = ConditionContext(current: [])
        #expect(!condition.isSatisfied(by: context), "no evaluator: it does not hold")
        context.evaluateExpression = { $0.language == "text/fhirpath" }
        #expect(condition.isSatisfied(by: context))
        #expect(!Condition.not(condition).isSatisfied(by: context))
    }
}
