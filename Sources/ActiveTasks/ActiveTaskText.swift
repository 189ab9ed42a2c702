import Research

/// A text of the active tasks' own steps (titles, instructions, the countdown and completion steps), looked up in
/// ``ActiveTaskTexts`` for the language a task is built in.
enum ActiveTaskText: String, CaseIterable, Sendable {
    case getReady
    case startingIn
    case allDone
    case thankYou
    case rightHand
    case leftHand
    case tappingTitle
    case tappingUse
    case tappingHowTwo
    case tappingHowOne
    case tapRight
    case tapLeft
    case tapTwoStep
    case tapOneStep
    case reactionTitle
    case reactionUse
    case reactionHow
    case reactionStep
    case stroopTitle
    case stroopUse
    case stroopHow
    case stroopStep
    case spanTitle
    case spanUse
    case spanHowSame
    case spanHowReverse
    case spanStepSame
    case spanStepReverse
    case trailTitle
    case trailUse
    case trailHowA
    case trailHowB
    case trailStep
    case hanoiTitle
    case hanoiUse
    case hanoiHow
    case hanoiStep
    case psatUse
    case psatHowVisual
    case psatHowAuditory
    case psatStep
    case amslerTitle
    case amslerUse
    case amslerCoverRight
    case amslerCoverLeft
    case leftEye
    case rightEye
    case amslerStep
    case pegTitle
    case pegUse
    case pegHow
    case pegPlace
    case pegRemove
    case trailLetters
    case leftSide
    case rightSide
    case kneeTitle
    case shoulderTitle
    case rangeOfMotionUse
    case kneeHow
    case shoulderHow
    case kneeStep
    case shoulderStep
    case tremorTitle
    case tremorUse
    case tremorHow
    case tremorRightHand
    case tremorLeftHand
    case tremorInLap
    case tremorAtShoulder
    case tremorElbowBent
    case tremorTouchNose
    case tremorQueenWave
    case shakeTitle
    case shakeUse
    case shakeHow
    case shakeStep
    case walkTitle
    case walkUse
    case walkHow
    case walkOutbound
    case walkReturn
    case walkRest
    case walkBackTitle
    case walkBackHow
    case walkBackStep
    case timedTitle
    case timedUse
    case timedHow
    case timedTrial1
    case timedTurn
    case timedTrial2
    case timedFormTitle
    case timedFormText
    case timedAFO
    case timedAssistance
    case timedNone
    case timedCane1
    case timedCrutch1
    case timedCane2
    case timedCrutch2
    case timedWalker
    case fitnessTitle
    case sixMinuteTitle
    case fitnessUse
    case fitnessHow
    case fitnessWalk
    case fitnessRest
    case walkQuestionsTitle
    case exertionQuestion
    case exertionLow
    case exertionHigh
    case stoppedQuestion
}

/// The texts of one language: the language's table, else its base language's (`ja-JP` reads `ja`, `zh` reads
/// `zh-Hans`), else English. `{name}` placeholders are filled in one pass.
struct ActiveTaskWording: Sendable {
    /// The built-in language the texts come from.
    let language: String

    /// The wording of `language` (a BCP 47 tag), falling back as described above.
    init(language: String) {
        let base = language.split(separator: "-").first.map(String.init) ?? language
        self.language = if ActiveTaskTexts.tables[language] != nil { language }
            else if base == "zh" { "zh-Hans" }
            else if ActiveTaskTexts.tables[base] != nil { base }
            else { "en" }
    }

    /// The text of `key`, its placeholders replaced by `values`.
    func callAsFunction(_ key: ActiveTaskText, _ values: [String: String] = [:]) -> String {
        let text = ActiveTaskTexts.tables[language]?[key] ?? ActiveTaskTexts.tables["en"]?[key] ?? key.rawValue
        return values.isEmpty ? text : PlaceholderText.fill(text, values)
    }
}
