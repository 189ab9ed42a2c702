import ArgumentParser
import Foundation
import Mail
import Study
import StudyServer
import WebPush

/// `studykit serve`'s reminder options: the public address of links, the SMTP submission server (its password from
/// the environment or a file, never the command line), and web push.
struct ReminderOptions: ParsableArguments {
    @Option(name: .customLong("public-url"),
            help: ArgumentHelp("The server's address as participants reach it (https://study.example.org): the links in reminders and the calendar feed start with it. Needed to send mail.",
                               valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("smtp-host"), help: ArgumentHelp("The SMTP submission server reminders are sent through.", valueName: "host"))
    var smtpHost: String?

    @Option(name: .customLong("smtp-port"), help: ArgumentHelp("Its port (587 for starttls, 465 for tls, 25 for plain by default).", valueName: "port"))
    var smtpPort: Int?

    @Option(name: .customLong("smtp-security"),
            help: ArgumentHelp("starttls (the default), tls (TLS from the start), or plain (only for a server on this machine).", valueName: "starttls|tls|plain"))
    var smtpSecurity = "starttls"

    @Option(name: .customLong("smtp-user"),
            help: ArgumentHelp("The SMTP user name; its password is read from the environment variable STUDYKIT_SMTP_PASSWORD or from --smtp-password-file.",
                               valueName: "name"))
    var smtpUser: String?

    @Option(name: .customLong("smtp-password-file"),
            help: ArgumentHelp("A file (readable by its owner only) whose first line is the SMTP password.", valueName: "file"))
    var smtpPasswordFile: String?

    @Option(name: .customLong("smtp-ca-file"),
            help: ArgumentHelp("Trust only the certificate authorities of this PEM file for the SMTP server (a private CA); the system's by default.",
                               valueName: "file"))
    var smtpCAFile: String?

    @Option(name: .customLong("mail-from"), help: ArgumentHelp("The address reminders come from.", valueName: "address"))
    var mailFrom: String?

    @Option(name: .customLong("mail-from-name"), help: ArgumentHelp("The name reminders come from (the study's name by default).", valueName: "name"))
    var mailFromName: String?

    @Option(name: .customLong("push-contact"),
            help: ArgumentHelp("Turns on web push: a mailto: or https: contact the push services can reach the study team at (VAPID's subject).",
                               valueName: "uri"))
    var pushContact: String?

    @Option(name: .customLong("push-service"),
            help: ArgumentHelp("Also send push to this origin (scheme://host:port), besides the browsers' own push services; for a test's local endpoint. Repeat for several.",
                               valueName: "origin"))
    var pushServices: [String] = []

    @Option(name: .customLong("reminder-interval"), help: ArgumentHelp("How often, in seconds, the server looks for reminders due (30 by default).", valueName: "seconds"))
    var reminderInterval = 30

    func validate() throws {
        if let publicURL {
            guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil, url.query == nil else {
                throw ValidationError("--public-url: '\(publicURL)' is not an http or https address such as https://study.example.org")
            }
        }
        guard ["starttls", "tls", "plain"].contains(smtpSecurity) else { throw ValidationError("--smtp-security must be starttls, tls or plain") }
        if smtpHost != nil {
            guard mailFrom != nil else { throw ValidationError("--smtp-host needs --mail-from, the address reminders come from") }
            guard publicURL != nil else { throw ValidationError("--smtp-host needs --public-url: a mail's links must say where the server is") }
        }
        if let mailFrom, (try? MailAddress(mailFrom)) == nil { throw ValidationError("--mail-from: '\(mailFrom)' is not an email address") }
        guard (1...3600).contains(reminderInterval) else { throw ValidationError("--reminder-interval must be from 1 to 3600 seconds") }
        if let pushContact, !(pushContact.hasPrefix("mailto:") || pushContact.hasPrefix("https://")) {
            throw ValidationError("--push-contact must be a mailto: or https: URI")
        }
    }

    /// The reminder settings, reading the SMTP password from `STUDYKIT_SMTP_PASSWORD` or the password file.
    func configuration(studyName: String) throws -> ReminderSendingConfiguration {
        var reminders = ReminderSendingConfiguration(publicURL: publicURL.flatMap(URL.init(string:)))
        reminders.checkInterval = .seconds(reminderInterval)
        if let smtpHost, let mailFrom {
            var credentials: SMTPCredentials?
            if let smtpUser {
                let password: String
                if let file = smtpPasswordFile {
                    do { try StudyDataFolder.requireOwnerOnly(secretFile: file) } catch { throw ValidationError("--smtp-password-file: \(error)") }
                    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                        throw ValidationError("--smtp-password-file: '\(file)' cannot be read as text")
                    }
                    password = String(text.split(whereSeparator: \.isNewline).first ?? "")
                } else if let text = ProcessInfo.processInfo.environment["STUDYKIT_SMTP_PASSWORD"] {
                    password = text
                } else {
                    throw ValidationError("--smtp-user needs the password in STUDYKIT_SMTP_PASSWORD or --smtp-password-file")
                }
                credentials = SMTPCredentials(username: smtpUser, password: password)
            }
            let security: SMTPConfiguration.Security = switch smtpSecurity {
            case "tls": .implicitTLS
            case "plain": .plain
            default: .startTLS
            }
            let smtp = SMTPConfiguration(host: smtpHost, port: smtpPort, security: security, credentials: credentials,
                                         clientHostname: publicURL.flatMap { URL(string: $0)?.host } ?? "localhost",
                                         trustRoots: smtpCAFile.map(SMTPConfiguration.TrustRoots.certificateAuthorityFile) ?? .systemDefault)
            reminders.mail = .init(smtp: smtp, from: MailMailbox(try MailAddress(mailFrom), displayName: mailFromName ?? studyName))
        }
        if let pushContact {
            reminders.push = .init(subject: pushContact, policy: PushServicePolicy(allowedOrigins: pushServices))
        }
        return reminders
    }
}
