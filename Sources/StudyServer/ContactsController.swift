import CareStore
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
struct ContactsController {
    let service: StudyService

    func addRoutes(to group: RouterGroup<ParticipantRequestContext>) {
        group.get("/contacts") { _, context in
            StudyRouter.html(try await page(for: context, only: nil))
        }
        group.get("/contacts/:contact") { _, context in
            StudyRouter.html(try await page(for: context, only: try context.parameters.require("contact")))
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
        var links: [ContactsPage.Link] = []
        links += contact.phoneNumbers.map { ContactsPage.Link(kind: .call, href: "tel:" + dialable($0.value), detail: "\($0.label): \($0.value)") }
        links += contact.messagingNumbers.map { ContactsPage.Link(kind: .message, href: "sms:" + dialable($0.value), detail: "\($0.label): \($0.value)") }
        links += contact.emailAddresses.map { email in
            ContactsPage.Link(kind: .email, href: "mailto:" + (email.value.addingPercentEncoding(withAllowedCharacters: mailbox) ?? email.value),
                              detail: "\(email.label): \(email.value)")
        }
        let lines = contact.address.map(addressLines) ?? []
        if !lines.isEmpty {
            var query = CharacterSet.urlQueryAllowed
            query.remove(charactersIn: "&=+?#")
            let text = lines.joined(separator: ", ")
            links.append(ContactsPage.Link(kind: .map, href: "https://www.openstreetmap.org/search?query="
                                           + (text.addingPercentEncoding(withAllowedCharacters: query) ?? ""), detail: text))
        }
        return ContactsPage.Contact(name: displayName(contact.name), title: contact.title, role: contact.role,
                                    organization: contact.organization,
                                    url: "/contacts/" + (studyID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? studyID),
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

    /// A telephone number as a `tel:` or `sms:` URL takes it: digits and a leading `+`, nothing else.
    static func dialable(_ number: String) -> String {
        let digits = number.filter { $0.isASCII && $0.isNumber }
        return (number.trimmingCharacters(in: .whitespaces).hasPrefix("+") ? "+" : "") + digits
    }

    /// What an address may hold unescaped in a `mailto:` URL.
    private static let mailbox = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "@.-_+"))

    private static func addressLines(_ address: PostalAddress) -> [String] {
        let place = [address.postalCode, address.city, address.state].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return [address.street, place, address.country].compactMap { $0 }.filter { !$0.isEmpty }
    }
}
