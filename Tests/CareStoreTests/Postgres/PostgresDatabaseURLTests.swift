import Foundation
import Testing
import CareStorePostgres

@Suite("PostgresDatabaseURL")
struct PostgresDatabaseURLTests {
    @Test func readsTheFormPsqlTakes() throws {
        let url = try PostgresDatabaseURL("postgres://studykit@127.0.0.1:5433/studykit_test")
        #expect(url.host == "127.0.0.1" && url.port == 5433 && url.username == "studykit" && url.password == nil)
        #expect(url.database == "studykit_test" && url.tls == .prefer)
        let full = try PostgresDatabaseURL("postgresql://r%40ops:s%3Acret@db.example.org/study?sslmode=require")
        #expect(full.username == "r@ops" && full.password == "s:cret" && full.port == 5432 && full.tls == .require)
        #expect(full.description == "postgres://r@ops@db.example.org:5432/study?sslmode=require", "no password in the description")
    }

    @Test(arguments: ["mysql://u@h/db", "postgres://h/db", "postgres://u@/db", "postgres://u@h", "postgres://u@h/", "postgres://u@h/db?sslmode=verify",
                      "postgres://u@h/db?timeout=3", "not a url"])
    func refusesWhatItCannotUse(_ text: String) {
        #expect(throws: PostgresCareStorageError.self) { try PostgresDatabaseURL(text) }
    }
}
