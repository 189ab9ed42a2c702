import Foundation

/// A private certificate authority and a server certificate it signed for `localhost` and `127.0.0.1`, made with the
/// `openssl` command line in a test's folder: what the test server presents and the client is told to trust.
struct TestCertificates {
    /// The authority's certificate (PEM), for ``SMTPConfiguration/TrustRoots/certificateAuthorityFile(_:)``.
    let authorityFile: URL
    /// The server's certificate (PEM).
    let serverCertificateFile: URL
    /// The server's private key (PEM).
    let serverKeyFile: URL

    /// Makes the authority and the server's certificate in `folder`.
    init(in folder: URL) async throws {
        let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let openssl else { throw TestSetupError(description: "openssl is not installed: apt-get install openssl") }
        let ellipticCurve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await run(openssl, ["req", "-x509"] + ellipticCurve + [
            "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=StudyKit Mail Test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ], in: folder)
        try await run(openssl, ["req"] + ellipticCurve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"],
                in: folder)
        try """
            subjectAltName=DNS:localhost,IP:127.0.0.1
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth

            """.write(to: folder.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        try await run(openssl, [
            "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem",
            "-days", "2", "-extfile", "server.ext",
        ], in: folder)
        authorityFile = folder.appendingPathComponent("ca.pem")
        serverCertificateFile = folder.appendingPathComponent("server.pem")
        serverKeyFile = folder.appendingPathComponent("server.key")
    }

    /// The test server's options for TLS with this certificate.
    var serverArguments: [String] { ["--tls-cert", serverCertificateFile.path, "--tls-key", serverKeyFile.path] }
}
