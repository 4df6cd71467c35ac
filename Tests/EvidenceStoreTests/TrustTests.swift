import Foundation
import Testing


/// "Never lose a logged result", proven on the built binary: concurrent
/// writers, readers during writes, kill -9 during an import, damaged and
/// hostile files, injection into reports, and a full disk. Sizes are small
/// enough for CI; EVIDENCE_SOAK=1 makes them larger for a soak run.
@Suite(.serialized) struct TrustTests {
    static let soak = ProcessInfo.processInfo.environment["EVIDENCE_SOAK"] == "1"

    let folder: TemporaryFolder
    let store: String

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        #expect(try EvidenceBinary.run(["init", "--store", store]).status == 0)
        #expect(try EvidenceBinary.run(["seed", "--store", store]).status == 0)
    }

    func query(_ sql: String, store path: String? = nil) throws -> String {
        let result = try EvidenceBinary.run(["query", "--store", path ?? store, "--format", "csv", sql])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").dropFirst().joined(separator: "\n")
    }

    func checkIsOK(_ path: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let check = try EvidenceBinary.run(["check", "--store", path ?? store])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
    }

    // MARK: - 1 and 2: concurrent writers, and readers while they write

    /// Runs `writers` loops at once, each logging `count` results, one process per result.
    func logConcurrently(writers: Int, count: Int, alongside readers: Int = 0) throws -> (writes: [ProcessResult], reads: [ProcessResult]) {
        let writes = ConcurrentResults()
        let reads = ConcurrentResults()
        let done = DoneFlag()
        DispatchQueue.concurrentPerform(iterations: writers + readers) { worker in
            if worker < writers {
                for index in 0..<count {
                    writes.append(Result {
                        try EvidenceBinary.run([
                            "log", "deep-links.closed-and-open", "--result", index % 5 == 0 ? "fail" : "pass",
                            "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275",
                            "--tester", "qa", "--date", "2026-11-01", "--note", "writer \(worker) result \(index)",
                            "--measure", "offset=\(index)pt from 87pt", "--store", store,
                        ])
                    })
                }
                done.finishOne()
            } else {
                repeat {
                    reads.append(Result { try EvidenceBinary.run(["report", "--store", store]) })
                    reads.append(Result { try EvidenceBinary.run(["untested", "--store", store]) })
                } while done.count < writers
            }
        }
        return (try writes.values.map { try $0.get() }, try reads.values.map { try $0.get() })
    }

    @Test func concurrentWritersLoseNoResult() throws {
        let writers = 8
        let count = Self.soak ? 1000 : 200
        let (writes, _) = try logConcurrently(writers: writers, count: count)
        #expect(writes.count == writers * count)
        #expect(writes.allSatisfy { $0.status == 0 }, "\(writes.first { $0.status != 0 }?.stderr ?? "")")
        #expect(!writes.contains { $0.stderr.contains("locked") || $0.stderr.contains("busy") })
        #expect(try query("SELECT count(*) FROM results WHERE note LIKE 'writer %'") == String(writers * count))
        #expect(try query("SELECT count(DISTINCT note) FROM results WHERE note LIKE 'writer %'") == String(writers * count))
        #expect(try query("SELECT count(*) FROM measurements WHERE name = 'offset'") == String(writers * count))
        // Same environment, tester and day: every process found the one run, none made a second.
        #expect(try query("SELECT count(DISTINCT run_id) FROM results WHERE note LIKE 'writer %'") == "1")
        try checkIsOK()
    }

    @Test func reportsRunWhileWritersWrite() throws {
        let (writes, reads) = try logConcurrently(writers: 4, count: Self.soak ? 300 : 40, alongside: 2)
        #expect(writes.allSatisfy { $0.status == 0 })
        #expect(reads.count >= 2)
        #expect(reads.allSatisfy { $0.status == 0 }, "\(reads.first { $0.status != 0 }?.stderr ?? "")")
        #expect(reads.filter { $0.stdout.hasPrefix("# Evidence report\n") }.count == reads.count / 2)
        try checkIsOK()
    }

    @Test func backupCopiesAConsistentStoreWhileOthersWrite() throws {
        let copies = ConcurrentResults()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            if worker == 0 {
                for index in 0..<40 {
                    copies.append(Result {
                        try EvidenceBinary.run([
                            "log", "bars.share-column.overflow", "--result", "pass", "--simulator", "iPhone Duo", "--os",
                            "iOS 27.1", "--xcode", "27.1", "--note", "during backup \(index)", "--store", store,
                        ])
                    })
                }
            } else {
                for index in 0..<5 {
                    copies.append(Result { try EvidenceBinary.run(["backup", folder.path("copy-\(index).sqlite"), "--store", store]) })
                }
            }
        }
        #expect(try copies.values.allSatisfy { try $0.get().status == 0 })
        for index in 0..<5 {
            try checkIsOK(folder.path("copy-\(index).sqlite"))
            let counted = Int(try query("SELECT count(*) FROM results", store: folder.path("copy-\(index).sqlite"))) ?? -1
            #expect(counted >= 15 && counted <= 55)
        }
    }

    // MARK: - 3: kill -9 during an import

    @Test func anImportKilledAtAnyMomentIsWhollyPresentOrWhollyAbsent() throws {
        let export = folder.url.appendingPathComponent("big")
        let results = Self.soak ? 200_000 : 20_000
        try SyntheticExport.write(to: export, claims: 500, runs: 40, results: results)
        let empty = folder.path("empty.sqlite")
        #expect(try EvidenceBinary.run(["init", "--store", empty]).status == 0)

        // How long a whole import takes, to kill within it.
        let timed = folder.path("timed.sqlite")
        try FileManager.default.copyItem(atPath: empty, toPath: timed)
        let start = Date()
        #expect(try EvidenceBinary.run(["import", export.path, "--store", timed]).status == 0)
        let duration = Date().timeIntervalSince(start)
        #expect(try query("SELECT count(*) FROM results", store: timed) == String(results))

        var outcomes: [String: Int] = [:]
        for attempt in 0..<30 {
            let target = folder.path("killed-\(attempt).sqlite")
            try FileManager.default.copyItem(atPath: empty, toPath: target)
            let process = Process()
            process.executableURL = EvidenceBinary.url
            process.arguments = ["import", export.path, "--store", target]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(Double.random(in: 0...(duration * 1.1)) * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let counts = try query(
                "SELECT (SELECT count(*) FROM claims) || ' ' || (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM results) || ' ' || (SELECT count(*) FROM measurements)",
                store: target)
            #expect(counts == "0 0 0 0" || counts == "500 40 \(results) \(results)", "attempt \(attempt): \(counts)")
            outcomes[counts == "0 0 0 0" ? "absent" : "present", default: 0] += 1
            try checkIsOK(target)
            try? FileManager.default.removeItem(atPath: target)
        }
        #expect(outcomes.values.reduce(0, +) == 30)
        // Most kills land before the commit; a run where none did would not test anything.
        #expect(outcomes["absent", default: 0] > 0, "\(outcomes)")
    }

    // MARK: - 4: damaged and foreign stores, through the binary

    @Test func damagedAndForeignStoresGetTheirExitCodeAndStayUntouched() throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: store))
        let truncated = try folder.write("truncated.sqlite", data.prefix(data.count / 3))
        data.replaceSubrange(16..<18, with: [0x00, 0x07])
        let header = try folder.write("header.sqlite", data)
        let newer = folder.path("newer.sqlite")
        #expect(try EvidenceBinary.run(["init", "--store", newer]).status == 0)
        let raw = try SQLiteShell.run(newer, "PRAGMA user_version = 99;")
        #expect(raw.status == 0)
        let foreign = folder.path("foreign.sqlite")
        #expect(try SQLiteShell.run(foreign, "CREATE TABLE t (x); INSERT INTO t VALUES (1);").status == 0)
        let cases: [(String, Int32, String)] = [
            (try folder.write("zero.sqlite", Data()), 65, "empty"),
            (try folder.write("text.sqlite", "just some notes\n"), 65, "text file"),
            (try folder.write("picture.sqlite", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 1, count: 64))), 65, "PNG"),
            (truncated, 65, "truncated"), (header, 65, "damaged"), (foreign, 65, "another application"),
            (newer, 65, "newer than this evidence supports"), (folder.path("missing.sqlite"), 66, "no store at"),
        ]
        for (path, code, fragment) in cases {
            let before = FileManager.default.fileExists(atPath: path) ? try fileDigest(path) : ""
            for command in [["claim", "list"], ["log", "bars.share-column.overflow", "--result", "pass", "--run", "1"], ["report"]] {
                let result = try EvidenceBinary.run(command + ["--store", path])
                #expect(result.status == code, "\(path) \(command): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                #expect(result.stderr.contains(fragment), "\(result.stderr)")
            }
            let after = FileManager.default.fileExists(atPath: path) ? try fileDigest(path) : ""
            #expect(after == before, "\(path) must be left byte-identical")
        }
    }

    // MARK: - 5: hostile input files

    @Test func hostileFilesAreRejectedWithoutWritingOrCrashing() throws {
        let deepJSON = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let xml: [(String, String)] = [
            ("laughs.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\"><!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\"><!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">]>\n<testsuites name=\"&lol3;\"/>\n"),
            ("external.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE t [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<testsuites><testsuite name=\"&xxe;\"/></testsuites>\n"),
            ("doctype.xml", "<!DOCTYPE html>\n<testsuites/>\n"),
            ("truncated.xml", "<testsuites><testsuite name=\"a\"><testcase name=\"b\" time=\"0.1\"><failure message=\"x\">"),
            ("deep.xml", "<testsuites>" + String(repeating: "<testsuite>", count: 100_000) + String(repeating: "</testsuite>", count: 100_000) + "</testsuites>"),
            ("attribute.xml", "<testsuites><testsuite name=\"" + String(repeating: "A", count: 10 << 20) + "\"/></testsuites>"),
            ("nul.xml", "<testsuites>\u{0}</testsuites>"),
            ("deep.json", deepJSON),
            ("nul.json", "{\"testNodes\": [\u{0}]}"),
        ]
        var files = try xml.map { try folder.write($0.0, $0.1) }
        let invalid = folder.path("invalid-utf8.xml")
        try Data(Array("<testsuites name=\"".utf8) + [0xFF, 0xFE, 0xC0] + Array("\"/>".utf8)).write(to: URL(fileURLWithPath: invalid))
        files.append(invalid)
        let before = try query("SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM results)")
        for file in files {
            let result = try EvidenceBinary.run(["ingest", file, "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--store", store])
            #expect(result.status == 65, "\(file): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: \(file)"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }

        // The same attacks on the text format.
        let seedCopy = folder.url.appendingPathComponent("hostile-export")
        #expect(try EvidenceBinary.run(["export", seedCopy.path, "--store", store]).status == 0)
        let claims = seedCopy.appendingPathComponent("sources.jsonl")
        let original = try Data(contentsOf: claims)
        let attacks: [Data] = [
            Data(deepJSON.utf8), Data("{\"key\":\"a\u{0}b\"}\n".utf8), Data([0x7B, 0x22, 0x6B, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D, 0x0A]),
            Data(("{\"key\":\"" + String(repeating: "k", count: 10 << 20) + "\"}\n").utf8), Data([0x00, 0x0A]),
        ]
        for attack in attacks {
            try (original + attack).write(to: claims)
            let result = try EvidenceBinary.run(["import", seedCopy.path, "--store", store])
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.stderr.contains("sources.jsonl:"), "\(result.stderr)")
        }
        #expect(try query("SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM results)") == before)
        #expect(try query("SELECT count(*) FROM ingested_files") == "0")

        // Memory stays bounded: no child process of this suite grew past 300 MB.
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #expect(usage.ru_maxrss < 300 * 1024, "peak child resident size \(usage.ru_maxrss) KB")
        try checkIsOK()
    }

    // MARK: - 6: injection into the published Markdown

    @Test(.enabled(if: ExternalTool.cmark.shouldRun)) func valuesCannotInjectIntoAnyReport() throws {
        let hostile = "a | b\n| c | d |\n<script>alert(1)</script> <img src=x> [x](javascript:y) `code` **b** _i_ ~~s~~ https://evil.example\r\n# heading"
        // Names are one line (a line break in one is refused); free text may hold several.
        let name = hostile.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
        let run = { (arguments: [String]) throws in
            let result = try EvidenceBinary.run(arguments + ["--store", self.store], in: self.folder.url)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        try run(["source", "add", "https://example.com/x?a=1|2", "--title", name, "--publisher", name, "--kind", "article"])
        try run(["claim", "add", "hostile.claim", "--statement", hostile, "--document", "duo-system-surfaces", "--area", name,
                 "--label", "sourced", "--source", "https://example.com/x?a=1|2"])
        try run(["log", "hostile.claim", "--result", "fail", "--simulator", name, "--os", "iOS 27.1", "--xcode", "27.1",
                 "--note", hostile, "--measure", "x \(hostile.prefix(5).replacingOccurrences(of: "\n", with: " "))=1pt", "--tester", name])
        try run(["checklist", "mark", "surfaces.no-action-button", "--untested", "--reason", hostile])
        for command in [["report"], ["checklist"], ["sources"], ["report", "--document", "duo-system-surfaces"]] {
            let markdown = try EvidenceBinary.run(command + ["--store", store]).stdout
            let html = try CommonMark.html(markdown)
            for table in CommonMark.tables(html) {
                #expect(table.rows.allSatisfy { $0 == table.headerCells }, "\(command): a row with the wrong number of cells")
            }
            let tags = CommonMark.tagCounts(html)
            // A code span is the statement's own, which stays code.
            #expect(Set(tags.keys).isSubset(of: ["h1", "h2", "h3", "h4", "p", "table", "thead", "tbody", "tr", "th", "td", "a", "ul", "li", "code"]),
                "\(command): \(tags.keys.sorted())")
            #expect(!html.contains("href=\"javascript"), "\(command)")
            #expect(!html.contains("<h1>heading") && !html.contains("<h2>heading"), "\(command)")
            #expect(CommonMark.text(html).contains("<script>alert(1)</script>"), "\(command): the value still reads as text")
        }
        let report = try EvidenceBinary.run(["report", "--store", store]).stdout
        let tables = CommonMark.tables(try CommonMark.html(report))
        let claimRow = tables.flatMap(\.cellTexts).first { $0.first == "hostile.claim" }
        #expect(claimRow.map { CommonMark.text($0[1]) } == name.replacingOccurrences(of: "`code`", with: "<code>code</code>"))
    }

    // MARK: - 7: a full disk

    @Test func aFullDiskFailsWithExit74AndLeavesTheStoreConsistent() throws {
        let export = folder.url.appendingPathComponent("big")
        try SyntheticExport.write(to: export, claims: 200, runs: 10, results: 20_000)
        let size = try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int ?? 0
        let before = try query("SELECT (SELECT count(*) FROM claims) || ' ' || (SELECT count(*) FROM results)")

        // A file-size limit: every file may grow to the store's size plus 64 KiB.
        let blocks = (size + 65_536) / 512 + 1
        let limited = try ShellCommand.run(
            "ulimit -f \(blocks) && exec \"$0\" import \"$1\" --store \"$2\"", arguments: [EvidenceBinary.url.path, export.path, store])
        #expect(limited.status == 74, "\(limited.stderr)")
        #expect(limited.stderr.hasPrefix("Error: "))
        #expect(try query("SELECT (SELECT count(*) FROM claims) || ' ' || (SELECT count(*) FROM results)") == before)
        try checkIsOK()

        // A full filesystem, where the machine lets us mount a small tmpfs.
        let mountPoint = folder.url.appendingPathComponent("tmpfs").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mounted = try ShellCommand.run("mount -t tmpfs -o size=5m tmpfs \"$0\"", arguments: [mountPoint])
        guard mounted.status == 0 else { return }
        defer { _ = try? ShellCommand.run("umount \"$0\"", arguments: [mountPoint]) }
        let small = mountPoint + "/evidence.sqlite"
        #expect(try EvidenceBinary.run(["init", "--store", small]).status == 0)
        #expect(try EvidenceBinary.run(["seed", "--store", small]).status == 0)
        let full = try EvidenceBinary.run(["import", export.path, "--store", small])
        #expect(full.status == 74, "\(full.stderr)")
        #expect(try query("SELECT count(*) FROM results", store: small) == "15")
        try checkIsOK(small)
    }

    /// A store closed cleanly on a disk that then filled: opening it says the
    /// disk is full and names the folder, instead of "SQLite error 4874: disk
    /// I/O error" (issue 51), and leaves the store as it was.
    @Test func aFullDiskIsNamedWhenTheStoreOpens() throws {
        let mountPoint = folder.url.appendingPathComponent("full").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mounted = try ShellCommand.run("mount -t tmpfs -o size=5m tmpfs \"$0\"", arguments: [mountPoint])
        guard mounted.status == 0 else {
            print("A full disk on opening is not checked: this machine does not let the tests mount a tmpfs (\(mounted.stderr)).")
            return
        }
        defer { _ = try? ShellCommand.run("umount \"$0\"", arguments: [mountPoint]) }
        let small = mountPoint + "/evidence.sqlite"
        #expect(try EvidenceBinary.run(["init", "--store", small]).status == 0)
        #expect(try EvidenceBinary.run(["seed", "--store", small]).status == 0)
        _ = try ShellCommand.run("dd if=/dev/zero of=\"$0\" bs=1M count=10", arguments: [mountPoint + "/filler"])
        let digest = try fileDigest(small)
        let status = try EvidenceBinary.run(["status", "--store", small])
        #expect(status.status == 74, "\(status.stderr)")
        #expect(status.stderr.contains("\(mountPoint): is on a full disk"), "\(status.stderr)")
        #expect(!status.stderr.contains("4874"))
        #expect(try fileDigest(small) == digest)
    }
}

/// Counts workers that finished.
final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = 0

    func finishOne() {
        lock.lock()
        finished += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return finished
    }
}

/// The sqlite3 shell, to make files the way another application would.
enum SQLiteShell {
    static func run(_ path: String, _ sql: String) throws -> ProcessResult {
        try ShellCommand.run("sqlite3 \"$0\" \"$1\"", arguments: [path, sql])
    }
}

/// /bin/sh with positional arguments, so no path needs quoting.
enum ShellCommand {
    static func run(_ script: String, arguments: [String]) throws -> ProcessResult {
        try EvidenceBinary.run(["-c", script] + arguments, executable: URL(fileURLWithPath: "/bin/sh"))
    }
}
