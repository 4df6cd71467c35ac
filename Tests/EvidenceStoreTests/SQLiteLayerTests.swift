import CSQLite
import Foundation
import Testing

@testable import EvidenceStore

@Suite struct SQLiteLayerTests {
    let folder: TemporaryFolder
    let database: Database

    init() throws {
        folder = try TemporaryFolder()
        database = try Database(path: folder.path("plain.sqlite"), mode: .readWriteCreate)
        try database.execute("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, size REAL) STRICT")
    }

    @Test func valuesRoundTripWithTheirStorageClass() throws {
        try database.execute(
            "CREATE TABLE mixed (a ANY, b ANY, c ANY, d ANY, e ANY) STRICT")
        try database.execute(
            "INSERT INTO mixed VALUES (?, ?, ?, ?, ?)", .null, .integer(42), .real(1.5), .text("héllo\u{0}x"),
            .blob([0, 1, 255]))
        let row = try #require(try database.queryFirst("SELECT * FROM mixed"))
        #expect(row.values == [.null, .integer(42), .real(1.5), .text("héllo\u{0}x"), .blob([0, 1, 255])])
    }

    @Test func wrongArgumentCountThrowsInsteadOfCrashing() throws {
        #expect(throws: DatabaseError.self) {
            try database.execute("INSERT INTO things (name) VALUES (?)", .text("a"), .text("b"))
        }
        #expect(throws: DatabaseError.self) {
            try database.execute("INSERT INTO things (name) VALUES (?)")
        }
    }

    @Test func errorsCarryTheExtendedCodeAndTheSQLButNotTheValues() throws {
        try database.execute("INSERT INTO things (name) VALUES (?)", .text("secret-value"))
        do {
            try database.execute("INSERT INTO things (name) VALUES (?)", .text("secret-value"))
            Issue.record("a duplicate insert must fail")
        } catch let error as DatabaseError {
            #expect(error.code == SQLITE_CONSTRAINT)
            #expect(error.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
            #expect(error.sql == "INSERT INTO things (name) VALUES (?)")
            #expect(!error.description.contains("secret-value"))
            #expect(error.description.hasPrefix("SQLite error 2067: "))
            #expect(error.description.hasSuffix("- while executing `INSERT INTO things (name) VALUES (?)`"))
        }
    }

    @Test func lastInsertIDAndChangesAreReported() throws {
        try database.execute("INSERT INTO things (name) VALUES ('a'), ('b')")
        #expect(database.changes == 2)
        #expect(database.lastInsertRowID == 2)
        try database.execute("UPDATE things SET size = 1")
        #expect(database.changes == 2)
    }

    @Test func moreThanOneStatementIsRefused() throws {
        #expect(throws: DatabaseError.self) {
            _ = try database.prepare("SELECT 1; SELECT 2")
        }
        _ = try database.prepare("SELECT 1; -- a comment\n")
    }

    @Test func typedColumnAccess() throws {
        try database.execute("INSERT INTO things (name, size) VALUES ('a', 2.5), ('b', NULL)")
        let statement = try database.prepare("SELECT id, name, size FROM things ORDER BY id")
        var seen: [String] = []
        try statement.forEachRow { row in
            seen.append("\(row.int("id")) \(row.text("name")) \(row.optionalDouble("size").map { "\($0)" } ?? "nil")")
        }
        #expect(seen == ["1 a 2.5", "2 b nil"])
        #expect(statement.columnNames == ["id", "name", "size"])
    }

    // MARK: - Transactions

    struct Boom: Error, Equatable {}

    @Test func aThrowingBodyRollsBackAndTheFirstErrorSurfaces() throws {
        #expect(throws: Boom.self) {
            try database.inTransaction {
                try database.execute("INSERT INTO things (name) VALUES ('kept?')")
                throw Boom()
            }
        }
        #expect(try database.scalar("SELECT count(*) FROM things") == .integer(0))
        #expect(database.isAutocommit)
    }

    @Test func aFailingStatementRollsBackEverythingBeforeIt() throws {
        #expect(throws: DatabaseError.self) {
            try database.inTransaction {
                try database.execute("INSERT INTO things (name) VALUES ('a')")
                try database.execute("INSERT INTO things (name) VALUES ('a')")
            }
        }
        #expect(try database.scalar("SELECT count(*) FROM things") == .integer(0))
    }

    @Test func nestedTransactionsUseSavepoints() throws {
        try database.inTransaction {
            try database.execute("INSERT INTO things (name) VALUES ('outer')")
            #expect(throws: Boom.self) {
                try database.inTransaction {
                    try database.execute("INSERT INTO things (name) VALUES ('inner')")
                    throw Boom()
                }
            }
            try database.inTransaction {
                try database.execute("INSERT INTO things (name) VALUES ('second inner')")
            }
        }
        let names = try database.query("SELECT name FROM things ORDER BY id").map { try $0.text("name") }
        #expect(names == ["outer", "second inner"])
    }

    @Test func savepointsNestDeeplyUnderOneName() throws {
        try database.inTransaction {
            try database.inTransaction {
                try database.execute("INSERT INTO things (name) VALUES ('one')")
                #expect(throws: Boom.self) {
                    try database.inTransaction {
                        try database.execute("INSERT INTO things (name) VALUES ('two')")
                        throw Boom()
                    }
                }
                try database.execute("INSERT INTO things (name) VALUES ('three')")
            }
        }
        let names = try database.query("SELECT name FROM things ORDER BY id").map { try $0.text("name") }
        #expect(names == ["one", "three"])
        // However deep the nesting, the cache holds the few statements of transactions, not one per savepoint.
        let cached = database.cachedStatementCount
        for _ in 0..<20 { try database.inTransaction { try database.inTransaction {} } }
        #expect(database.cachedStatementCount == cached)
    }

    @Test func onlyFixedSQLIsCached() throws {
        let before = database.cachedStatementCount
        for number in 0..<50 {
            try database.execute("INSERT INTO things (name) VALUES ('thing \(number)')")
            _ = try database.query("SELECT name FROM things WHERE id = \(number)")
            try database.execute("PRAGMA cache_size = -\(2000 + number)")
        }
        #expect(database.cachedStatementCount == before, "SQL built at run time is never cached")
        for _ in 0..<50 {
            _ = try database.scalar(cached: "SELECT count(*) FROM things")
        }
        #expect(database.cachedStatementCount == before + 1)
    }

    @Test func aMistypedColumnNameIsAnErrorNotAZero() throws {
        try database.execute("INSERT INTO things (name, size) VALUES ('a', 1.5)")
        let row = try #require(try database.query("SELECT name, size FROM things").first)
        #expect(try row.text("name") == "a")
        #expect(try row.double("size") == 1.5)
        #expect(throws: DatabaseError.self) { _ = try row.text("nmae") }
        #expect(throws: DatabaseError.self) { _ = try row.int("sise") }
        #expect(throws: DatabaseError.self) { _ = try row.int("name") }
    }

    @Test func anOuterFailureUndoesCommittedSavepoints() throws {
        #expect(throws: Boom.self) {
            try database.inTransaction {
                try database.inTransaction {
                    try database.execute("INSERT INTO things (name) VALUES ('inner')")
                }
                throw Boom()
            }
        }
        #expect(try database.scalar("SELECT count(*) FROM things") == .integer(0))
    }

    @Test func immediateTransactionsTakeTheWriteLockAtBegin() throws {
        try database.execute("PRAGMA journal_mode = WAL")
        var configuration = Database.Configuration()
        configuration.busyTimeoutMilliseconds = 50
        let other = try Database(path: folder.path("plain.sqlite"), mode: .readWrite, configuration: configuration)
        try database.inTransaction(.immediate) {
            do {
                try other.execute("BEGIN IMMEDIATE")
                Issue.record("a second writer must wait for the first")
            } catch let error as DatabaseError {
                #expect(error.code == SQLITE_BUSY)
            }
        }
        try other.inTransaction(.immediate) {
            try other.execute("INSERT INTO things (name) VALUES ('after')")
        }
    }

    @Test func connectionsAreDefensiveAndDistrustTheSchema() throws {
        #expect(throws: DatabaseError.self) {
            try database.execute("PRAGMA writable_schema = ON")
            try database.execute("UPDATE sqlite_schema SET sql = 'x' WHERE name = 'things'")
        }
        #expect(try database.scalar("PRAGMA trusted_schema") == .integer(0))
        #expect(try database.scalar("PRAGMA foreign_keys") == .integer(1))
    }

    @Test func aPathBeginningWithFileIsAPathNotAURI() throws {
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(folder.url.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let uri = try Database(path: "file:odd.sqlite?mode=memory", mode: .readWriteCreate)
        try uri.execute("CREATE TABLE t (x)")
        uri.close()
        #expect(FileManager.default.fileExists(atPath: folder.path("file:odd.sqlite?mode=memory")))
    }
}

@Suite struct TextArenaTests {
    /// Texts, NULLs and empty texts come back as they went in, bound in place
    /// from the arena into a real table (as `ResultBatch` binds every row),
    /// whole where they hold a NUL of their own (bound by length, not as C
    /// strings), with the lengths SQLite's `length()` gives them, and an
    /// arena emptied and filled again binds its new texts.
    @Test func textsComeBackAsTheyWentIn() throws {
        let folder = try TemporaryFolder()
        let database = try Database(path: folder.path("arena.sqlite"), mode: .readWriteCreate)
        try database.execute("CREATE TABLE texts (text TEXT) STRICT")
        let insert = try database.cached("INSERT INTO texts (text) VALUES (?)")
        func stored() throws -> [String?] {
            try database.query("SELECT text FROM texts ORDER BY rowid").map { row -> String? in
                if case .text(let text) = try row.value("text") { return text }
                return nil
            }
        }
        var arena = TextArena()
        let texts: [String?] = ["a", nil, "", "ünïcödé ☂️", String(repeating: "x", count: 1000), nil, "a\u{0}b", "\u{0}"]
        for text in texts { arena.append(text) }
        try arena.withTexts { bound in
            for n in texts.indices {
                try insert.bindInPlace(1, bound, n)
                try insert.executeAndClearBindings()
            }
        }
        #expect(try stored() == texts)
        // length() counts characters up to a NUL; the text itself is kept whole.
        let lengths = try database.query("SELECT length(text) AS characters, length(CAST(text AS BLOB)) AS bytes FROM texts ORDER BY rowid")
            .map { "\(try $0.value("characters").int.map(String.init) ?? "-") \(try $0.value("bytes").int.map(String.init) ?? "-")" }
        #expect(lengths == ["1 1", "- -", "0 0", "10 18", "1000 1000", "- -", "1 3", "0 1"])
        arena.removeAll()
        arena.append("again")
        try arena.withTexts { bound in
            try insert.bindInPlace(1, bound, 0)
            try insert.executeAndClearBindings()
        }
        #expect(try stored().last == "again")
    }
}

@Suite struct SHA256Tests {
    @Test func standardVectors() throws {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func chunkedUpdatesMatchOneUpdate() throws {
        let data = Data((0..<1000).map { UInt8($0 % 251) })
        let hasher = SHA256()
        for start in stride(from: 0, to: data.count, by: 37) {
            hasher.update(data.subdata(in: start..<min(start + 37, data.count)))
        }
        #expect(hasher.finalizeHex() == SHA256.hex(data))
    }
}
