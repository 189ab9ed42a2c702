/// A storage that keeps the study team's accounts beside the study's data (the accounts' rules over its
/// ``ResearcherStorage``), so that its store is a ``ResearcherStore``.
public protocol ResearcherAccountsKeeping {
    /// Where the accounts' rows are kept.
    associatedtype Researchers: ResearcherStorage
    /// The study team's accounts.
    var researcherAccounts: StorageBackedResearcherAccounts<Researchers> { get }
}
