import CareStore
import Consent
import Foundation
import Hummingbird
import Study
import StudyWeb

/// The study team's contacts in the participant's care plan, open before the onboarding too: a person deciding
/// whether to consent may want to ask the team first.
///
/// | Route | What it does |
/// |---|---|
/// | `GET /contacts` | every contact with links to call, message and email |
/// | `GET /contacts/ID` | one contact, with their organization and address and a link to a map of it |
/// | `GET /articles/ID` | a featured card's article |
struct ContactsController {
    /// A participant page's frame, the study's articles and the workflow's contacts are all these routes use.
    let service: any ParticipantPageService

    func addRoutes(to group: RouterGroup<ParticipantRequestContext>) {
        group.get("/contacts") { _, context in
            StudyRouter.html(try await page(for: context, only: nil))
        }
        group.get("/contacts/:contact") { _, context in
            StudyRouter.html(try await page(for: context, only: try context.parameters.require("contact")))
        }
        // A featured card's article: the study's Markdown made safe (raw HTML in it is shown as text).
        group.get("/articles/:article") { _, context in
            let id = try context.parameters.require("article")
            guard let card = service.study.localized(context.participant.language).feed.first(where: { $0.id == id }),
                  case .featured(let markdown) = card.content else {
                throw StudyServerError.noSuchPage
            }
            let page = ArticlePage(title: card.title, imageURL: card.image.map(AssetController.imageURL),
                                   html: SafeMarkdown.html(from: markdown, headingOffset: 1))
            return StudyRouter.html(service.sitePages.article(page, context: service.siteContext(language: context.participant.language,
                                                                                                signedIn: context.signedIn)))
        }
    }

    private func page(for context: ParticipantRequestContext, only id: String?) async throws -> String {
        let participant = context.participant
        var contacts = try await service.workflow.contacts(for: participant)
        if let id {
            contacts = contacts.filter { $0.studyID == id }
            guard !contacts.isEmpty else { throw StudyServerError.noSuchPage }
        }
        let page = ContactsPage(contacts: contacts.map { Self.contact($0.contact, studyID: $0.studyID) }, isDetail: id != nil)
        return service.sitePages.contacts(page, context: service.siteContext(language: participant.language, signedIn: context.signedIn))
    }

    /// A stored contact as the page shows it: the name as it is written, and its links.
    static func contact(_ contact: Contact, studyID: String) -> ContactsPage.Contact {
        var links: [ReachLink] = []
        links += contact.phoneNumbers.map { ReachLinks.call($0.value, detail: "\($0.label): \($0.value)") }
        links += contact.messagingNumbers.map { ReachLinks.message($0.value, detail: "\($0.label): \($0.value)") }
        links += contact.emailAddresses.map { ReachLinks.email($0.value, detail: "\($0.label): \($0.value)") }
        let lines = contact.address.map(addressLines) ?? []
        if !lines.isEmpty {
            let text = lines.joined(separator: ", ")
            links.append(ReachLinks.map(text, detail: text))
        }
        return ContactsPage.Contact(name: displayName(contact.name), title: contact.title, role: contact.role,
                                    organization: contact.organization,
                                    url: "/contacts/" + URLPath.encoded(studyID),
                                    addressLines: lines, links: links)
    }

    /// A name as its script writes it: family name first without a space for a Chinese, Japanese or Korean family
    /// name ("山田太郎"), else given name first ("Jamie Lee"). Foundation's name formatter is not on Linux.
    static func displayName(_ name: PersonNameComponents) -> String {
        let given = name.givenName ?? "", family = name.familyName ?? ""
        let eastAsian = family.unicodeScalars.contains { scalar in
            (0x3040...0x30FF).contains(scalar.value) || (0x3400...0x9FFF).contains(scalar.value) || (0xAC00...0xD7AF).contains(scalar.value)
        }
        return eastAsian ? family + given : [given, family].filter { !$0.isEmpty }.joined(separator: " ")
    }

    private static func addressLines(_ address: PostalAddress) -> [String] {
        let place = [address.postalCode, address.city, address.state].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return [address.street, place, address.country].compactMap { $0 }.filter { !$0.isEmpty }
    }
}
