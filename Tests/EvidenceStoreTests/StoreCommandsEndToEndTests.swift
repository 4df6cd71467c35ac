import Foundation
import Testing

@testable import EvidenceStore

/// init, check, query and migrate --list, run through the built binary.
@Suite struct StoreCommandsEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func initCreatesThenSaysNothingChanged() throws {
        let path = folder.path("e.sqlite")
        let first = try EvidenceBinary.run(["init", "--store", path])
        #expect(first.status == 0)
        #expect(first.stderr == "Created store \(path) (schema version \(Migrator().latestVersion)).\n")
        let digest = try fileDigest(path)
        let second = try EvidenceBinary.run(["init"], environment: ["EVIDENCE_STORE": path])
        #expect(second.status == 0)
        #expect(second.stderr.contains("up to date"))
        #expect(try fileDigest(path) == digest)
    }

    @Test func initUsesTheCurrentFolderByDefault() throws {
        let result = try EvidenceBinary.run(["init"], in: folder.url)
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("evidence.sqlite")))
    }

    /// Run in a subfolder of the repository, a command finds the store in a
    /// folder above, as git finds a repository, and says which it used;
    /// `init` there makes one in the current folder.
    @Test func theStoreIsFoundInAFolderAbove() throws {
        #expect(try EvidenceBinary.run(["init"], in: folder.url).status == 0)
        #expect(try EvidenceBinary.run(["seed"], in: folder.url).status == 0)
        let deep = folder.url.appendingPathComponent("docs/guides")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let status = try EvidenceBinary.run(["status", "--format", "csv"], in: deep)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("duo-system-surfaces,yes,measured"), "\(status.stdout)")
        #expect(status.stderr.contains("Using the store \(folder.path("evidence.sqlite"))."), "\(status.stderr)")
        let made = try EvidenceBinary.run(["init"], in: deep)
        #expect(made.stderr.hasPrefix("Created store \(deep.path)/evidence.sqlite"), "\(made.stderr)")
    }

    /// `demo` removes its scratch store; with --store it keeps the one named.
    @Test func demoLeavesNothingBehindUnlessToldWhere() throws {
        let scratch = folder.url.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let demo = try EvidenceBinary.run(["demo"], environment: ["TMPDIR": scratch.path])
        #expect(demo.status == 0 && demo.stdout.hasPrefix("# Evidence report"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
        #expect(try EvidenceBinary.run(["demo", "--store", folder.path("kept.sqlite")]).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path("kept.sqlite")))
    }

    @Test func initRefusesAFolderThatDoesNotExist() throws {
        let result = try EvidenceBinary.run(["init", "--store", folder.path("no/such/folder/e.sqlite")])
        #expect(result.status == 74)
        #expect(result.stderr.contains("does not exist"))
    }

    @Test func checkReportsOk() throws {
        let path = folder.path("e.sqlite")
        try EvidenceBinary.run(["init", "--store", path])
        let result = try EvidenceBinary.run(["check", "--store", path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("ok    integrity_check"))
        #expect(result.stdout.contains("ok    foreign_key_check"))
        #expect(result.stdout.contains("ok    schema             version \(Migrator().latestVersion) of \(Migrator().latestVersion)"))
    }

    @Test func checkFailsOnBrokenForeignKeys() throws {
        let path = folder.path("e.sqlite")
        try EvidenceBinary.run(["init", "--store", path])
        var configuration = Database.Configuration()
        configuration.foreignKeys = false
        let raw = try Database(path: path, mode: .readWrite, configuration: configuration)
        try raw.execute(
            "INSERT INTO claim_capabilities (claim_id, capability_id) VALUES (41, 42)")
        raw.close()
        let result = try EvidenceBinary.run(["check", "--store", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL  foreign_key_check"))
    }

    @Test func queryWritesEveryFormat() throws {
        let path = folder.path("e.sqlite")
        try EvidenceBinary.run(["init", "--store", path])
        let sql = "SELECT 1 AS n, 'a,\"b\"' AS text, NULL AS missing, 2.5 AS real"
        let table = try EvidenceBinary.run(["query", "--store", path, sql])
        #expect(table.stdout == "n  text   missing  real\n-  -----  -------  ----\n1  a,\"b\"           2.5\n")
        let json = try EvidenceBinary.run(["query", "--store", path, "--format", "json", sql])
        #expect(json.stdout == "[\n  {\"n\": 1, \"text\": \"a,\\\"b\\\"\", \"missing\": null, \"real\": 2.5}\n]\n")
        let csv = try EvidenceBinary.run(["query", "--store", path, "--format=csv", sql])
        #expect(csv.stdout == "n,text,missing,real\n1,\"a,\"\"b\"\"\",,2.5\n")
    }

    @Test func queryRefusesWritesAndLeavesTheStore() throws {
        let path = folder.path("e.sqlite")
        try EvidenceBinary.run(["init", "--store", path])
        let digest = try fileDigest(path)
        for sql in [
            "DELETE FROM claims", "CREATE TABLE x (y)", "PRAGMA user_version = 5",
            "INSERT INTO capabilities (name, description) VALUES ('a', 'b')",
        ] {
            let result = try EvidenceBinary.run(["query", "--store", path, sql])
            #expect(result.status != 0, "\(sql)")
            #expect(result.stdout.isEmpty)
        }
        let bad = try EvidenceBinary.run(["query", "--store", path, "SELEC 1"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("SELEC"))
        #expect(try fileDigest(path) == digest)
    }

    @Test func queryCanReadTheViews() throws {
        let path = folder.path("e.sqlite")
        try EvidenceBinary.run(["init", "--store", path])
        for view in ["claim_state", "latest_results", "untested_claims", "claim_mismatches", "measurement_deltas"] {
            let result = try EvidenceBinary.run(["query", "--store", path, "SELECT * FROM \(view)"])
            #expect(result.status == 0, "\(view): \(result.stderr)")
        }
    }

    @Test func migrateListIsReadOnly() throws {
        let path = folder.path("e.sqlite")
        try EvidenceBinary.run(["init", "--store", path])
        let digest = try fileDigest(path)
        let result = try EvidenceBinary.run(["migrate", "--list", "--store", path, "--format", "csv"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("version,name,status,applied_at\n1,initial_schema,applied,"))
        #expect(try fileDigest(path) == digest)
    }

    @Test func theBinaryCopiedAloneStillCreatesAndMigratesAStore() throws {
        let copy = folder.url.appendingPathComponent("bin/evidence")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: EvidenceBinary.url, to: copy)
        let work = folder.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let created = try EvidenceBinary.run(["init"], in: work, executable: copy)
        #expect(created.status == 0, "\(created.stderr)")
        let checked = try EvidenceBinary.run(["check"], in: work, executable: copy)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        let listed = try EvidenceBinary.run(["migrate", "--list", "--format", "csv"], in: work, executable: copy)
        #expect(listed.stdout.split(separator: "\n").count == Migration.bundled.count + 1)
    }
}
