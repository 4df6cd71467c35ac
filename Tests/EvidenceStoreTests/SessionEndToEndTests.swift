import Foundation
import Testing

@testable import EvidenceStore


/// A tester's sitting with the device: `evidence session`, driven in a real
/// terminal under tmux and through an answers file, on the seed store.
@Suite struct SessionEndToEndTests: BinarySession {
    let folder: TemporaryFolder
    let store: String
    let user = "qa"

    static let device = ["--device", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1"]

    init() throws {
        folder = try TemporaryFolder()
        store = folder.path("evidence.sqlite")
        try run(["init"])
        try run(["seed"])
    }

    func csv(_ sql: String) throws -> String {
        try run(["query", "--format", "csv", sql]).stdout
    }

    func needingDevice() throws -> [String] {
        try run(["untested", "--needs-device", "--format", "csv"]).stdout.split(separator: "\n").dropFirst()
            .map { String($0.split(separator: ",")[0]) }
    }

    /// What the sitting of the issue leaves: a pass with a measurement for the
    /// first StandBy claim, its second claim's failure retracted and then a
    /// skipped result, in one run on the device, and nothing else.
    func expectTheSitting(before: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let results = try csv(
            """
            SELECT c.key, r.result, r.note, e.kind, (SELECT count(*) FROM retractions AS x WHERE x.result_id = r.id) AS retracted
            FROM results AS r JOIN claims AS c ON c.id = r.claim_id JOIN environments AS e ON e.id = r.environment_id
            WHERE e.kind = 'device' AND e.model = 'iPhone Duo' AND e.os_version = '27.1' ORDER BY r.id
            """)
        #expect(
            results == """
                key,result,note,kind,retracted
                standby.background-tint,pass,Fills the screen with the tint.,device,0
                standby.either-display,fail,Only the outer display.,device,1
                standby.either-display,skipped,,device,0

                """, sourceLocation: sourceLocation)
        #expect(
            try csv("SELECT name, value, baseline, unit, posture FROM measurements WHERE result_id = (SELECT min(id) FROM results WHERE note LIKE 'Fills%')")
                == "name,value,baseline,unit,posture\nstatus-bar clock y,171,87,pt,\n", sourceLocation: sourceLocation)
        #expect(try csv("SELECT reason FROM retractions") == "reason\nundone in the guided session\n", sourceLocation: sourceLocation)
        #expect(
            try csv("SELECT count(DISTINCT r.run_id) AS runs FROM results AS r JOIN environments AS e ON e.id = r.environment_id WHERE e.kind = 'device' AND e.os_version = '27.1'")
                == "runs\n1\n", sourceLocation: sourceLocation)
        #expect(try needingDevice() == before.filter { $0 != "standby.background-tint" }, sourceLocation: sourceLocation)
        #expect(try run(["check"]).status == 0, sourceLocation: sourceLocation)
    }

    // MARK: In a terminal

    @Test(.enabled(if: ExternalTool.tmux.shouldRun)) func aSittingInATerminalLogsEachClaimAtOnceAndUndoes() throws {
        let before = try needingDevice()
        #expect(before.contains("standby.background-tint") && before.contains("standby.either-display"))
        let terminal = try Tmux(folder: folder, command: sessionCommand([]))
        defer { terminal.close() }
        let result = "result [p f b i s] [n]ext [u]ndo [q]uit [?]: "
        try terminal.answer(result, "n")  // controls.control-center-lock-screen
        try terminal.answer(result, "n")  // island.vertical.several-activities
        #expect(try terminal.shows("[3/7] standby.background-tint"))
        try terminal.answer(result, "?")
        try terminal.answer(result, "x")
        #expect(try terminal.shows("Error: invalid answer 'x'"))
        try terminal.answer(result, "p")
        try terminal.answer("empty for none): ", "sideways")
        #expect(try terminal.shows("Error: invalid posture 'sideways'"))
        try terminal.answer("empty for none): ", "")
        try terminal.answer("(empty when done): ", "status-bar clock y=171")
        #expect(try terminal.shows("Error: invalid measurement"))
        try terminal.answer("(empty when done): ", "status-bar clock y=171pt from 87pt")
        try terminal.answer("(empty when done): ", "")
        try terminal.answer("note (empty for none): ", "Fills the screen with the tint.")
        try terminal.answer("attachment path (empty when done): ", "missing.png")
        #expect(try terminal.shows("missing.png: no such file"))
        try terminal.answer("attachment path (empty when done): ", "")
        // Written at once: the store has it while the session still asks.
        try terminal.waitFor(result)
        #expect(try csv("SELECT count(*) AS n FROM results WHERE note LIKE 'Fills%'") == "n\n1\n")
        try terminal.answer(result, "f")  // standby.either-display
        try terminal.answer("empty for none): ", "")
        try terminal.answer("(empty when done): ", "")
        try terminal.answer("note (empty for none): ", "Only the outer display.")
        try terminal.answer("attachment path (empty when done): ", "")
        try terminal.answer(result, "u")
        #expect(try terminal.shows("Undone: retracted result"))
        #expect(try terminal.shows("it is asked again.\n\n[4/7] standby.either-display"))
        try terminal.answer(result, "s")
        try terminal.answer("note (empty for none): ", "")
        try terminal.answer("attachment path (empty when done): ", "")
        try terminal.answer(result, "q")
        let screen = try terminal.waitForExit()
        #expect(screen.contains("logged: standby.background-tint pass, standby.either-display skipped"), "\(screen)")
        #expect(screen.contains("undone: standby.either-display"))
        #expect(screen.contains("passed over: controls.control-center-lock-screen, island.vertical.several-activities"))
        #expect(screen.contains("still needing a device: controls.control-center-lock-screen, island.vertical.several-activities, standby.either-display"))
        try expectTheSitting(before: before)
    }

    @Test(.enabled(if: ExternalTool.tmux.shouldRun)) func aSessionKilledMidAnswerKeepsWhatWasAnsweredAndResumes() throws {
        let terminal = try Tmux(folder: folder, command: sessionCommand(["--area", "StandBy"]))
        defer { terminal.close() }
        let result = "result [p f b i s] [n]ext [u]ndo [q]uit [?]: "
        try terminal.waitFor(result)
        #expect(try terminal.screen(escapes: true).contains("\u{1B}["), "colours on a terminal")
        try terminal.answer(result, "p")
        try terminal.answer("empty for none): ", "closed")
        try terminal.answer("(empty when done): ", "")
        try terminal.answer("note (empty for none): ", "")
        try terminal.answer("attachment path (empty when done): ", "")
        try terminal.answer(result, "f")
        try terminal.answer("empty for none): ", "open")
        try terminal.answer("(empty when done): ", "status-bar clock y=34pt")
        try terminal.waitFor("(empty when done): ")
        // kill -9 in the middle of the second claim's answer.
        #expect(kill(try terminal.processID(), SIGKILL) == 0)
        _ = try terminal.waitForExit()
        #expect(try csv("SELECT c.key, r.result, r.posture FROM results AS r JOIN claims AS c ON c.id = r.claim_id JOIN environments AS e ON e.id = r.environment_id WHERE e.kind = 'device' ORDER BY r.id")
            == "key,result,posture\nstandby.background-tint,pass,closed\n")
        #expect(try csv("SELECT count(*) AS n FROM measurements WHERE value = 34") == "n\n0\n")
        #expect(try run(["check"]).status == 0)
        // The same environment, tester and day resumes the run and passes the answered claim by.
        let again = try Tmux(folder: folder, command: sessionCommand(["--area", "StandBy"]), environment: ["NO_COLOR": "1"])
        defer { again.close() }
        try again.waitFor(result)
        #expect(!(try again.screen(escapes: true).contains("\u{1B}[")), "no colour with NO_COLOR")
        let screen = try again.screen()
        #expect(screen.contains("2 claims to check. Resuming run"), "\(screen)")
        #expect(screen.contains("already answered today: standby.background-tint"))
        #expect(screen.contains("[1/2] standby.either-display"))
        try again.answer(result, "q")
        _ = try again.waitForExit()
    }

    func sessionCommand(_ extra: [String]) -> [String] {
        [EvidenceBinary.url.path, "session"] + Self.device + extra
    }

    /// A listing on a terminal fits its width: long cells are cut with "…";
    /// CSV keeps every value whole (issue 46: tables ran past the screen).
    @Test(.enabled(if: ExternalTool.tmux.shouldRun)) func aListingFitsTheTerminal() throws {
        let terminal = try Tmux(folder: folder, command: [EvidenceBinary.url.path, "claim", "list"], width: 80)
        defer { terminal.close() }
        let lines = try terminal.waitForExit().split(separator: "\n").filter { !$0.hasPrefix("Pane is dead") }
        #expect(lines.count > 10)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        #expect(lines.contains { $0.contains("…") }, "\(lines)")
        let whole = try run(["claim", "list", "--format", "csv"]).stdout
        #expect(!whole.contains("…") && whole.split(separator: "\n").contains { $0.count > 80 })
    }

    // MARK: Through an answers file

    @Test func theSameSittingThroughAnAnswersFile() throws {
        let before = try needingDevice()
        try folder.write(
            "answers.txt",
            """
            # The StandBy claims, on the device.
            claim: controls.control-center-lock-screen
            result: next

            claim: standby.background-tint
            result: pass
            measure: status-bar clock y=171pt from 87pt
            note: Fills the screen with the tint.

            claim: standby.either-display
            result: fail
            note: Only the outer display.

            undo

            claim: standby.either-display
            result: skipped

            quit

            """)
        let session = try run(["session"] + Self.device + ["--answers", "answers.txt"])
        #expect(session.stdout.contains("logged: standby.background-tint pass, standby.either-display skipped"), "\(session.stdout)")
        #expect(session.stdout.contains("passed over: controls.control-center-lock-screen\n"))
        #expect(!session.stdout.contains("\u{1B}"), "no colour when the output is not a terminal")
        try expectTheSitting(before: before)
    }

    /// The claims a session on the device asks, from a session answering none.
    private func claimsAsked() throws -> [String] {
        try folder.write("empty.txt", "")
        let session = try run(["session"] + Self.device + ["--tester", "nobody", "--answers", "empty.txt"])
        let line = try #require(session.stdout.split(separator: "\n").first { $0.contains("not answered: ") })
        return line.components(separatedBy: "not answered: ")[1].components(separatedBy: ", ")
    }

    @Test func twoSessionsAtOnceNeverAnswerAClaimTwiceInOneRun() throws {
        let asked = try claimsAsked()
        #expect(asked.count == 7)
        for attempt in 0..<5 {
            let file = "answers-\(attempt).txt"
            try folder.write(file, asked.map { "claim: \($0)\nresult: pass\n" }.joined(separator: "\n"))
            let arguments = ["session"] + asked + Self.device + ["--tester", "tester\(attempt)", "--answers", file]
            let first = try EvidenceBinary.start(arguments, environment: ["EVIDENCE_STORE": store], in: folder.url)
            let second = try EvidenceBinary.start(arguments, environment: ["EVIDENCE_STORE": store], in: folder.url)
            let results = [first.finish(), second.finish()]
            for result in results where result.status != 0 {
                #expect(
                    result.stderr.contains("a session is open already for") || result.stderr.contains("already answered in today's run"),
                    "\(result.stderr)")
            }
            #expect(results.contains { $0.status == 0 })
            let counts = try csv(
                """
                SELECT c.key, count(*) AS n FROM results AS r JOIN claims AS c ON c.id = r.claim_id JOIN runs AS u ON u.id = r.run_id
                WHERE u.tester = 'tester\(attempt)' AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id)
                GROUP BY c.key ORDER BY c.key
                """)
            #expect(counts == "key,n\n" + asked.sorted().map { $0 + ",1\n" }.joined(), "attempt \(attempt): \(counts)")
        }
    }

    @Test func aSecondSessionIsRefusedNamingTheOpenOne() throws {
        try folder.write("answers.txt", "claim: standby.background-tint\nresult: pass\n")
        let environment = ["EVIDENCE_STORE": store, "USER": "qa", "EVIDENCE_FAULT_POINT": "session.started:stop"]
        let open = try EvidenceBinary.start(
            ["session", "standby.background-tint"] + Self.device + ["--tester", "qa", "--answers", "answers.txt"], environment: environment,
            in: folder.url)
        #expect(open.waitUntilStopped())
        let second = try run(["session", "standby.background-tint"] + Self.device + ["--tester", "qa", "--answers", "answers.txt"], expect: 64)
        #expect(second.stderr.contains("a session is open already for iPhone Duo"), "\(second.stderr)")
        #expect(second.stderr.contains("tester qa") && second.stderr.contains("process \(open.pid)"), "\(second.stderr)")
        // Another tester, or another device, is another session.
        try folder.write("empty.txt", "")
        let other = try EvidenceBinary.run(
            ["session"] + Self.device + ["--tester", "bea", "--answers", "empty.txt"], environment: ["EVIDENCE_STORE": store], in: folder.url)
        #expect(other.status == 0, "\(other.stderr)")
        open.resume()
        #expect(open.finish().status == 0)
        // Once it ended, the next one starts; the claim answered is not asked again.
        let next = try run(["session", "standby.background-tint"] + Self.device + ["--tester", "qa", "--answers", "answers.txt"])
        #expect(next.stdout.contains("Skipped standby.background-tint: run ") && next.stdout.contains("holds its answer already"), "\(next.stdout)")
    }

    /// A claim whose words changed since its answer today is checked again,
    /// in the same run, as `log` can (issue 46); the earlier answer stays
    /// with the earlier words.
    @Test func aClaimWithNewWordsIsCheckedAgainTheSameDay() throws {
        try folder.write("answers.txt", "claim: standby.background-tint\nresult: pass\n")
        try run(["session", "standby.background-tint"] + Self.device + ["--tester", "qa", "--answers", "answers.txt"])
        let same = try run(["session", "standby.background-tint"] + Self.device + ["--tester", "qa", "--answers", "answers.txt"])
        #expect(same.stdout.contains("Skipped standby.background-tint"), "\(same.stdout)")
        try run(["claim", "edit", "standby.background-tint", "--statement", "StandBy tints the background of a widget red at night."])
        try folder.write("answers.txt", "claim: standby.background-tint\nresult: fail\n")
        let again = try run(["session", "standby.background-tint"] + Self.device + ["--tester", "qa", "--answers", "answers.txt"])
        #expect(again.stdout.contains("logged: standby.background-tint fail"), "\(again.stdout)")
        let rows = try csv(
            """
            SELECT r.result, s.statement = c.statement AS current_words, count(DISTINCT r.run_id) AS runs
            FROM results AS r JOIN claims AS c ON c.id = r.claim_id JOIN claim_statements AS s ON s.id = r.claim_statement_id
            WHERE c.key = 'standby.background-tint' GROUP BY r.result ORDER BY r.result
            """)
        #expect(rows == "result,current_words,runs\nfail,1,1\npass,0,1\n", "\(rows)")
        // Answered for the new words, it is skipped again.
        let third = try run(["session", "standby.background-tint"] + Self.device + ["--tester", "qa", "--answers", "answers.txt"])
        #expect(third.stdout.contains("Skipped standby.background-tint"), "\(third.stdout)")
    }

    /// An answers file run again after it stopped part way (a crash, a
    /// quit) resumes: the blocks today's run holds are skipped, the rest
    /// logged, and no claim is answered twice (issue 45, point 10).
    @Test func anAnswersFileRunAgainResumesWhereItStopped() throws {
        let asked = try claimsAsked()
        let blocks = asked.prefix(3).map { "claim: \($0)\nresult: pass\n" }
        try folder.write("answers.txt", blocks[0] + "\n" + blocks[1] + "\nquit\n" + blocks[2])
        try run(["session"] + Self.device + ["--tester", "qa", "--answers", "answers.txt"])
        try folder.write("answers.txt", blocks.joined(separator: "\n"))
        let resumed = try run(["session"] + Self.device + ["--tester", "qa", "--answers", "answers.txt"])
        #expect(resumed.stdout.contains("Skipped \(asked[0])") && resumed.stdout.contains("Skipped \(asked[1])"), "\(resumed.stdout)")
        #expect(resumed.stdout.contains("logged: \(asked[2]) pass"), "\(resumed.stdout)")
        let counts = try csv(
            """
            SELECT c.key, count(*) AS n FROM results AS r JOIN claims AS c ON c.id = r.claim_id JOIN runs AS u ON u.id = r.run_id
            WHERE u.tester = 'qa' GROUP BY c.key ORDER BY c.key
            """)
        #expect(counts == "key,n\n" + asked.prefix(3).sorted().map { $0 + ",1\n" }.joined(), "\(counts)")
        // A claim twice in one file is still an error.
        try folder.write("twice.txt", blocks[0] + "\n" + blocks[0])
        let twice = try run(["session"] + Self.device + ["--tester", "qa", "--answers", "twice.txt"], expect: 65)
        #expect(twice.stderr.contains("is answered twice"), "\(twice.stderr)")
    }

    @Test func crlfAndOldMacAnswersFilesReadAsLFAndErrorsShowNoRawBreaks() throws {
        let lf = "claim: standby.background-tint\nresult: pass\nnote: Tinted.\n\nquit\n"
        try folder.write("answers.txt", "\u{FEFF}" + lf.replacingOccurrences(of: "\n", with: "\r\n"))
        let crlf = try run(["session"] + Self.device + ["--answers", "answers.txt"])
        #expect(crlf.stdout.contains("logged: standby.background-tint pass"), "\(crlf.stdout)")
        #expect(try csv("SELECT note FROM results WHERE note = 'Tinted.'") == "note\nTinted.\n")
        try folder.write("bad.txt", "claim: standby.either-display\rresult: pass\rthis line has no colon\r")
        let bad = try run(["session"] + Self.device + ["--answers", "bad.txt"], expect: 65)
        #expect(bad.stderr.contains("bad.txt:3: expected 'field: value', 'undo' or 'quit', found 'this line has no colon'"), "\(bad.stderr)")
        #expect(!bad.stderr.contains("\r"))
    }

    @Test func aBadAnswersFileIsRefusedWholeWithItsLine() throws {
        let before = try fileDigest(store)
        let cases: [(String, String)] = [
            ("claim: standby.presentation\nresult: pass\n\nclaim: standby.background-tint\nresult: pass\nposture: sideways\n",
             "answers.txt:6: invalid posture 'sideways'"),
            ("claim: standby.presentation\nresult: maybe\n", "answers.txt:2: invalid result 'maybe'"),
            ("claim: standby.presentation\nreslt: pass\n", "answers.txt:2: unknown field 'reslt'"),
            ("claim: bars.other-app-activity\nresult: pass\n", "answers.txt:1: bars.other-app-activity is not among the session's claims"),
            ("claim: standby.presentation\nnote: seen\n", "answers.txt:1: the block of standby.presentation has no 'result:'"),
            ("claim: standby.presentation\nresult: pass\nattach: ../outside.png\n", "answers.txt:3:"),
            ("claim: standby.presentation\nresult: pass\n\nclaim: standby.presentation\nresult: fail\n", "answered twice"),
            ("undo\n", "answers.txt:1: 'undo' with nothing logged before it"),
            ("result: pass\n", "answers.txt:1: a block starts with 'claim: KEY'"),
        ]
        for (text, message) in cases {
            try folder.write("answers.txt", text)
            let refused = try run(["session"] + Self.device + ["--answers", "answers.txt"], expect: 65)
            #expect(refused.stderr.contains(message), "\(text): \(refused.stderr)")
            #expect(try fileDigest(store) == before)
        }
        // Not on a terminal and no answers: a hint, not a hang.
        let hint = try run(["session"] + Self.device, expect: 64)
        #expect(hint.stderr.contains("give the answers in a file with --answers FILE"), "\(hint.stderr)")
        #expect(try fileDigest(store) == before)
    }

    @Test func aMeasurementTheClaimHadBeforeTakesItsUnitAndBaseline() throws {
        try folder.write("answers.txt", "claim: island.clock-offset.closed\nresult: pass\nmeasure: status-bar clock y=173\n")
        let session = try run(
            ["session", "--simulator", "iPhone Duo", "--os", "iOS 27.2", "--xcode", "27.2", "island.clock-offset.closed",
             "--answers", "answers.txt"])
        #expect(session.stdout.contains("latest: pass on iPhone Duo simulator, iOS 27.1, Xcode 27.1 (27A9275), 2026-10-20; status-bar clock y = 87 pt → 171 pt"), "\(session.stdout)")
        #expect(try csv("SELECT value, baseline, unit FROM measurements ORDER BY id DESC LIMIT 1") == "value,baseline,unit\n173,87,pt\n")
        // A claim named by a wrong key is refused, with the closest keys, and nothing is logged.
        let count = try csv("SELECT count(*) AS n FROM results")
        let wrong = try run(
            ["session", "--simulator", "iPhone Duo", "--os", "iOS 27.2", "--xcode", "27.2", "island.clock-offset.closed",
             "island.clock-ofset.open-wide", "--answers", "answers.txt"], expect: 65)
        #expect(wrong.stderr.contains("unknown claim 'island.clock-ofset.open-wide'; did you mean 'island.clock-offset.open-wide'"), "\(wrong.stderr)")
        #expect(try csv("SELECT count(*) AS n FROM results") == count)
        let prompt = MeasurementPrompt(name: "status-bar clock y", unit: .pt, baseline: 87, lastValue: 171)
        #expect(prompt.label == "status-bar clock y [pt], from 87")
        #expect(try prompt.draft(from: "173") == MeasurementDraft(name: "status-bar clock y", value: 173, unit: .pt, baseline: 87))
        #expect(try prompt.draft(from: "173pt from 90pt") == MeasurementDraft(name: "status-bar clock y", value: 173, unit: .pt, baseline: 90))
        #expect(throws: EvidenceError.self) { try prompt.draft(from: "tall") }
    }
}

/// A terminal under tmux, on a server of its own, running one command.
final class Tmux {
    private let socket: String
    private let folder: TemporaryFolder
    private let executable: String

    init(folder: TemporaryFolder, command: [String], environment: [String: String] = [:], width: Int = 220) throws {
        guard let executable = ExternalTool.tmux.path else {
            throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "tmux is missing; .ci/run installs it"])
        }
        self.executable = executable
        self.folder = folder
        socket = folder.path("tmux-\(UUID().uuidString.prefix(8))")
        // A terminal with colours, whatever this process was started with.
        let variables = ["EVIDENCE_STORE": folder.path("evidence.sqlite"), "USER": "qa", "TERM": "xterm-256color", "NO_COLOR": ""]
            .merging(environment) { $1 }
        let line = "cd " + Self.quote(folder.url.path) + " && exec env "
            + variables.sorted { $0.key < $1.key }.map { $0.key + "=" + Self.quote($0.value) }.joined(separator: " ") + " "
            + command.map(Self.quote).joined(separator: " ")
        // The server this starts lives on, and would keep open whatever it
        // inherits: pipes of this process, some of them another test's, whose
        // reader would then wait for ever. The shell closes every descriptor
        // but the standard three (sent to /dev/null) before it runs tmux (bash:
        // dash cannot name a descriptor above 9).
        let start = try EvidenceBinary.run(
            ["-c", "for fd in /dev/fd/*; do n=${fd##*/}; [ \"$n\" -gt 2 ] && eval \"exec $n>&-\"; done 2>/dev/null; "
                + "exec \"$2\" -S \"$0\" -f /dev/null new-session -d -x \(width) -y 60 \"$1\" \\; "
                + "set-option remain-on-exit on </dev/null >/dev/null 2>&1", socket, line, executable],
            executable: URL(fileURLWithPath: "/bin/bash"))
        guard start.status == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "tmux new-session exited \(start.status)"])
        }
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try EvidenceBinary.run(
            ["-S", socket, "-f", "/dev/null"] + arguments, executable: URL(fileURLWithPath: executable))
        guard result.status == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "tmux \(arguments): \(result.stderr)"])
        }
        return result.stdout
    }

    /// The pane's text, its history included, without trailing blank lines;
    /// with `escapes`, with the escape sequences of its colours.
    func screen(escapes: Bool = false) throws -> String {
        var text = try tmux(["capture-pane", "-p", "-J", "-S", "-2000"] + (escapes ? ["-e"] : []))
        while text.hasSuffix("\n\n") { text.removeLast() }
        return text
    }

    /// Whether `text` appears on the pane within a while: the program may
    /// still be answering what was typed.
    func shows(_ text: String, seconds: Double = 20) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try screen().contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Waits until the last line of the pane ends with `prompt`.
    func waitFor(_ prompt: String, seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let lines = try screen().split(separator: "\n", omittingEmptySubsequences: false)
            let last = lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.trimmingCharacters(in: .whitespaces)
            if let last, last.hasSuffix(prompt.trimmingCharacters(in: .whitespaces)) {
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no prompt '\(prompt)' in:\n\(try screen())"])
    }

    /// Waits for `prompt`, then types `text` and Enter.
    func answer(_ prompt: String, _ text: String) throws {
        try waitFor(prompt)
        let before = try screen()
        if !text.isEmpty { try tmux(["send-keys", "-l", text]) }
        try tmux(["send-keys", "Enter"])
        // The answer is taken once the screen moves on.
        let deadline = Date().addingTimeInterval(20)
        while try screen() == before, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// Types `text` (as it is, no Enter), then presses each of `keys` (tmux's names: Tab, Enter).
    func type(_ text: String, then keys: [String] = []) throws {
        // "--" ends tmux's options, so text may start with a dash.
        if !text.isEmpty { try tmux(["send-keys", "-l", "--", text]) }
        for key in keys { try tmux(["send-keys", key]) }
    }

    /// Appends every byte the pane's program writes to `file`, overwritten
    /// lines (a progress line) included.
    func record(to file: String) throws {
        try tmux(["pipe-pane", "-o", "cat >> " + Self.quote(file)])
    }

    /// The process in the pane (the command, through exec).
    func processID() throws -> pid_t {
        pid_t(try tmux(["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Waits for the command to end; its last screen.
    func waitForExit(seconds: Double = 20) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try tmux(["display-message", "-p", "#{pane_dead}"]).hasPrefix("1") { return try screen() }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the command did not end:\n\(try screen())"])
    }

    /// Ends the terminal: the program in its pane, then its server, each
    /// killed by its id while it still runs. `kill-server` left both running
    /// where the test process ignores SIGHUP (they inherit that), one server
    /// for every test. A pane's program that has ended is left alone (its id
    /// may be another process's by now).
    func close() {
        let ids = ((try? tmux(["display-message", "-p", "#{pid} #{pane_pid} #{pane_dead}"])) ?? "")
            .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard ids.count == 3, let server = pid_t(ids[0]), server > 0 else { return }
        if ids[2] != "1", let pane = pid_t(ids[1]), pane > 0 { kill(pane, SIGKILL) }
        kill(server, SIGKILL)
    }
}
