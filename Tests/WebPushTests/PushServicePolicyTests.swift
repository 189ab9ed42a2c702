import Foundation
import Testing
import WebPush

/// ``PushServicePolicy`` lets the server contact the big browsers' push services over https on port 443, and refuses
/// every endpoint a participant could use to aim the server elsewhere: IP addresses of every kind, lookalike hosts,
/// other ports and schemes. A test's local origin passes only when added explicitly, and then only exactly.
@Suite("Push service policy")
struct PushServicePolicyTests {
    @Test(arguments: [
        "https://fcm.googleapis.com/fcm/send/dXo2tD4Y6pU:APA91bH-example",
        "https://FCM.googleapis.com:443/wp/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk-example",
        "https://web.push.apple.com/QGuQyavXutnMH2nRqVXTG9bX4oW6bz-example",
        "https://api.push.apple.com/3/device/abc",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB-example",
    ])
    func theBrowsersPushServicesAreAllowed(endpoint: String) throws {
        try PushServicePolicy.browsers.check(try #require(URL(string: endpoint)))
    }

    @Test(arguments: [
        ("https://127.0.0.1/push", PushServicePolicyError.ipAddress(host: "127.0.0.1")),
        ("https://10.0.0.1/push", .ipAddress(host: "10.0.0.1")),
        ("https://192.168.1.20/push", .ipAddress(host: "192.168.1.20")),
        ("https://169.254.169.254/latest/meta-data", .ipAddress(host: "169.254.169.254")),
        ("https://8.8.8.8/push", .ipAddress(host: "8.8.8.8")),
        ("https://[::1]/push", .ipAddress(host: "::1")),
        ("https://[fd00::1]:8443/push", .ipAddress(host: "fd00::1")),
        ("https://[::ffff:127.0.0.1]/push", .ipAddress(host: "::ffff:127.0.0.1")),
        // What some resolvers read as 127.0.0.1.
        ("https://127.1/push", .ipAddress(host: "127.1")),
        ("https://2130706433/push", .ipAddress(host: "2130706433")),
        ("https://0x7f.1/push", .ipAddress(host: "0x7f.1")),
        ("http://127.0.0.1:8123/push", .ipAddress(host: "127.0.0.1")),
        ("https://fcm.googleapis.com.evil.example/fcm/send/abc", .hostNotAllowed(host: "fcm.googleapis.com.evil.example")),
        ("https://evilfcm.googleapis.com/fcm/send/abc", .hostNotAllowed(host: "evilfcm.googleapis.com")),
        ("https://notify.windows.com/w/", .hostNotAllowed(host: "notify.windows.com")),
        ("https://evilnotify.windows.com/w/", .hostNotAllowed(host: "evilnotify.windows.com")),
        ("https://fcm.googleapis.com./fcm/send/abc", .hostNotAllowed(host: "fcm.googleapis.com.")),
        ("https://fcm%2Egoogleapis.com/fcm/send/abc", .hostNotAllowed(host: "fcm%2egoogleapis.com")),
        ("https://localhost/push", .hostNotAllowed(host: "localhost")),
        ("https://fcm.googleapis.com:8443/fcm/send/abc", .portNotAllowed(8443)),
        ("https://fcm.googleapis.com:80/fcm/send/abc", .portNotAllowed(80)),
        ("http://fcm.googleapis.com/fcm/send/abc", .notHTTPS(scheme: "http")),
        ("https://participant:secret@fcm.googleapis.com/fcm/send/abc", .hasUserInfo),
        ("/fcm/send/abc", .notAnAbsoluteURL),
    ])
    func anyOtherEndpointIsRefusedWithTheReason(endpoint: String, error: PushServicePolicyError) throws {
        let url = try #require(URL(string: endpoint))
        #expect(throws: error) { try PushServicePolicy.browsers.check(url) }
    }

    @Test func aTestsLocalOriginPassesOnlyWhenAllowedAndOnlyExactly() throws {
        let local = try #require(URL(string: "http://127.0.0.1:8123/push/abc"))
        #expect(throws: PushServicePolicyError.ipAddress(host: "127.0.0.1")) { try PushServicePolicy.browsers.check(local) }

        let policy = PushServicePolicy(allowedOrigins: ["http://127.0.0.1:8123"])
        try policy.check(local)
        try policy.check(try #require(URL(string: "https://fcm.googleapis.com/fcm/send/abc")))
        #expect(throws: PushServicePolicyError.ipAddress(host: "127.0.0.1")) {
            try policy.check(try #require(URL(string: "http://127.0.0.1:8124/push/abc")))
        }
        #expect(throws: PushServicePolicyError.ipAddress(host: "127.0.0.1")) {
            try policy.check(try #require(URL(string: "https://127.0.0.1:8123/push/abc")))
        }
        #expect(throws: PushServicePolicyError.hasUserInfo) {
            try policy.check(try #require(URL(string: "http://someone@127.0.0.1:8123/push/abc")))
        }

        let noHosts = PushServicePolicy(allowedHosts: [], allowedOrigins: ["http://127.0.0.1:8123"])
        try noHosts.check(local)
        #expect(throws: PushServicePolicyError.hostNotAllowed(host: "fcm.googleapis.com")) {
            try noHosts.check(try #require(URL(string: "https://fcm.googleapis.com/fcm/send/abc")))
        }
    }

    @Test func aHostCanBeAllowedExactlyOrByItsSuffix() throws {
        let policy = PushServicePolicy(allowedHosts: [.exact("push.example.org"), .suffix(".push.example.net")])
        try policy.check(try #require(URL(string: "https://push.example.org/a")))
        try policy.check(try #require(URL(string: "https://eu.push.example.net/a")))
        #expect(throws: PushServicePolicyError.hostNotAllowed(host: "eu.push.example.org")) {
            try policy.check(try #require(URL(string: "https://eu.push.example.org/a")))
        }
        #expect(throws: PushServicePolicyError.hostNotAllowed(host: "push.example.net")) {
            try policy.check(try #require(URL(string: "https://push.example.net/a")))
        }
    }
}
