/// A signing key that could not be read, written or used, with the file concerned.
public enum ConsentKeyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key file exists but does not hold a key; it is never replaced silently.
    case corruptKeyFile(path: String, reason: String)
    /// The key file can be read by other users.
    case keyFileTooOpen(path: String, mode: String)
    /// The key file or its folder could not be read or written.
    case fileSystem(path: String, reason: String)
    /// A public key given as text is not base64 of 32 bytes.
    case malformedPublicKey(String)

    /// What went wrong and where, in English.
    public var description: String {
        switch self {
        case .corruptKeyFile(let path, let reason):
            "the consent signing key file \(path) is corrupt (\(reason)); restore it from a backup — it is not replaced, "
                + "because records sealed with it could no longer be matched to a new key"
        case .keyFileTooOpen(let path, let mode):
            "the consent signing key file \(path) has mode \(mode), readable by other users. If it was ever shared, copied "
                + "or committed, it is void: anyone holding it can seal records that verify. Otherwise run chmod 600 \(path)"
        case .fileSystem(let path, let reason): "\(path): \(reason)"
        case .malformedPublicKey(let text): "'\(text)' is not an Ed25519 public key (base64 of 32 bytes)"
        }
    }
}
