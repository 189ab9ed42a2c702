import Foundation
import Research
import Testing
@testable import Consent

@Suite struct ConsentDocumentValidatorTests {
    func problems(_ json: String) -> [ConsentDefinitionError] {
        do {
            _ = try ConsentDocumentValidator.load(Data(json.utf8))
            return []
        } catch {
            return error.problems
        }
    }

    func message(_ problems: [ConsentDefinitionError], at path: String) -> String? {
        problems.first { $0.path == path }?.message
    }

    @Test func loadsTheRecoverDocument() throws {
        let document = try ConsentFixtures.recover()
        #expect(document.identifier == "recover-consent")
        #expect(document.sections.count == 6)
        #expect(document.sections[1].content == .markdown("## What we collect\n\n- Knee range of motion\n- *Daily* pain ratings\n- Steps from your phone"))
        #expect(document.sections[2].content == .html("<p>Your name is stored <strong>apart</strong> from your answers.</p>"))
        #expect(document.sections[2].learnMoreContent == .plainText("Only the study team can link codes to names."))
        #expect(document.signatures[1].signedDate == Date(timeIntervalSince1970: 1_774_688_400))
        #expect(document.signatures[0].requiresName && document.signatures[0].requiresSignatureImage)
        #expect(ConsentDocumentValidator.problems(in: document).isEmpty)
    }

    @Test func survivesAJSONRoundTrip() throws {
        let document = try ConsentFixtures.recover()
        let data = try ResearchJSON.encoder().encode(document)
        #expect(try ConsentDocumentValidator.load(data) == document)
    }

    @Test func malformedJSONNamesLineAndColumn() {
        let found = problems("{\n  \"identifier\": \"x\",\n  \"version\": ,\n}")
        #expect(found.count == 1)
        #expect(found.first?.message.contains("line 3") == true, "\(found)")
    }

    @Test func reportsEveryProblemWithItsPath() {
        let json = #"""
        {
          "identifier": "c", "version": "1", "title": "T", "langauge": "ja",
          "sections": [
            { "type": "custom", "summary": "no title" },
            { "type": "privacy", "content": "text", "markdownContent": "*md*" },
            { "type": "dataUse" },
            { "type": "legal", "summary": "x" },
            { "type": "overview", "sumary": "typo", "content": "ok" },
            { "type": "onlyInDocument", "content": "only here" }
          ],
          "signatures": [
            { "identifier": "participant", "meaning": "consent to participate" },
            { "identifier": "participant", "meaning": "" },
            { "identifier": "investigator" }
          ]
        }
        """#
        let found = problems(json)
        #expect(message(found, at: "langauge")?.contains("did you mean 'language'") == true, "\(found)")
        #expect(message(found, at: "sections[4].sumary")?.contains("did you mean 'summary'") == true)
        #expect(message(found, at: "sections[1].markdownContent")?.contains("only one of") == true)
        #expect(found.contains { $0.path == "sections[3].type" })
        #expect(message(found, at: "signatures[2].meaning") == "is required but missing")
        // The decoding faults above stop the semantic checks; fix them to see those.
        let fixed = json.replacingOccurrences(of: #", "markdownContent": "*md*""#, with: "")
            .replacingOccurrences(of: "\"legal\"", with: "\"withdrawing\"")
            .replacingOccurrences(of: #"{ "identifier": "investigator" }"#, with: #"{ "identifier": "investigator", "meaning": "investigator countersignature" }"#)
        let semantic = problems(fixed)
        #expect(message(semantic, at: "sections[0].title")?.contains("custom section needs a title") == true, "\(semantic)")
        #expect(message(semantic, at: "sections[2]")?.contains("empty") == true)
        #expect(message(semantic, at: "sections[5].title")?.contains("onlyInDocument section needs a title") == true)
        #expect(message(semantic, at: "signatures[1].identifier")?.contains("duplicate signature identifier 'participant' (also signatures[0])") == true)
        #expect(message(semantic, at: "signatures[1].meaning") != nil)
        #expect(message(semantic, at: "langauge") != nil)
    }

    @Test func anEmptyDocumentIsAProblem() {
        let found = problems(#"{"identifier": " ", "version": "1", "title": "T", "sections": []}"#)
        #expect(message(found, at: "sections") == "a consent document needs at least one section")
        #expect(message(found, at: "identifier") == "must not be empty")
    }

    @Test func checksPrefilledDrawingsAndLanguage() {
        let json = #"""
        {"identifier": "c", "version": "1", "title": "T", "language": "japanese",
         "sections": [{"type": "overview", "summary": "s"}],
         "signatures": [{"identifier": "i", "meaning": "m", "signature": {"width": 10, "height": 10, "strokes": [[{"x": 50, "y": 1, "t": 0, "z": 1}]]}}]}
        """#
        let found = problems(json)
        #expect(found.contains { $0.path == "language" })
        #expect(found.contains { $0.path == "signatures[0].signature.strokes[0]" })
        #expect(message(found, at: "signatures[0].signature.strokes[0][0].z")?.hasPrefix("unknown key") == true, "\(found)")
    }
}

@Suite struct ConsentDocumentTests {
    @Test func applyingASignatureLeavesTheOriginalUnchanged() throws {
        let original = try ConsentFixtures.recover()
        let drawing = ConsentFixtures.drawing()
        let date = Date(timeIntervalSince1970: 1_774_771_200)
        let result = ConsentSignatureResult(signatureIdentifier: "participant", givenName: "Taro", familyName: "Yamada",
                                            signature: drawing, signedDate: date, consented: true)
        let signed = try original.applying(result)
        #expect(signed.signatures[0].givenName == "Taro")
        #expect(signed.signatures[0].familyName == "Yamada")
        #expect(signed.signatures[0].signature == drawing)
        #expect(signed.signatures[0].signedDate == date)
        #expect(signed.signatures[1] == original.signatures[1])
        #expect(original.signatures[0].givenName == nil)
        #expect(original.signatures[0].signature == nil)
        #expect(!original.signatures[0].isFilledIn)
        #expect(original == (try ConsentFixtures.recover()))
    }

    @Test func applyingAnUnknownSignatureNamesIt() throws {
        let document = try ConsentFixtures.recover()
        #expect(throws: ConsentSignatureError.unknownSignature("witness", known: ["participant", "investigator"])) {
            _ = try document.applying(ConsentSignatureResult(signatureIdentifier: "witness", consented: true))
        }
        let error = ConsentSignatureError.unknownSignature("witness", known: ["participant", "investigator"])
        #expect(error.description.contains("'witness'"))
        #expect(throws: ConsentSignatureError.notConsented("participant")) {
            _ = try document.applying(ConsentSignatureResult(signatureIdentifier: "participant", consented: false))
        }
    }
}
