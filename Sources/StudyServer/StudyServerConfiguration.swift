import Foundation

/// Where the server's study and data live and where it listens.
public struct StudyServerConfiguration: Sendable {
    /// The study folder (`study.yaml` and the files it names).
    public var studyFolder: URL
    /// The data folder: `study.sqlite` (on SQLite), `keys/`, and consent PDFs printed by earlier versions.
    public var dataFolder: URL
    /// The server's keys (the web secret, the consent signing key, the audit trail's key): `DATA/keys/` unless set.
    /// Several processes over one PostgreSQL database are given the same folder (`--keys DIR`), since the database
    /// never holds a key.
    public var keysFolder: URL
    /// The address to listen on; `127.0.0.1` by default, so nothing outside the machine reaches it unless asked.
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int
    /// Marks the session cookie `Secure`: set it when the server sits behind HTTPS.
    public var secureCookies: Bool
    /// What an answer (or any other write) the server has acknowledged survives; ``Durability/processCrash`` by default.
    public var durability: Durability
    /// The IP addresses of the reverse proxies in front of the server, whose `X-Forwarded-For` header names the
    /// client (for the per-address limits on wrong sign-in codes and passwords and on live-update streams); from any
    /// other peer the header is ignored.
    public var trustedProxies: Set<String>
    /// bcrypt's cost for the console's passwords (log2 of its rounds, 4 to 31): 12 by default, about a quarter of a
    /// second per sign-in; tests lower it.
    public var passwordCost: UInt8
    /// How often a quiet live-update stream (`GET /events`) sends a comment, which keeps proxies from closing it, and
    /// checks that its session and participant still stand: 25 seconds by default. A stream whose client closes the
    /// connection ends at once, whatever this is.
    public var liveUpdateHeartbeat: Duration = .seconds(25)
    /// How many live-update streams one client address may hold open at once: 32 by default. Raise it where many
    /// participants share one address (a clinic's network behind one NAT) and no trusted proxy tells them apart.
    public var liveStreamsPerClient = 32
    /// How reminders reach participants: the public address of links, mail and push (none sent by default).
    public var reminders = ReminderSendingConfiguration()

    /// What an acknowledged write survives.
    ///
    /// Every acknowledged write survives a killed server either way, whole (WAL mode, one transaction per write). The
    /// choice is what a crash of the whole machine may cost: syncing each commit to the disk makes every write wait
    /// for it, which bounds the rate of writes by the disk's flushes (a few hundred a second on many disks).
    public enum Durability: String, Sendable, Hashable, CaseIterable {
        /// A power loss or an operating-system crash too: each commit is synced to the disk before the server answers
        /// (`synchronous = FULL`).
        case powerLoss = "power-loss"
        /// A killed or crashed server process: a commit is handed to the operating system before the server answers,
        /// and the files are synced at checkpoints (`synchronous = NORMAL`, SQLite's recommendation for WAL). A power
        /// loss or an OS crash may lose the last writes before a checkpoint, never half of one, and never corrupts a file.
        case processCrash = "process-crash"
    }

    /// Creates a configuration; see the properties.
    public init(studyFolder: URL, dataFolder: URL, host: String = "127.0.0.1", port: Int = 8080, secureCookies: Bool = false,
                durability: Durability = .processCrash, trustedProxies: Set<String> = [], passwordCost: UInt8 = 12) {
        self.studyFolder = studyFolder
        self.dataFolder = dataFolder
        keysFolder = dataFolder.appendingPathComponent("keys", isDirectory: true)
        self.host = host
        self.port = port
        self.secureCookies = secureCookies
        self.durability = durability
        self.trustedProxies = trustedProxies
        self.passwordCost = min(max(passwordCost, 4), 31)
    }

    /// Whether `text` is an IPv4 or IPv6 address as `X-Forwarded-For` and a connection's peer write it.
    public static func isIPAddress(_ text: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, text, &buffer) == 1 || inet_pton(AF_INET6, text, &buffer) == 1
    }
}
