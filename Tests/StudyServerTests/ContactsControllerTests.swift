import CareStore
import Foundation
@testable import StudyServer
import Testing

@Suite("Contacts")
struct ContactsControllerTests {
    @Test func numbersBecomeDialableAndNamesFollowTheirScript() {
        #expect(ReachLinks.dialable("+1 (555) 010-0") == "+15550100")
        #expect(ReachLinks.dialable("03-1234-5678") == "0312345678")
        #expect(ReachLinks.dialable("+81 ３ 1234") == "+811234", "full-width digits are not dialled")
        #expect(ReachLinks.dialable("javascript:alert(1)") == "1")
        var name = PersonNameComponents()
        name.givenName = "太郎"
        name.familyName = "山田"
        #expect(ContactsController.displayName(name) == "山田太郎")
        name.givenName = "Jamie"
        name.familyName = "Lee"
        #expect(ContactsController.displayName(name) == "Jamie Lee")
        name.familyName = nil
        #expect(ContactsController.displayName(name) == "Jamie")
    }

    @Test func aContactGetsCallMessageEmailAndMapLinksInThatOrder() {
        var name = PersonNameComponents()
        name.givenName = "Jamie"
        name.familyName = "Lee"
        let contact = Contact(id: "p1/physio", name: name, title: "Physiotherapist",
                              address: PostalAddress(street: "1 Clinic Road", city: "Springfield", postalCode: "01234", country: "US"),
                              emailAddresses: [LabeledValue(label: "work", value: "a&b@example.org")],
                              phoneNumbers: [LabeledValue(label: "work", value: "+1 555 0100")],
                              messagingNumbers: [LabeledValue(label: "mobile", value: "+1 555 0101")], effectiveDate: Date(timeIntervalSince1970: 0))
        let shown = ContactsController.contact(contact, studyID: "physio")
        #expect(shown.links.map(\.href) == ["tel:+15550100", "sms:+15550101", "mailto:a%26b@example.org",
                                            "https://www.openstreetmap.org/search?query=1%20Clinic%20Road,%2001234%20Springfield,%20US"])
        #expect(shown.links.map(\.detail) == ["work: +1 555 0100", "mobile: +1 555 0101", "work: a&b@example.org",
                                              "1 Clinic Road, 01234 Springfield, US"])
        #expect(shown.url == "/contacts/physio")
        #expect(shown.addressLines == ["1 Clinic Road", "01234 Springfield", "US"])
    }
}
