import Foundation
import Interop
import Testing

/// The HL7 SDC fixtures, read from the shared fixtures folder (see ``HL7Fixtures``).
private let fixtures = HL7Fixtures.folder

private func fixture(_ name: String) throws -> FHIRJSON {
    try FHIRJSON(data: Data(contentsOf: fixtures.appendingPathComponent(name)))
}

private func evaluate(
    _ expression: String, on resource: FHIRJSON = .object(FHIRJSONObject()), _ environment: [String: FHIRPathCollection] = [:]
) throws -> FHIRPathCollection {
    try FHIRPathExpression(expression).evaluate(on: resource, environment: environment)
}

/// The error `expression` gives when parsed or evaluated (nil when it succeeds).
private func failure(
    _ expression: String, on resource: FHIRJSON = .object(FHIRJSONObject()), _ environment: [String: FHIRPathCollection] = [:]
) -> FHIRPathError? {
    do {
        _ = try FHIRPathExpression(expression).evaluate(on: resource, environment: environment)
        return nil
    } catch {
        return error
    }
}

private func decimal(_ text: String) -> FHIRPathValue { .decimal(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!) }

@Suite("FHIRPath: FHIRJSON, the JSON it reads")
struct FHIRPathJSONTests {
    @Test func keepsIntegersDecimalsPrecisionAndMemberOrder() throws {
        let json = try FHIRJSON(string: #"{"b": 1, "a": 1.50, "c": [1.0, -0, 2e2, 1.5E-3, 12345678901234567890], "d": null}"#)
        #expect(json["b"] == .integer(1))
        #expect(json["a"] == .decimal(Decimal(string: "1.5")!, fractionDigits: 2))
        #expect(json["c"]?[0] == .decimal(1, fractionDigits: 1))
        #expect(json.objectValue?.keys == ["b", "a", "c", "d"])
        #expect(json.jsonString() == #"{"b":1,"a":1.50,"c":[1.0,0,200,0.0015,12345678901234567890],"d":null}"#)
        #expect(json.jsonString(sortedKeys: true) == #"{"a":1.50,"b":1,"c":[1.0,0,200,0.0015,12345678901234567890],"d":null}"#)
        // Exponents are written out (2e2 as 200, which then reads back as an integer); all else reads back the same.
        let plain = try FHIRJSON(string: #"{"b": 1, "a": 1.50, "c": [1.0, 0.0015, "x"], "d": {"e": [null, true]}}"#)
        #expect(try FHIRJSON(data: plain.data()) == plain)
        #expect(try FHIRJSON(data: plain.data(sortedKeys: true)) == plain)
    }

    @Test func readsAndWritesStringEscapes() throws {
        let json = try FHIRJSON(string: #"["a\"b\\c\/d\n\t\u00e9\ud83d\ude00\u0001"]"#)
        #expect(json[0]?.stringValue == "a\"b\\c/d\n\té😀\u{01}")
        #expect(json.jsonString() == #"["a\"b\\c/d\n\té😀\u0001"]"#)
    }

    @Test func objectsAreEqualWhateverTheMemberOrder() throws {
        #expect(try FHIRJSON(string: #"{"a": 1, "b": [true]}"#) == FHIRJSON(string: #"{"b": [true], "a": 1}"#))
        #expect(try FHIRJSON(string: "1") != FHIRJSON(string: "1.0"))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "expected a member name"),
        ("{\n  \"a\": tru\n}", 2, 8, "expected a value"),
        ("[1 2]", 1, 4, "expected ',' or ']'"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "the member name \"a\" is given twice"),
        ("\"abc", 1, 1, "unterminated string"),
        ("01", 1, 1, "leading zero"),
        ("[1] x", 1, 5, "after the JSON value"),
        ("\"\\ud800\"", 1, 2, "unpaired surrogate"),
    ])
    func namesWhereBadJSONGoesWrong(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try FHIRJSON(string: text)
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description.contains("line \(line), column \(column)"))
        }
    }
}

@Suite("FHIRPath: parsing")
struct FHIRPathParsingTests {
    @Test(arguments: [
        ("item.", 5, "expected a name after '.'"),
        ("1 +", 3, "expected an expression after '+'"),
        ("where(linkId = 'a'", 18, "expected ')' to close the arguments of where()"),
        ("'abc", 0, "unterminated string"),
        ("@2020-13-01", 0, "not a valid date"),
        ("(1 + 2", 6, "expected ')' to close the parenthesis opened at offset 0"),
        ("$that", 0, "unknown special variable '$that'"),
        ("a b", 2, "unexpected 'b' after a complete expression"),
        ("1 # 2", 2, "unexpected character '#'"),
        ("{1}", 1, "only the empty collection"),
        ("", 0, "the expression is empty"),
        ("x is", 4, "expected a type name"),
        ("'a\\qb'", 2, "invalid escape"),
    ])
    func reportsWhatAndWhere(text: String, offset: Int, message: String) {
        do {
            _ = try FHIRPathExpression(text)
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.kind == .syntax)
            #expect(error.offset == offset, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func refusesHostileNesting() throws {
        let deep = String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000)
        #expect(failure(deep)?.message.contains("nested more than 200 levels") == true)
        #expect(failure(String(repeating: "-", count: 5000) + "1")?.kind == .syntax)
        #expect(failure(Array(repeating: "1", count: 5000).joined(separator: " + "))?.kind == .syntax)
        #expect(failure("a" + String(repeating: ".b", count: 5000))?.kind == .syntax)
        #expect(try evaluate(Array(repeating: "1", count: 100).joined(separator: " + ")) == [.integer(100)])
        #expect(try evaluate(String(repeating: "(", count: 50) + "1" + String(repeating: ")", count: 50)) == [.integer(1)])
    }

    @Test func readsLiterals() throws {
        #expect(try evaluate("'a\\'b\\u0041\\n'") == [.string("a'bA\n")])
        #expect(try evaluate("`delimited` | 1") == [.integer(1)])
        #expect(try evaluate("1.50") == [decimal("1.5")])
        #expect(try evaluate("true") == [.boolean(true)])
        #expect(try evaluate("{}") == [])
        #expect(try evaluate("5 'mg'") == [.quantity(FHIRPathQuantity(value: 5, unit: "mg"))])
        #expect(try evaluate("3 days") == [.quantity(FHIRPathQuantity(value: 3, unit: "day"))])
        #expect(try evaluate("@2020-01-01").first?.json == .string("2020-01-01"))
        #expect(try evaluate("@2020-01-01T10:30:00Z").first?.typeName == "System.DateTime")
        #expect(try evaluate("@T10:30").first?.typeName == "System.Time")
        #expect(try evaluate("2 + 3 // a comment") == [.integer(5)])
        #expect(try evaluate("2 /* inline */ * 3") == [.integer(6)])
    }

    @Test func followsTheSpecificationsPrecedence() throws {
        #expect(try evaluate("2 + 3 * 4") == [.integer(14)])
        #expect(try evaluate("10 - 4 - 3") == [.integer(3)])
        #expect(try evaluate("-2.abs()") == [.integer(-2)])
        #expect(try evaluate("1 | 2 = 1 | 2") == [.boolean(true)])
        #expect(try evaluate("true or false and false") == [.boolean(true)])
        #expect(try evaluate("false implies false or true") == [.boolean(true)])
        #expect(try evaluate("1 < 2 = true") == [.boolean(true)])
        #expect(try evaluate("1 + 1 is Integer") == [.boolean(true)])
        #expect(try evaluate("2 in 1 | 2") == [.boolean(true)])
    }
}

@Suite("FHIRPath: empty collections and three-valued logic")
struct FHIRPathLogicTests {
    /// The specification's truth tables; nil is the empty collection.
    static let table: [(String, Bool?, Bool?, Bool?)] = {
        let values: [Bool?] = [true, false, nil]
        var rows: [(String, Bool?, Bool?, Bool?)] = []
        for left in values {
            for right in values {
                let and: Bool? = left == false || right == false ? false : (left == true && right == true ? true : nil)
                let or: Bool? = left == true || right == true ? true : (left == false && right == false ? false : nil)
                let xor: Bool? = left.flatMap { l in right.map { l != $0 } }
                let implies: Bool? = left == false || right == true ? true : (left == true ? right : nil)
                rows += [("and", left, right, and), ("or", left, right, or), ("xor", left, right, xor), ("implies", left, right, implies)]
            }
        }
        return rows
    }()

    private static func literal(_ value: Bool?) -> String { value.map { "\($0)" } ?? "{}" }

    @Test func matchesTheTruthTables() throws {
        #expect(Self.table.count == 36)
        for (op, left, right, expected) in Self.table {
            let expression = "\(Self.literal(left)) \(op) \(Self.literal(right))"
            #expect(try evaluate(expression) == (expected.map { [.boolean($0)] } ?? []), "\(expression)")
        }
        // Spot checks written out, so the table above cannot be wrong in the same way as the code.
        #expect(try evaluate("{} and false") == [.boolean(false)])
        #expect(try evaluate("{} and true") == [])
        #expect(try evaluate("{} or true") == [.boolean(true)])
        #expect(try evaluate("{} implies true") == [.boolean(true)])
        #expect(try evaluate("{} implies false") == [])
        #expect(try evaluate("false implies {}") == [.boolean(true)])
        #expect(try evaluate("true xor {}") == [])
    }

    @Test func notAndSingletonEvaluation() throws {
        #expect(try evaluate("true.not()") == [.boolean(false)])
        #expect(try evaluate("{}.not()") == [])
        // A single non-Boolean item stands for true where a Boolean is expected (singleton evaluation).
        #expect(try evaluate("'a' and true") == [.boolean(true)])
        #expect(try evaluate("iif('x', 1, 2)") == [.integer(1)])
        #expect(failure("(true | false) and true")?.kind == .cardinality)
    }

    @Test(arguments: [
        "{} + 1", "1 + {}", "{} - 1", "2 * {}", "{} / 2", "{} div 2", "{} mod 2", "{} = 1", "1 != {}", "{} < 1", "{} >= 1",
        "-{}", "{} in (1 | 2)", "{}.first()", "{}.where(true)", "{}.select(1)", "{}.toString()", "{}.length()", "{}.ordinal()",
        "{}.answers()", "{}[0]", "(1 | 2)[5]", "{}.round()", "{}.min()", "{}.avg()",
    ])
    func emptyGoesIntoEmpty(expression: String) throws {
        #expect(try evaluate(expression) == [], "\(expression)")
    }

    @Test func collectionFunctionsOnEmpty() throws {
        #expect(try evaluate("{}.count()") == [.integer(0)])
        #expect(try evaluate("{}.exists()") == [.boolean(false)])
        #expect(try evaluate("{}.empty()") == [.boolean(true)])
        #expect(try evaluate("1 in {}") == [.boolean(false)])
        #expect(try evaluate("{} ~ {}") == [.boolean(true)])
        #expect(try evaluate("'a' & {}") == [.string("a")])
        // SDC defines sum() as aggregate($this + $total, 0): the sum of nothing is 0.
        #expect(try evaluate("{}.sum()") == [.integer(0)])
    }

    @Test func operatorsRefuseCollectionsOfMoreThanOneItem() {
        let error = failure("(1 | 2) + 1")
        #expect(error?.kind == .cardinality)
        #expect(error?.offset == 8)
        #expect(error?.message.contains("'+' needs a single item, got a collection of 2") == true)
        #expect(failure("(1 | 2) < 3")?.kind == .cardinality)
        #expect(failure("(1 | 2).not()")?.kind == .cardinality)
    }
}

@Suite("FHIRPath: arithmetic, comparison and functions")
struct FHIRPathOperatorTests {
    @Test func integersAndDecimals() throws {
        #expect(try evaluate("1 + 2") == [.integer(3)])
        #expect(try evaluate("1 + 2.5") == [decimal("3.5")])
        #expect(try evaluate("1.5 * 2").first?.typeName == "System.Decimal")
        #expect(try evaluate("10 / 4") == [decimal("2.5")])
        #expect(try evaluate("10 / 5").first?.typeName == "System.Decimal")
        #expect(try evaluate("7 div 2") == [.integer(3)])
        #expect(try evaluate("-7 div 2") == [.integer(-3)])
        #expect(try evaluate("5.5 div 0.7") == [.integer(7)])
        #expect(try evaluate("7 mod 3") == [.integer(1)])
        #expect(try evaluate("-7 mod 3") == [.integer(-1)])
        #expect(try evaluate("5.5 mod 0.7") == [decimal("0.6")])
        #expect(try evaluate("0.1 + 0.2 = 0.3") == [.boolean(true)])
        #expect(try evaluate("'a' + 'b'") == [.string("ab")])
        #expect(try evaluate("'a' & 'b'") == [.string("ab")])
        #expect(try evaluate("5 'mg' + 3 'mg'") == [.quantity(FHIRPathQuantity(value: 8, unit: "mg"))])
        #expect(failure("1 + 'a'")?.kind == .type)
    }

    @Test func divisionByZeroAndOverflowAreEmpty() throws {
        #expect(try evaluate("1 / 0") == [])
        #expect(try evaluate("1 div 0") == [])
        #expect(try evaluate("1 mod 0") == [])
        #expect(try evaluate("1.5 div 0.0") == [])
        #expect(try evaluate("9223372036854775807 + 1") == [])
    }

    @Test func comparisons() throws {
        #expect(try evaluate("1 < 1.5") == [.boolean(true)])
        #expect(try evaluate("'abc' < 'abd'") == [.boolean(true)])
        #expect(try evaluate("1 = 1.0") == [.boolean(true)])
        #expect(try evaluate("'a' = 'A'") == [.boolean(false)])
        #expect(try evaluate("'a' ~ 'A'") == [.boolean(true)])
        #expect(try evaluate("1.2 ~ 1.24") == [.boolean(true)])
        #expect(try evaluate("(1 | 2) = (1 | 2)") == [.boolean(true)])
        #expect(try evaluate("(1 | 2) = (2 | 1)") == [.boolean(false)])
        #expect(try evaluate("(1 | 2) ~ (2 | 1)") == [.boolean(true)])
        #expect(failure("1 < 'a'")?.kind == .type)
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func datesCompareAtTheirPrecision() throws {
        #expect(try evaluate("@2020-01-01 < @2020-02") == [.boolean(true)])
        #expect(try evaluate("@2020-01 < @2020-01-15") == [])
        #expect(try evaluate("@2020-01 = @2020-01-15") == [])
        #expect(try evaluate("@2020-01 ~ @2020-01-15") == [.boolean(false)])
        #expect(try evaluate("@2020-01-01T10:00:00.000+02:00 = @2020-01-01T08:00:00Z") == [.boolean(true)])
        #expect(try evaluate("@2020-01-01T23:30-01:00 > @2020-01-02T00:15Z") == [.boolean(true)])
        #expect(try evaluate("@T10:30 < @T11") == [.boolean(true)])
        #expect(try evaluate("@2020-01-01 = @2020-01-01") == [.boolean(true)])
        let response = try fixture("sdc-phq9-response.json")
        #expect(try evaluate("authored > @2019-08-21T20:00:00Z", on: response) == [.boolean(true)])
        #expect(try evaluate("authored < @2019-08-21", on: response) == [])
        #expect(failure("@2020-01-01 < @T10:00")?.kind == .type)
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func navigationAndChoiceTypes() throws {
        let response = try fixture("sdc-phq9-response.json")
        #expect(try evaluate("item.item.count()", on: response) == [.integer(10)])
        #expect(try evaluate("QuestionnaireResponse.item.linkId", on: response).map(\.json) == [.string("H1/T1")])
        #expect(try evaluate("Patient.item", on: response) == [])
        // `value` finds valueCoding and valueQuantity, and navigation goes on into them.
        let codes = try evaluate("item.item.answer.value.code", on: response)
        #expect(codes.count == 9)
        #expect(codes.first?.json == .string("Not-at-all"))
        let score = try evaluate("item.item.where(linkId = 'H1/TS').answer.value", on: response)
        #expect(score.first?.typeName == "FHIR.Quantity")
        #expect(try evaluate("item.item.where(linkId = 'H1/TS').answer.value.value + 1", on: response) == [decimal("14")])
        #expect(try evaluate("item.item.where(linkId = 'H1/TS').answer.value = 13 '{score}'", on: response) == [.boolean(true)])
        #expect(try evaluate("item.item.answer.value.ofType(Coding).count()", on: response) == [.integer(9)])
        #expect(try evaluate("item.item.answer.value.ofType(Quantity).count()", on: response) == [.integer(1)])
        #expect(try evaluate("item.item[2].linkId", on: response).map(\.json) == [.string("H1/T1/Q3")])
        #expect(try evaluate("item.item.linkId.first() | item.item.linkId.last()", on: response).map(\.json)
            == [.string("H1/T1/Q1"), .string("H1/TS")])
        #expect(try evaluate("item.children().count()", on: response) == [.integer(12)])
        #expect(try evaluate("%resource.repeat(item).count()", on: response) == [.integer(11)])
        #expect(try evaluate("item.descendants().where($this is Coding).count()", on: response) == [.integer(9)])
        let located = try evaluate("item.item[3].answer.value", on: response)
        guard case .node(let node)? = located.first else { Issue.record("no node"); return }
        #expect(node.location == "QuestionnaireResponse.item[0].item[3].answer[0].valueCoding")
        #expect(node.fhirType == "Coding")
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func functions() throws {
        let response = try fixture("sdc-phq9-response.json")
        #expect(try evaluate("item.item.where(linkId.startsWith('H1/T1/Q')).count()", on: response) == [.integer(9)])
        #expect(try evaluate("item.item.select(linkId.length()).sum()", on: response) == [.integer(9 * 8 + 5)])
        #expect(try evaluate("item.item.exists(linkId = 'H1/TS')", on: response) == [.boolean(true)])
        #expect(try evaluate("item.item.answer.value.code.distinct().count()", on: response) == [.integer(4)])
        #expect(try evaluate("(1 | 2 | 3).where($this > 1).select($this * $index)") == [.integer(0), .integer(3)])
        #expect(try evaluate("(1 | 2 | 3).aggregate($this + $total, 10)") == [.integer(16)])
        #expect(try evaluate("iif(1 > 2, 'yes', 'no')") == [.string("no")])
        #expect(try evaluate("iif({}, 'yes')") == [])
        #expect(try evaluate("'12'.toInteger() + '1.5'.toDecimal()") == [decimal("13.5")])
        #expect(try evaluate("1.5.toInteger()") == [])
        #expect(try evaluate("(1.5).toString() & 2.toString()") == [.string("1.52")])
        #expect(try evaluate("2.5.round()") == [decimal("3")])
        #expect(try evaluate("3.14159.round(2)") == [decimal("3.14")])
        #expect(try evaluate("(-1.5).abs()") == [decimal("1.5")])
        #expect(try evaluate("(-1.5).floor()") == [.integer(-2)])
        #expect(try evaluate("1.2.ceiling()") == [.integer(2)])
        #expect(try evaluate("'abcdef'.contains('cd') and 'abc'.matches('^a.c$') and 'abc'.endsWith('bc')") == [.boolean(true)])
        #expect(try evaluate("'héllo'.length()") == [.integer(5)])
        #expect(try evaluate("'abcdef'.substring(2, 3) & 'ABC'.lower() & 'x'.upper()") == [.string("cdeabcX")])
        #expect(try evaluate("(3 | 1 | 2).min() + (3 | 1 | 2).max()") == [.integer(4)])
        #expect(try evaluate("(1 | 2).avg()") == [decimal("1.5")])
        #expect(try evaluate("(1 | 2 | 3).tail().first()") == [.integer(2)])
        #expect(try evaluate("(1 | 2).combine(2 | 3).count()") == [.integer(4)])
        #expect(try evaluate("(1 | 2).union(2 | 3).count()") == [.integer(3)])
        #expect(try evaluate("(1 | 2).intersect(2 | 3)") == [.integer(2)])
        #expect(try evaluate("1 is System.Integer and 1.0 is Decimal and 'a'.is(String) and (1 as Decimal).empty()") == [.boolean(true)])
    }

    @Test func unsupportedFunctionsAndUnknownVariablesFailLoudly() throws {
        let unsupported = failure("item.resolve()")
        #expect(unsupported?.kind == .unsupportedFunction)
        #expect(unsupported?.message.contains("resolve()") == true)
        #expect(unsupported?.offset == 5)
        #expect(failure("conformsTo('http://hl7.org/fhir/StructureDefinition/Patient')")?.kind == .unsupportedFunction)
        // now() and today() need the moment of evaluation, which the caller gives.
        #expect(failure("now()")?.kind == .evaluation)
        #expect(failure("{}.first(1)")?.kind == .invalidArguments)
        let undefined = failure("%score + 1")
        #expect(undefined?.kind == .undefinedVariable)
        #expect(undefined?.message.contains("%score") == true)
        #expect(try evaluate("%score + 1", ["score": [.integer(2)]]) == [.integer(3)])
        #expect(try evaluate("%ucum") == [.string("http://unitsofmeasure.org")])
    }
}

/// The PHQ-9 of the SDC examples: its calculatedExpression `%resource.answers().value.ordinal().sum()` on the
/// example response, and on copies of the response with other answers.
@Suite("FHIRPath: SDC scoring of the PHQ-9")
struct FHIRPathPHQ9Tests {
    static let scoreExpression = "%resource.answers().value.ordinal().sum()"
    /// The answer codes of the contained ValueSet VSPHQ9 by their ordinalValue.
    static let codes = ["Not-at-all", "Several-days", "More than half the days", "Nearly every day"]

    private func environment() throws -> [String: FHIRPathCollection] {
        ["questionnaire": [.resource(try fixture("sdc-phq9-questionnaire.json"), root: "questionnaire")]]
    }

    /// The example response with question Q`n` answered with the code of ordinal `ordinals[n - 1]` (nil: no
    /// answer); the total score item's own answer (Quantity 13) is left as it is.
    private func response(ordinals: [Int?]) throws -> FHIRJSON {
        func edit(_ json: FHIRJSON) -> FHIRJSON {
            switch json {
            case .array(let elements): return .array(elements.map(edit))
            case .object(var object):
                if let linkId = object["linkId"]?.stringValue, linkId.hasPrefix("H1/T1/Q"), let number = Int(linkId.dropFirst(7)) {
                    if let ordinal = ordinals[number - 1] {
                        let coding = FHIRJSONObject([("code", .string(Self.codes[ordinal])), ("display", .string(Self.codes[ordinal]))])
                        object["answer"] = .array([.object(FHIRJSONObject([("valueCoding", .object(coding))]))])
                    } else {
                        object["answer"] = nil
                    }
                    return .object(object)
                }
                for key in object.keys { object[key] = edit(object[key]!) }
                return .object(object)
            default: return json
            }
        }
        return edit(try fixture("sdc-phq9-response.json"))
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func scoresTheExampleResponse() throws {
        let response = try fixture("sdc-phq9-response.json")
        // By hand: Q1–Q3 Not at all (0 each), Q4 Several days (1), Q5 More than half the days (2), Q6 Several
        // days (1), Q7 Nearly every day (3), Q8 More than half the days (2), Q9 Several days (1): 10. The
        // example's own total answer says 13, which does not match its answers; it is a Quantity, and
        // ordinal() of anything but a Coding is empty (SDC), so it does not count towards the score.
        #expect(try evaluate(Self.scoreExpression, on: response, environment()) == [decimal("10")])
        #expect(try evaluate("%resource.answers().value.ordinal()", on: response, environment())
            == [0, 0, 0, 1, 2, 1, 3, 2, 1].map { .decimal(Decimal($0)) })
        #expect(try evaluate("%resource.answers().count()", on: response, environment()) == [.integer(10)])
        let json = try evaluate(Self.scoreExpression, on: response, environment()).map(\.json)
        #expect(json == [.decimal(10, fractionDigits: 1)])
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent), arguments: [
        ([0, 0, 0, 0, 0, 0, 0, 0, 0] as [Int?], "0"),
        ([3, 3, 3, 3, 3, 3, 3, 3, 3], "27"),
        ([3, 0, 2, 1, 3, 2, 0, 1, 3], "15"),
        ([1, nil, 2, nil, nil, 3, nil, nil, 1], "7"),
        ([nil, nil, nil, nil, nil, nil, nil, nil, nil], "0"),
    ])
    func scoresEditedResponses(ordinals: [Int?], expected: String) throws {
        let result = try evaluate(Self.scoreExpression, on: try response(ordinals: ordinals), environment())
        if ordinals.allSatisfy({ $0 == nil }) {
            #expect(result == [.integer(0)])  // No Coding answers: the sum of nothing.
        } else {
            #expect(result == [decimal(expected)])
        }
    }

    @Test func answersComeInDocumentOrderIncludingNestedOnes() throws {
        let response = try FHIRJSON(string: """
            {"resourceType": "QuestionnaireResponse", "item": [
              {"linkId": "a", "answer": [{"valueInteger": 1, "item": [{"linkId": "a.1", "answer": [{"valueInteger": 2}]}]}],
               "item": [{"linkId": "a.2", "answer": [{"valueInteger": 3}]}]},
              {"linkId": "b", "item": [{"linkId": "b.1", "answer": [{"valueInteger": 4}, {"valueInteger": 5}]}]}]}
            """)
        #expect(try evaluate("answers().value", on: response).map(\.json) == [1, 2, 3, 4, 5].map { .integer($0) })
        #expect(try evaluate("answers().value.sum()", on: response) == [.integer(15)])
        #expect(try evaluate("item.where(linkId = 'b').answers().value.sum()", on: response) == [.integer(9)])
        // The item's own answers count too (SDC: descendants() that are answers).
        #expect(try evaluate("item.first().answers().count()", on: response) == [.integer(3)])
        // Integers have no ordinal value (SDC: only code and Coding do), so they add nothing to a score.
        #expect(try evaluate("answers().value.ordinal()", on: response) == [])
    }

    @Test(.enabled(if: HL7Fixtures.arePresent, HL7Fixtures.absent)) func ordinalNeedsTheQuestionnaireAndItsItems() throws {
        let response = try fixture("sdc-phq9-response.json")
        let missing = failure(Self.scoreExpression, on: response)
        #expect(missing?.kind == .evaluation)
        #expect(missing?.message.contains("%questionnaire") == true)
        let otherQuestionnaire = try FHIRJSON(string: #"{"resourceType": "Questionnaire", "item": [{"linkId": "x"}]}"#)
        let unknownItem = failure(Self.scoreExpression, on: response, ["questionnaire": [.resource(otherQuestionnaire)]])
        #expect(unknownItem?.message.contains("no item with linkId 'H1/T1/Q1'") == true)
        let external = try FHIRJSON(string: """
            {"resourceType": "Questionnaire", "item": [{"linkId": "H1/T1", "item": [
              {"linkId": "H1/T1/Q1", "answerValueSet": "http://example.org/ValueSet/elsewhere"}]}]}
            """)
        let unresolved = failure("%resource.item.item.first().answer.value.ordinal()", on: response, ["questionnaire": [.resource(external)]])
        #expect(unresolved?.message.contains("http://example.org/ValueSet/elsewhere") == true)
    }

    @Test func ordinalReadsAnswerOptionsItemWeightAndTheCodingsOwnExtension() throws {
        let questionnaire = try FHIRJSON(string: """
            {"resourceType": "Questionnaire", "contained": [{"resourceType": "CodeSystem", "url": "http://example.org/cs",
               "concept": [{"code": "z", "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 7}]}]}],
             "item": [{"linkId": "q", "answerOption": [
              {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 1.5}],
               "valueCoding": {"system": "http://example.org/cs", "code": "a"}},
              {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/itemWeight", "valueDecimal": 4}],
               "valueCoding": {"system": "http://example.org/cs", "code": "b"}},
              {"valueCoding": {"system": "http://example.org/cs", "code": "c"}},
              {"valueCoding": {"system": "http://example.org/cs", "code": "z"}}]}]}
            """)
        let response = try FHIRJSON(string: """
            {"resourceType": "QuestionnaireResponse", "item": [{"linkId": "q", "answer": [
              {"valueCoding": {"system": "http://example.org/cs", "code": "a"}},
              {"valueCoding": {"system": "http://example.org/cs", "code": "b"}},
              {"valueCoding": {"system": "http://example.org/cs", "code": "c"}},
              {"valueCoding": {"system": "http://example.org/other", "code": "a"}},
              {"valueCoding": {"system": "http://example.org/cs", "code": "z"}},
              {"valueCoding": {"code": "own", "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 9}]}}]}]}
            """)
        let environment: [String: FHIRPathCollection] = ["questionnaire": [.resource(questionnaire)]]
        // a: the option's ordinalValue; b: itemWeight; c: no score anywhere; other system: no match; z: the
        // contained CodeSystem; own: the Coding's own extension.
        #expect(try evaluate("answers().value.ordinal()", on: response, environment) == ["1.5", "4", "7", "9"].map(decimal))
        #expect(try evaluate("answers().value.weight().sum()", on: response, environment) == [decimal("21.5")])
    }
}

@Suite("FHIRPath: the functions SDC forms compute with")
struct FHIRPathLibraryTests {
    @Test func exponentsAndLogarithms() throws {
        #expect(try evaluate("81.sqrt()") == [decimal("9")])
        #expect(try evaluate("(-1).sqrt()").isEmpty)
        #expect(try evaluate("2.power(10)") == [.integer(1024)])
        #expect(try evaluate("2.power(0.5)") == [decimal("1.4142135623731")])
        #expect(try evaluate("(-8).power(0.5)").isEmpty)
        #expect(try evaluate("1.exp().round(5)") == [decimal("2.71828")])
        #expect(try evaluate("100.log(10)") == [decimal("2")])
        #expect(try evaluate("0.ln()").isEmpty)
        #expect(failure("'a'.sqrt()")?.kind == .type)
        // A body-mass index as SDC forms compute it.
        #expect(try evaluate("(72.5 / 1.78.power(2)).round(1)") == [decimal("22.9")])
    }

    @Test func textFunctions() throws {
        #expect(try evaluate("'a,b,,c'.split(',')") == ["a", "b", "", "c"].map { .string($0) })
        #expect(try evaluate("('a' | 'b' | 'c').join('-')") == [.string("a-b-c")])
        #expect(try evaluate("'test'.encode('base64') + 'dGVzdA=='.decode('base64') + 'test'.encode('hex')") == [.string("dGVzdA==test74657374")])
        #expect(try evaluate("'subjects?_d'.encode('urlbase64')") == [.string("c3ViamVjdHM_X2Q=")])
        #expect(try evaluate(#"'<a href="x">'.escape('html')"#) == [.string("&lt;a href=&quot;x&quot;&gt;")])
        #expect(try evaluate(#"'&lt;b&gt;'.unescape('html')"#) == [.string("<b>")])
        #expect(try evaluate(#"'say "hi"'.escape('json')"#) == [.string(#"say \"hi\""#)])
        #expect(try evaluate("'2024-03-05'.replaceMatches('(\\\\d+)-(\\\\d+)-(\\\\d+)', '$3/$2/$1')") == [.string("05/03/2024")])
        #expect(failure("'x'.encode('rot13')")?.kind == .invalidArguments)
        #expect(try evaluate("(1 | 2).subsetOf(1 | 2 | 3) and (1 | 2 | 3).supersetOf(3)") == [.boolean(true)])
    }

    @Test func conversionsAndTheirTests() throws {
        #expect(try evaluate("'1 day'.toQuantity() = 1 day and '4.5 \\'mg\\''.toQuantity() = 4.5 'mg'") == [.boolean(true)])
        #expect(try evaluate("'1 wk'.convertsToQuantity() or 'x'.convertsToInteger() or '2015-02-30x'.convertsToDate()") == [.boolean(false)])
        #expect(try evaluate("'2015-02'.toDate() = @2015-02 and '14:30'.toTime() = @T14:30 and '2015-02-04T14:34'.convertsToDateTime()") == [.boolean(true)])
        #expect(try evaluate("@2015-02-04T14:34:28Z.toDate()") == [.date(FHIRPathTemporal.date("2015-02-04")!)])
    }

    @Test func quantitiesInDifferentUnitsCompareAddAndMultiply() throws {
        #expect(try evaluate("4 'g' = 4000 'mg' and 7 days = 1 'wk' and 6 days < 1 week and 185 '[lb_av]' > 80 'kg'") == [.boolean(true)])
        #expect(try evaluate("10 'mg/dL' = 100 'mg/L' and 120 'mm[Hg]' > 15 'kPa' and 5 '10*3/uL' = 5000 '/uL'") == [.boolean(true)])
        #expect(try evaluate("4 'g' ~ 4040 'mg' and 4 'g' != 4040 'mg'") == [.boolean(true)])
        // A calendar year is not a fixed number of days or months: no answer.
        #expect(try evaluate("1 year = 12 months").isEmpty)
        #expect(try evaluate("1 year = 1 year") == [.boolean(true)])
        #expect(try evaluate("2 '[pH]' = 2 'm'").isEmpty)
        #expect(try evaluate("1 'h' + 30 'min'") == [.quantity(FHIRPathQuantity(value: Decimal(string: "1.5")!, unit: "h"))])
        #expect(try evaluate("2.0 'cm' * 2.0 'm' = 0.040 'm2' and 4.0 'g' / 2.0 'm' = 2 'g/m' and 1.0 'm' / 1.0 'm' = 1 '1'") == [.boolean(true)])
        #expect(try evaluate("1 week.toString()") == [.string("1 'week'")])
    }

    @Test func todayAndNowAreTheParticipantsDayAcrossTheDateLineAndDaylightSaving() throws {
        // 12:00 UTC on 28 March 2026 is already 29 March at 02:00 in Kiritimati (UTC+14).
        let kiritimati = FHIRPathInstant(date: Date(timeIntervalSince1970: 1_774_699_200), timeZone: TimeZone(identifier: "Pacific/Kiritimati")!)
        #expect(try FHIRPathExpression("today()").evaluate(on: .object(FHIRJSONObject()), now: kiritimati) == [.date(FHIRPathTemporal.date("2026-03-29")!)])
        // 01:30 UTC on 29 March 2026 is half an hour after Berlin moved to summer time (UTC+2).
        let berlin = FHIRPathInstant(date: Date(timeIntervalSince1970: 1_774_747_800), timeZone: TimeZone(identifier: "Europe/Berlin")!)
        #expect(try FHIRPathExpression("now()").evaluate(on: .object(FHIRJSONObject()), now: berlin)
                == [.dateTime(FHIRPathTemporal.dateTime("2026-03-29T03:30:00.000+02:00")!)])
        #expect(try FHIRPathExpression("timeOfDay() = @T03:30:00.000 and now() = @2026-03-29T01:30:00.000Z").evaluate(on: .object(FHIRJSONObject()), now: berlin)
                == [.boolean(true)])
        // An age from a birth date, as a form's calculated item computes it.
        let patient = try FHIRJSON(string: #"{"resourceType": "Patient", "birthDate": "2000-03-29"}"#)
        #expect(try FHIRPathExpression("Patient.birthDate <= today() - 26 years").evaluate(on: patient, now: kiritimati) == [.boolean(true)])
    }

    @Test func elementTypesComeFromTheR4Model() throws {
        let patient = try FHIRJSON(string: #"""
        {"resourceType": "Patient", "active": true, "gender": "female", "birthDate": "1974-12-25",
         "_birthDate": {"extension": [{"url": "http://hl7.org/fhir/StructureDefinition/patient-birthTime", "valueDateTime": "1974-12-25T14:35:45-05:00"}]},
         "name": [{"given": ["Ann", "Jo"], "_given": [null, {"extension": [{"url": "http://example.org/nickname", "valueBoolean": true}]}]}],
         "contact": [{"gender": "male", "period": {"start": "2020-01-01"}}]}
        """#)
        func run(_ text: String) throws -> FHIRPathCollection { try FHIRPathExpression(text).evaluate(on: patient) }
        #expect(try run("Patient.birthDate < @2000-01-01 and Patient.birthDate.is(FHIR.date)") == [.boolean(true)])
        #expect(try run("Patient.active.is(FHIR.boolean) and Patient.active.is(System.Boolean).not() and Patient.gender.type().name = 'code'") == [.boolean(true)])
        #expect(try run("Patient.contact.gender.is(code) and Patient.contact.period.start > @2019") == [.boolean(true)])
        #expect(try run("Patient.birthDate.extension(%`ext-patient-birthTime`).value.toString()") == [.string("1974-12-25T14:35:45-05:00")])
        #expect(try run("Patient.name.given.where(extension('http://example.org/nickname').exists())").map(\.json) == [.string("Jo")])
        #expect(try run("%`vs-administrative-gender`") == [.string("http://hl7.org/fhir/ValueSet/administrative-gender")])
    }
}
