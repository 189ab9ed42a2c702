/// The name of one built-in consent string. In JSON string tables the key is the raw value, such as `"agree"`.
public enum ConsentStringKey: String, Hashable, Sendable, Codable, CaseIterable {
    /// Default title of an ``ConsentSectionType/overview`` section ("Welcome").
    case sectionOverview
    /// Default title of a ``ConsentSectionType/dataGathering`` section.
    case sectionDataGathering
    /// Default title of a ``ConsentSectionType/privacy`` section.
    case sectionPrivacy
    /// Default title of a ``ConsentSectionType/dataUse`` section.
    case sectionDataUse
    /// Default title of a ``ConsentSectionType/timeCommitment`` section.
    case sectionTimeCommitment
    /// Default title of a ``ConsentSectionType/studySurvey`` section.
    case sectionStudySurvey
    /// Default title of a ``ConsentSectionType/studyTasks`` section.
    case sectionStudyTasks
    /// Default title of a ``ConsentSectionType/withdrawing`` section.
    case sectionWithdrawing

    /// The generic "Learn more" link text.
    case learnMore
    /// The "learn more" link of an overview page.
    case learnMoreOverview
    /// The "learn more" link of a data-gathering page.
    case learnMoreDataGathering
    /// The "learn more" link of a privacy page.
    case learnMorePrivacy
    /// The "learn more" link of a data-use page.
    case learnMoreDataUse
    /// The "learn more" link of a time-commitment page.
    case learnMoreTimeCommitment
    /// The "learn more" link of a study-survey page.
    case learnMoreStudySurvey
    /// The "learn more" link of a study-tasks page.
    case learnMoreStudyTasks
    /// The "learn more" link of a withdrawing page.
    case learnMoreWithdrawing

    /// The button that accepts the reviewed document.
    case agree
    /// The button that declines the reviewed document and ends the task.
    case disagree
    /// The title of the review step.
    case reviewTitle
    /// The instruction above the reviewed document.
    case reviewInstruction
    /// The title of the confirmation that shows the study's reason for consent (the signature step's title).
    case reasonForConsentTitle

    /// The title of the sharing step.
    case sharingTitle
    /// The sharing step's explanation; `%@` is the investigator's long description.
    case sharingText
    /// The choice to share widely; `%@` is the investigator's short description.
    case sharingShareWidely
    /// The choice to share only with the investigators; `%@` is the investigator's short description.
    case sharingInvestigatorsOnly

    /// The title of the name step.
    case nameStepTitle
    /// The text of the name step.
    case nameStepText
    /// The label of the given-name field.
    case givenName
    /// The label of the family-name field.
    case familyName

    /// The text under the signature step's title, saying how to sign.
    case signatureStepText
    /// The text under the signature line.
    case signatureLine
    /// "Signature": the signature step's title when there is no reason for consent, and a label on the signature page.
    case signatureLabel
    /// "Date": the label of the signing date on the signature page.
    case dateLabel
    /// "Printed name": the label of the signer's name on the signature page.
    case printedNameLabel
    /// Label before the meaning of a signature on the signature page ("consent to participate").
    case meaningLabel
    /// The default title of the signature page.
    case signaturePageTitle

    /// PDF footer label before the study's or document's title.
    case footerStudy
    /// PDF footer label before the document version.
    case footerVersion
    /// PDF footer label before the participant's name.
    case footerParticipant
    /// PDF footer label before the signing time.
    case footerSigned
    /// PDF footer page counter; `%1$@` is the page number and `%2$@` the page count.
    case footerPage
}
