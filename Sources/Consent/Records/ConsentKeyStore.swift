import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the server's consent signing key in its keys folder: `DATA/keys/consent-signing-key.ed25519` for a server on
/// SQLite, or the folder `--keys DIR` names for several processes on PostgreSQL (every process reads the same keys;
/// the database never holds them): the key's 32 raw bytes, mode 0600 in a folder of mode 0700.
///
/// ```swift
/// let key = try ConsentKeyStore(dataDirectory: data).loadOrCreate()
/// print(key.publicKey)   // base64 (fingerprint …)
/// ```
///
/// The key is created on first use, written atomically (a temporary file linked into place, so a crash
/// never leaves half a key and two processes starting at once end up with the same key). A key file
/// that is the wrong size is an error naming the file; it is never replaced.
public struct ConsentKeyStore: Sendable {
    /// The folder holding the keys.
    public var keysDirectory: URL

    /// A store in the data folder `dataDirectory`'s `keys/`.
    public init(dataDirectory: URL) {
        keysDirectory = dataDirectory.appendingPathComponent("keys", isDirectory: true)
    }

    /// A store whose key files are in `keysDirectory` itself (a server on PostgreSQL has no data folder for its keys:
    /// they are a folder of their own that every process reads, `studykit serve --keys DIR`), created owner-only with
    /// its parent folders when missing.
    ///
    /// ```swift
    /// let key = try ConsentKeyStore(keysDirectory: URL(fileURLWithPath: "/etc/studykit/keys")).loadOrCreate()
    /// ```
    public init(keysDirectory: URL) {
        self.keysDirectory = keysDirectory
    }

    /// `KEYS/consent-signing-key.ed25519`.
    public var keyFile: URL { keysDirectory.appendingPathComponent("consent-signing-key.ed25519") }

    /// The stored key, or nil when there is none yet.
    public func load() throws -> ConsentSigningKey? {
        guard let data = try loadSecret(at: keyFile, byteCount: 32, what: "an Ed25519 key file") else { return nil }
        do {
            return try ConsentSigningKey(rawRepresentation: data)
        } catch {
            throw ConsentKeyError.corruptKeyFile(path: keyFile.path, reason: "not an Ed25519 key: \(error)")
        }
    }

    /// The stored key, creating and storing a new one when there is none.
    public func loadOrCreate() throws -> ConsentSigningKey {
        if let key = try load() { return key }
        let stored = try storeSecret(ConsentSigningKey.generate().rawRepresentation, at: keyFile, byteCount: 32, what: "an Ed25519 key file")
        return try ConsentSigningKey(rawRepresentation: stored)
    }

    /// Another secret of the server's kept beside the signing key: `KEYS/NAME`, `byteCount` bytes, owner-only.
    /// Nil when there is none yet; an error naming the file when it is open to others or of another size.
    public func loadSecret(named name: String, byteCount: Int) throws -> Data? {
        try loadSecret(at: keysDirectory.appendingPathComponent(name), byteCount: byteCount, what: "the file \(name)")
    }

    /// Stores `secret` as `KEYS/NAME` when there is no such file yet, created whole or not at all; returns the
    /// secret stored, which is another process's when it stored one first.
    @discardableResult
    public func storeSecret(named name: String, _ secret: Data) throws -> Data {
        try storeSecret(secret, at: keysDirectory.appendingPathComponent(name), byteCount: secret.count, what: "the file \(name)")
    }

    private func loadSecret(at file: URL, byteCount: Int, what: String) throws -> Data? {
        let path = file.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw ConsentKeyError.fileSystem(path: path, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ConsentKeyError.corruptKeyFile(path: path, reason: "not a regular file")
        }
        if info.st_mode & 0o077 != 0 {
            throw ConsentKeyError.keyFileTooOpen(path: path, mode: String(info.st_mode & 0o777, radix: 8))
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ConsentKeyError.fileSystem(path: path, reason: "cannot read the key: \(error.localizedDescription)")
        }
        guard data.count == byteCount else {
            throw ConsentKeyError.corruptKeyFile(path: path, reason: "\(data.count) bytes, \(what) holds \(byteCount)")
        }
        return data
    }

    /// Writes `secret` to a temporary file and links it into place, so that a crash never leaves half a key and two
    /// processes starting at once end up with the same one; returns what is stored.
    private func storeSecret(_ secret: Data, at file: URL, byteCount: Int, what: String) throws -> Data {
        try createKeysDirectory()
        let temporary = keysDirectory.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp").path
        defer { unlink(temporary) }
        try writeNewFile(at: temporary, contents: secret)
        if link(temporary, file.path) != 0 {
            guard errno == EEXIST else {
                throw ConsentKeyError.fileSystem(path: file.path, reason: "cannot store the key: \(String(cString: strerror(errno)))")
            }
            // Another process stored its key first; use that one.
            guard let existing = try loadSecret(at: file, byteCount: byteCount, what: what) else {
                throw ConsentKeyError.fileSystem(path: file.path, reason: "the key file vanished while it was being created")
            }
            return existing
        }
        syncDirectory(keysDirectory.path)
        return secret
    }

    private func createKeysDirectory() throws {
        let path = keysDirectory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ConsentKeyError.fileSystem(path: path, reason: "exists and is not a folder") }
            return
        }
        let parent = keysDirectory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw ConsentKeyError.fileSystem(path: parent.path, reason: "cannot create the folder of the keys folder: \(error.localizedDescription)")
        }
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw ConsentKeyError.fileSystem(path: path, reason: "cannot create the keys folder: \(String(cString: strerror(errno)))")
        }
        chmod(path, 0o700)  // mkdir's mode is filtered by the umask
    }

    private func writeNewFile(at path: String, contents: Data) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw ConsentKeyError.fileSystem(path: path, reason: "cannot create the key file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        fchmod(descriptor, 0o600)
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == contents.count, fsync(descriptor) == 0 else {
            throw ConsentKeyError.fileSystem(path: path, reason: "cannot write the key file: \(String(cString: strerror(errno)))")
        }
    }

    private func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
