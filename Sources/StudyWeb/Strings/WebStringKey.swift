/// The built-in strings of the participant pages. Every built-in language has a text for every key
/// (a test checks it); a study may override any of them, and add keys of its own, per language.
///
/// Texts may hold named placeholders in braces, filled by ``WebStrings/format(_:_:)``: `Step {current} of {total}`.
public enum WebStringKey: String, CaseIterable, Sendable {
    /// Buttons: Next, Back, Skip, Done, the early-termination fallback text, Clear and Edit.
    case next, back, skip, done, end, clear, edit
    /// "Step {current} of {total}".
    case stepProgress
    /// The default text of a learn-more panel's summary.
    case learnMore
    /// The signature pad's label, instructions, and the message shown when the pad cannot run.
    case signHere, signatureInstructions, signatureNeedsScript
    /// The typed-name alternative to drawing, and the note shown once a signature is stored.
    case typeNameInstead, signed
    /// Marks a question that must be answered.
    case required
    /// Error messages the web runner adds to Research's own validation messages.
    case answerRequired, signatureRequired, chooseEveryList, notAChoice
    /// The heading of the error summary, and the word put before the page title when there are errors.
    case errorSummaryTitle, errorTitlePrefix
    /// Answer texts used when a format gives none: "I don't know", "Other", "Yes", "No".
    case dontKnow, other, yes, no
    /// The empty first entry of a drop-down list.
    case chooseFromList
    /// Hints: choose one, choose any, numeric ranges, text length, the unit of a number.
    case chooseOne, chooseAny, hintRange, hintAtLeast, hintAtMost, hintMaxLength, hintUnit
    /// A file question's limits ("{size}" and "{types}") and the file already attached ("{name}", "{size}").
    case hintFileSize, hintFileTypes, fileAttached
    /// Field labels of composite answers: height, weight and durations in their units.
    case centimetres, kilograms, feet, inches, pounds, ounces, hours, minutes
    /// Field labels of a location answer, and the button that fills in the device's position.
    case address, latitude, longitude, useMyLocation
    /// The label of each list of a multiple value picker: "List {index} of {count}".
    case pickerList
    /// The labels of the top and bottom of the social status ladder when the format gives none.
    case ladderTop, ladderBottom
    /// A request-permissions step's two answers.
    case allow, doNotAllow
    /// A request-permissions step's reminder email address: the hint under its field, and the note when the participant
    /// gave one on an earlier visit of the step.
    case permissionEmailHint, permissionEmailGiven
    /// A review step's notes for unanswered and skipped steps, and its heading for a signature.
    case notAnswered, skipped, signature
    /// An age answer as a review shows it ("{age} years"; the singular for 1), and a ladder's rung ("{rung} of {rungs}").
    case answerAge, answerAgeOne, answerRung
    /// Shown in place of a calculated value (a score) that could not be computed.
    case calculationFailed
    /// A wait step's message.
    case pleaseWait
    /// A link to open a video step's video directly.
    case openVideo
    /// An active step's text without JavaScript, its stop button, its countdown ("{seconds}"), its time left
    /// ("{seconds}"), a tapping button's label, and its note while the result is sent.
    case activeNeedsScript, activeStop, activeStartsIn, activeSecondsLeft, activeTap, activeSending
    /// A reaction time step's hold button, and its progress ("{current}", "{total}").
    case activeHold, activeTrial
    /// A range-of-motion step's prompts, and what it says when the browser gives no motion readings.
    case motionTouchToStart, motionTouchToFinish, motionDenied, motionAbsent, motionNoReadings
    /// A shake reaction time step's notes after a shake before the circle, and after no shake in time.
    case shakeTooEarly, shakeTooSlow
    /// The colours of a Stroop step, as its words and buttons name them.
    case colorRed, colorGreen, colorBlue, colorYellow
    /// A spatial span step's two phases: the sequence playing, and the participant's turn.
    case activeWatch, activeYourTurn
    /// The six letters of trail making's part B, in order and separated by spaces (`A B C D E F`).
    case trailLetters
    /// A Tower of Hanoi tower's label ("{number}", "{disks}") and the count of moves ("{count}").
    case hanoiTower, hanoiMoves
    /// The Amsler grid's description for screen readers.
    case amslerGrid
    /// A hole peg step's count of pegs done ("{done}", "{total}").
    case pegsDone
    /// The completion step's heading over an active task's measures, its note for a test stopped early, and the
    /// text of a measure without a value.
    case activeResults, activeIncomplete, measureNone
    /// The names of the measures, each `measure` and the measure's identifier with a capital (`measureTapCount`).
    case measureTapCount, measureOffTargetCount, measureAccuracy, measureMeanInterval, measureIntervalSD
    case measureHits, measureAnticipations, measureMisses, measureTimeouts, measureMeanReactionTime, measureMedianReactionTime, measureMeanMovementTime
    case measureCorrect, measureMeanCongruentTime, measureMeanIncongruentTime, measureInterference
    case measureScore, measureMaximumSpan, measureNumberOfGames, measureNumberOfFailures
    case measureTotalTime, measureNumberOfErrors
    case measureNumberOfMoves, measureExtraMoves
    case measureStart, measureFinish, measureMinimum, measureMaximum, measureRange
    case measureTotalCorrect, measureTotalDyad, measureMeanTime
    case measureMarkedArea, measureMarkCount
    case measureTotalSuccesses, measureTotalFailures, measureMeanPegTime, measureTotalDistance
    case measureDominantFrequency, measureAmplitude, measureBandShare
    case measureReactions, measureFalseStarts

    // Site pages (home, settings, join, sign-in, messages).
    /// The link that jumps over the header to the page's content, and the label of the header's navigation.
    case skipToContent, mainNavigation
    /// The navigation links, and the home page's heading.
    case home, settings, today
    /// A task card's state badge: done, still to do, missed, or later today.
    case stateDone, stateToDo, stateMissed, stateLater
    /// A task card's actions: start a survey, continue one left midway, check off a task without a survey.
    case start, resume, markAsDone
    // The week calendar and the cards' controls
    case week, previousWeek, nextWeek, backToToday, ringDone, ringNoTasks, ringNoEvents, ringFuture
    case anyTime, completed, completedAt, logEntry, nothingLogged, deleteEntry, loggedAt, entryAmount, addEntry, goalOf, incomplete
    case nothingThisDay
    // Content cards
    case openWebsite, readArticle
    // The insights page
    case insights, previousMonth, nextMonth, chartDay, chartNumbers, chartLabel, noCharts
    // Taking a survey back
    case undoSurvey, cancel, withdrawTitle, withdrawText, withdrawConfirm
    // The contacts pages
    case contacts, callContact, messageContact, emailContact, mapContact, allContacts, noContacts
    /// The onboarding gate's explanation, shown above the only card until onboarding is complete.
    case onboardingGate
    /// The home page when nothing is scheduled today.
    case nothingToday
    /// The settings heading over the participant's label.
    case participant
    /// The language form's heading and its button.
    case language, saveLanguage
    /// Signing in on another device: heading, explanation, the buttons that make a code, and the code's texts
    /// ("It works once, until {time}.", "On the other device, open {address} and enter this code.").
    case signInElsewhere, signInCodeIntro, getSignInCode, getNewSignInCode, yourSignInCode, signInCodeExpiry, signInCodeInstructions
    /// The settings section listing the browsers signed in: heading, explanation, one browser's dates
    /// ("{signedIn}", "{lastUsed}"), the mark of the browser in use, and the button that signs another one out.
    case browsersHeading, browsersIntro, browserDetails, thisBrowser, signOutBrowser
    /// The signed consent's heading, download link, and the notes while it is printed or when printing failed.
    case signedConsent, consentDownload, consentPending, consentFailed
    /// The settings section where a participant downloads everything the study holds about them.
    case myDataHeading, myDataIntro, myDataDownload
    // Leaving the study: the settings section, its confirmation page, and the page after.
    case leaveHeading, leaveIntro, leaveButton, leaveConfirmTitle, leaveConfirmText, leaveReasonLabel, leaveConfirm
    /// What happens to the data on leaving: the sentence of a study that keeps it or deletes it, or the choice it offers.
    case leaveDataKept, leaveDataDeleted, leaveDataChoice, leaveDataChoiceKeep, leaveDataChoiceDelete, leaveDataChoiceRequired
    case leftTitle, leftNotice
    /// At the top of a page whose study texts may show in the study's first language: "{language}", "{source}".
    case languageFallbackNotice
    /// The join page: "Join {study}", the time-zone field with its hint, and the button.
    case joinTitle, timeZone, timeZoneHint, joinStudy
    /// The sign-in page: heading (and button), explanation, and the code field's label.
    case signIn, signInIntro, signInCode
    /// Reminders: the settings page (which reminders, pause, quiet hours "{from}" "{to}", timings "{time}" "{duration}",
    /// email "{address}" "{problem}", notifications "{date}", calendar), the confirmation and unsubscribe pages, the mails
    /// ("{study}", "{task}", "{link}") and the calendar's name.
    case reminders, remindersIntro, remindersSettingsLink, remindersWhich, remindersTimingAt, remindersTimingAfter, remindersTimingBefore, remindersPause, remindersQuietHours, remindersQuietFrom, remindersQuietTo, remindersSave, remindersSaved, remindersNoChannel, remindersEmailHeading, remindersEmailLabel, remindersEmailAdd, remindersEmailPending, remindersEmailConfirmed, remindersEmailSent, remindersEmailInvalid, remindersEmailUnavailable, remindersEmailTooMany, remindersEmailNotSent, remindersEmailTooOften, remindersRemove, remindersPushHeading, remindersPushIntro, remindersPushEnable, remindersPushNeedsScript, remindersPushUnsupported, remindersPushDenied, remindersPushFailed, remindersPushUnavailable, remindersPushDevice, remindersCalendarHeading, remindersCalendarIntro, remindersCalendarCreate, remindersCalendarSubscribe, remindersCalendarAddress, remindersCalendarRevoke, remindersLinkInvalid, remindersConfirmTitle, remindersConfirmText, remindersConfirmButton, remindersConfirmed, remindersUnsubscribeTitle, remindersUnsubscribeText, remindersUnsubscribeButton, remindersUnsubscribed, mailConfirmSubject, mailConfirmText, mailConfirmIgnore, mailTask, mailOpenTask, mailFooter, mailManage, calendarName
    /// A reminder of the daily page: the tasks still open ("{tasks}"), and its link.
    case mailOpenTasks, mailOpenToday
    /// The sign-in page's error when the code is unknown, used or expired.
    case signInCodeInvalid
    /// The onboarding card's title on the gated home page.
    case onboardingCardTitle
    /// The time of a task that can be done at any time of the day.
    case allDay
    /// Notices on the home page after onboarding, and after a task was done.
    case noticeOnboarded, noticeTaskDone
    /// The heading of a page that explains why a request was refused.
    case errorTitle
    /// Why a request was refused: the text of the page under ``errorTitle``, one per refusal the participant can meet.
    case refusalNotSignedIn, refusalMalformedRequest, refusalFormTooLarge, refusalCrossSite, refusalFormToken, refusalNoSuchPage
    /// Refusals of enrolment, sign-in and settings.
    case refusalInvitationRequired, refusalInvitationUnusable, refusalChooseTimeZone, refusalChooseLanguage, refusalTooManySignIns
    /// Refusals of signing a browser out.
    case refusalThisBrowser, refusalNoSuchBrowser
    /// Refusals of the study's workflow: the onboarding gate, the schedule and runs.
    case refusalOnboardingRequired, refusalOnboardingCompleted, refusalNoSuchTask, refusalNoSuchEvent, refusalEventDone, refusalEventNotDue,
         refusalEventClosed, refusalValueNotAccepted, refusalEventNotDone
    /// Refusals about a task run.
    case refusalNoSuchRun, refusalRunEnded, refusalRunCannotBeResumed, refusalStaleStep
    /// Refusals about the signed consent.
    case refusalConsentCannotBeRecorded, refusalNoConsentYet, refusalConsentPrinting, refusalConsentChanged, refusalWithdrawn
    /// The server's own failure.
    case refusalServerError
    /// The study's database does not answer for now (503): try again in a moment; nothing saved is lost.
    case refusalDatabaseUnavailable
    /// A walking step's measures, its prompt to touch at the end of a timed walk, and what it says while a walk runs.
    case measureStepCount, measureCadence, measureDistance, measureDuration, walkTouchWhenDone, walkUnderway
}
