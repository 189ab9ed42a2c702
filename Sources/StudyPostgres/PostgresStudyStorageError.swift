import Study

/// A value in the study store's tables that ``PostgresStudyStorage`` cannot read back (a row edited by hand, say).
public typealias PostgresStudyStorageError = StoredValueError
