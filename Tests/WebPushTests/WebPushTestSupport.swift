import Crypto
import Foundation
import Synchronization
import Testing
import WebPush

/// Base64url as the tests write and read it, independent of the module's own.
enum TestBase64URL {
    static func decode(_ text: String) -> Data {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { preconditionFailure("not base64url: \(text)") }
        return data
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// Random bytes for the module's injected random sources.
enum TestRandom {
    /// The system's secure generator.
    static func secure(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// A repeatable source: SHA-256 of `seed` and a counter, block after block.
    final class Seeded {
        private let seed: String
        private var counter = 0
        init(seed: String) { self.seed = seed }

        func bytes(_ count: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            while bytes.count < count {
                counter += 1
                bytes += SHA256.hash(data: Data("\(seed)/\(counter)".utf8))
            }
            return Array(bytes.prefix(count))
        }
    }
}

/// A browser's side of a subscription: its key pair and authentication secret, and the decryption it does.
struct TestBrowser {
    let privateKey: P256.KeyAgreement.PrivateKey
    let authSecret: Data

    init(privateKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(), authSecret: Data = Data(TestRandom.secure(16))) {
        self.privateKey = privateKey
        self.authSecret = authSecret
    }

    func subscription(endpoint: String = "https://fcm.googleapis.com/fcm/send/test-subscription", allowInsecureEndpoints: Bool = false) throws -> PushSubscription {
        try PushSubscription(endpoint: endpoint, p256dh: TestBase64URL.encode(privateKey.publicKey.x963Representation),
                             auth: TestBase64URL.encode(authSecret), allowInsecureEndpoints: allowInsecureEndpoints)
    }

    /// The payload of an `aes128gcm` body (RFC 8188) encrypted for this browser (RFC 8291), as a browser decrypts it:
    /// written here from the RFCs, with swift-crypto, apart from the module's encryption.
    func decrypt(_ body: Data) throws -> Data {
        let bytes = [UInt8](body)
        guard bytes.count >= 21 else { throw TestDecryptionError.truncated }
        let salt = Data(bytes[0..<16])
        let recordSize = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let keyIDLength = Int(bytes[20])
        guard bytes.count >= 21 + keyIDLength + 17 else { throw TestDecryptionError.truncated }
        let senderPublicKey = Data(bytes[21..<(21 + keyIDLength)])
        let record = Data(bytes[(21 + keyIDLength)...])
        guard record.count <= recordSize else { throw TestDecryptionError.moreThanOneRecord }

        let sender = try P256.KeyAgreement.PublicKey(x963Representation: senderPublicKey)
        let ecdhSecret = try privateKey.sharedSecretFromKeyAgreement(with: sender).withUnsafeBytes { Data($0) }
        let userAgentPublicKey = privateKey.publicKey.x963Representation
        // HKDF written out with HMAC, as RFC 8291 §3.4 lays it out.
        func hmac(_ key: Data, _ message: Data) -> Data {
            Data(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        }
        let keyPRK = hmac(authSecret, ecdhSecret)
        let keyInfo = Data("WebPush: info".utf8) + [0] + userAgentPublicKey + senderPublicKey
        let ikm = hmac(keyPRK, keyInfo + [1])
        let prk = hmac(salt, ikm)
        let contentKey = hmac(prk, Data("Content-Encoding: aes128gcm".utf8) + [0, 1]).prefix(16)
        let nonce = hmac(prk, Data("Content-Encoding: nonce".utf8) + [0, 1]).prefix(12)

        let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: record.dropLast(16), tag: record.suffix(16))
        let padded = try AES.GCM.open(box, using: SymmetricKey(data: contentKey))
        guard let delimiter = padded.lastIndex(where: { $0 != 0 }), padded[delimiter] == 0x02 else {
            throw TestDecryptionError.noLastRecordDelimiter
        }
        return Data(padded[padded.startIndex..<delimiter])
    }
}

enum TestDecryptionError: Error {
    case truncated, moreThanOneRecord, noLastRecordDelimiter
}

/// The project's Python virtual environment, with `http_ece`, `cryptography` and `PyJWT`: implementations of web push
/// that nobody here wrote.
enum ProjectPython {
    /// The checkout this test file is in (symbolic links resolved, so a package that links the test folder finds it too).
    static let projectFolder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `.venv/bin/python`, or nil (with an issue recorded) when the virtual environment is not there.
    static func executable() -> URL? {
        let python = projectFolder.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            Issue.record("\(python.path) is missing: run `make test`, which makes the virtual environment with http_ece and PyJWT")
            return nil
        }
        return python
    }

    struct Run {
        var status: Int32
        var output: Data
        var errors: String
    }

    /// Runs `script` with `input` on its standard input, off the test's thread, and returns what it wrote.
    static func run(_ python: URL, script: String, input: Data) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    let process = Process()
                    process.executableURL = python
                    process.arguments = ["-c", script]
                    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
                    process.standardInput = stdin
                    process.standardOutput = stdout
                    process.standardError = stderr
                    try process.run()
                    let errors = ErrorCollector(stderr.fileHandleForReading)
                    stdin.fileHandleForWriting.write(input)
                    try stdin.fileHandleForWriting.close()
                    let output = stdout.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(returning: Run(status: process.terminationStatus, output: output, errors: errors.text()))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Reads a pipe to its end on a thread of its own, so that a child writing much to it never blocks.
    final class ErrorCollector: Sendable {
        private let group = DispatchGroup()
        private let data = Mutex(Data())

        init(_ handle: FileHandle) {
            group.enter()
            DispatchQueue.global().async { [self] in
                let read = handle.readDataToEndOfFile()
                data.withLock { $0 = read }
                group.leave()
            }
        }

        func text() -> String {
            group.wait()
            return String(decoding: data.withLock { $0 }, as: UTF8.self)
        }
    }
}
