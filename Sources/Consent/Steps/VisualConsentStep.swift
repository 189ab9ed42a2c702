import Foundation
import Research

/// The visual consent sequence: one instruction page per section that is not
/// ``ConsentSectionType/onlyInDocument``, with the section's title, summary, image and a "learn more" link
/// to its content.
///
/// Pages are identified `<identifier>.<section type>` (`visualConsent.privacy`), or `<identifier>.<index>` with
/// the section's index in the document when its type is ``ConsentSectionType/custom`` or appears more than once.
///
/// JSON in a task's steps: `{"type": "visualConsent", "identifier": "visualConsent"}`.
public struct VisualConsentStep: Hashable, Sendable {
    /// Names the sequence in the task; the pages' identifiers start with it.
    public var identifier: String

    /// Creates the visual consent sequence `identifier`.
    public init(identifier: String) { self.identifier = identifier }

    /// The faults that keep the sequence from being built for `document`, with paths inside the step object.
    public func problems(for document: ConsentDocument) -> [ConsentDefinitionError] {
        var problems: [ConsentDefinitionError] = []
        if identifier.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append(ConsentDefinitionError(path: "identifier", message: "must not be empty"))
        }
        if document.visualSections.isEmpty {
            problems.append(ConsentDefinitionError(path: "", message:
                "document '\(document.identifier)' has no section for the visual consent sequence (every section is onlyInDocument)"))
        }
        return problems
    }

    /// The identifier of each page, in order, paired with the section it shows.
    public func pages(for document: ConsentDocument) -> [(identifier: String, section: ConsentSection)] {
        let visual = document.sections.enumerated().filter { $0.element.type.appearsInVisualConsent }
        var counts: [ConsentSectionType: Int] = [:]
        for (_, section) in visual { counts[section.type, default: 0] += 1 }
        return visual.map { index, section in
            let suffix = section.type.isPredefined && counts[section.type] == 1 ? section.type.rawValue : String(index)
            return ("\(identifier).\(suffix)", section)
        }
    }

    /// The instruction steps of the sequence; throws ``ConsentValidationFailure`` with ``problems(for:)``.
    public func steps(for document: ConsentDocument, context: ConsentContext) throws(ConsentValidationFailure) -> [Step] {
        let problems = problems(for: document)
        guard problems.isEmpty else { throw ConsentValidationFailure(problems: problems) }
        let language = context.language(for: document)
        return pages(for: document).map { identifier, section in
            let title = section.displayTitle(language: language, strings: context.strings)
            let learnMore = section.learnMore.map { content in
                LearnMoreItem(linkText: context.strings.string(section.type.learnMoreKey, language: language), title: title,
                              text: content.plainText, html: content.html)
            }
            return Step(identifier: identifier, kind: .instruction, title: title, text: section.summary, isOptional: false,
                        image: section.customImage, learnMore: learnMore)
        }
    }
}

extension VisualConsentStep: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case identifier }
}
