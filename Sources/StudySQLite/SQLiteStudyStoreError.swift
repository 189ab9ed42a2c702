import Study

/// A value in the study database that the store cannot read back.
public typealias SQLiteStudyStoreError = StoredValueError
