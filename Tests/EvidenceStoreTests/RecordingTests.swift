import Foundation
import Testing

@testable import EvidenceStore

@Suite struct ClaimRecordingTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
        try fixture.addBasics()
    }

    @Test func aClaimKeepsItsSourcesWithLocatorsAndItsNeeds() throws {
        let detail = try store.reader.claimDetail(key: "island.clock-offset.closed")
        #expect(detail.claim.label == .measured)
        #expect(detail.sources.map(\.fullURL) == [StoreFixture.techTalk + "?time=94"])
        #expect(detail.sources.map(\.locator) == ["?time=94"])
        let standby = try store.reader.claimDetail(key: "standby.either-display")
        #expect(standby.needs.map(\.capability) == ["standby"])
        #expect(
            standby.needs.first?.lackedBy == [
                "iPhone Duo simulator, as of the newest record: iPhone Duo simulator lacks standby (Xcode 27.1 Release Notes)"
            ])
    }

    @Test func fragmentLocatorsResolveToTheirSource() throws {
        try store.addSource(
            SourceDraft(
                url: "https://developer.apple.com/design/human-interface-guidelines/live-activities",
                title: "HIG: Live Activities", publisher: "Apple", kind: .hig, updated: "2026-10-13"))
        try store.editClaim(
            key: "bars.overflow",
            ClaimChanges(addSources: ["https://developer.apple.com/design/human-interface-guidelines/live-activities#StandBy"]))
        #expect(try store.reader.claimDetail(key: "bars.overflow").sources.map(\.locator) == ["#StandBy"])
    }

    @Test func addingRecordsTheInitialLabelInTheHistory() throws {
        let history = try store.reader.claimDetail(key: "bars.overflow").history
        #expect(history.count == 1)
        #expect(history.first?.oldLabel == nil)
        #expect(history.first?.newLabel == "unverified")
        #expect(history.first?.changedBy == "writer")
    }

    @Test func aDuplicateKeyIsRefused() throws {
        #expect(throws: EvidenceError.alreadyExists(kind: "claim", value: "bars.overflow")) {
            try store.addClaim(
                ClaimDraft(key: "bars.overflow", statement: "x", document: "d", area: "a", label: .sourced), by: "w")
        }
    }

    @Test func anUnknownSourceOrCapabilityWritesNothing() throws {
        let before = try fixture.count("claims")
        #expect(throws: EvidenceError.self) {
            try store.addClaim(
                ClaimDraft(
                    key: "new.claim", statement: "x", document: "d", area: "a", label: .sourced,
                    sources: ["https://example.com/missing"]), by: "w")
        }
        #expect(throws: EvidenceError.self) {
            try store.addClaim(
                ClaimDraft(key: "new.claim", statement: "x", document: "d", area: "a", label: .sourced, needs: ["standbye"]),
                by: "w")
        }
        #expect(try fixture.count("claims") == before)
        #expect(try fixture.count("label_history") == before)
    }

    @Test func anUnknownCapabilitySuggestsTheClosest() throws {
        do {
            try store.editClaim(key: "bars.overflow", ClaimChanges(addNeeds: ["standbye"]))
            Issue.record("must fail")
        } catch let error as EvidenceError {
            #expect(error == .notFound(kind: "capability", value: "standbye", suggestions: ["standby"]))
        }
    }

    @Test func badKeysAndEmptyTextsAreRefused() throws {
        for key in ["", "has space", "-leading", "ünïcode", String(repeating: "k", count: 201)] {
            #expect(throws: EvidenceError.self, "\(key)") {
                try store.addClaim(ClaimDraft(key: key, statement: "x", document: "d", area: "a", label: .sourced), by: "w")
            }
        }
        #expect(throws: EvidenceError.self) {
            try store.addClaim(ClaimDraft(key: "ok.key", statement: "  ", document: "d", area: "a", label: .sourced), by: "w")
        }
        #expect(throws: EvidenceError.self) {
            try store.addClaim(
                ClaimDraft(key: "ok.key", statement: "x", document: "d", area: "a", label: .sourced, asOf: "20 October"),
                by: "w")
        }
    }

    @Test func anUnknownKeyIsNamedWithTheClosestKeys() throws {
        #expect(throws: EvidenceError.notFound(kind: "claim", value: "island.clock-ofset.closed", suggestions: ["island.clock-offset.closed"])) {
            _ = try store.reader.claimDetail(key: "island.clock-ofset.closed")
        }
    }

    @Test func editingChangesFieldsAndLinks() throws {
        try store.editClaim(
            key: "bars.overflow",
            ClaimChanges(
                statement: "New statement.", area: "Toolbars", asOf: .some("2026-10-20"),
                addSources: [StoreFixture.techTalk + "?time=336"], addNeeds: ["app-extension"]))
        var detail = try store.reader.claimDetail(key: "bars.overflow")
        #expect(detail.claim.statement == "New statement.")
        #expect(detail.claim.area == "Toolbars")
        #expect(detail.claim.asOf == "2026-10-20")
        #expect(detail.sources.map(\.locator) == ["?time=336"])
        #expect(detail.needs.map(\.capability) == ["app-extension"])
        try store.editClaim(
            key: "bars.overflow",
            ClaimChanges(asOf: .some(nil), removeSources: [StoreFixture.techTalk + "?time=336"], removeNeeds: ["app-extension"]))
        detail = try store.reader.claimDetail(key: "bars.overflow")
        #expect(detail.claim.asOf == nil)
        #expect(detail.sources.isEmpty)
        #expect(detail.needs.isEmpty)
    }

    @Test func aFailedEditChangesNothing() throws {
        #expect(throws: EvidenceError.self) {
            try store.editClaim(
                key: "bars.overflow", ClaimChanges(statement: "Changed.", removeSources: [StoreFixture.techTalk]))
        }
        #expect(try store.reader.claim(key: "bars.overflow").statement == "App items collapse into the overflow menu.")
        #expect(throws: EvidenceError.self) {
            try store.editClaim(key: "bars.overflow", ClaimChanges())
        }
    }

    @Test func relabellingAppendsWhoWhenAndWhy() throws {
        try store.relabelClaim(key: "bars.overflow", to: .measured, reason: "seen on the simulator", by: "qa-ana")
        let history = try store.reader.claimDetail(key: "bars.overflow").history
        #expect(history.map(\.newLabel) == ["unverified", "measured"])
        #expect(history.last?.oldLabel == "unverified")
        #expect(history.last?.changedBy == "qa-ana")
        #expect(history.last?.reason == "seen on the simulator")
        #expect(try store.reader.claim(key: "bars.overflow").label == .measured)
        #expect(throws: EvidenceError.self) {
            try store.relabelClaim(key: "bars.overflow", to: .measured, reason: "again", by: "qa-ana")
        }
        #expect(throws: EvidenceError.self) {
            try store.relabelClaim(key: "bars.overflow", to: .sourced, reason: " ", by: "qa-ana")
        }
    }

    @Test func theLabelHistoryIsAppendOnly() throws {
        #expect(throws: DatabaseError.self) {
            try store.database.execute("UPDATE label_history SET reason = 'rewritten'")
        }
        #expect(throws: DatabaseError.self) {
            try store.database.execute("DELETE FROM label_history")
        }
    }
}

@Suite struct SourceAndEnvironmentTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
        try fixture.addBasics()
    }

    @Test func sourcesAreValidated() throws {
        #expect(throws: EvidenceError.alreadyExists(kind: "source", value: StoreFixture.techTalk)) {
            try store.addSource(SourceDraft(url: StoreFixture.techTalk, title: "t", publisher: "p", kind: .video))
        }
        for url in ["ftp://example.com/x", "example.com", "https://exa mple.com"] {
            #expect(throws: EvidenceError.self, "\(url)") {
                try store.addSource(SourceDraft(url: url, title: "t", publisher: "p", kind: .doc))
            }
        }
        #expect(throws: EvidenceError.self) {
            try store.addSource(SourceDraft(url: "https://example.com/a", title: "t", publisher: "p", kind: .doc, published: "2026-13-01"))
        }
        #expect(throws: EvidenceError.invalidValue(field: "source kind", value: "blog", expected: SourceKind.acceptedValues)) {
            _ = try SourceKind(parsing: "blog")
        }
    }

    @Test func aSourceShowsWhoCitesIt() throws {
        let detail = try store.reader.sourceDetail(url: StoreFixture.techTalk)
        #expect(detail.citations.map { $0.0 + $0.1 } == ["island.clock-offset.closed?time=94"])
        let notes = try store.reader.sourceDetail(url: StoreFixture.releaseNotes)
        #expect(notes.lacks == ["iPhone Duo simulator lacks standby"])
    }

    @Test func lacksNeedAKnownCapabilityAndOneWitness() throws {
        #expect(throws: EvidenceError.self) {
            try store.addLack(
                LackDraft(kind: .simulator, model: "iPhone Duo", capability: "standby", evidence: .source(url: StoreFixture.releaseNotes)))
        }
        #expect(throws: EvidenceError.self) {
            try store.addLack(
                LackDraft(kind: .simulator, model: "iPhone Duo", capability: "teleport", evidence: .document("x")))
        }
        try store.addLack(
            LackDraft(
                kind: .simulator, model: "iPhone Duo", toolBuild: "27A9275", capability: "app-extension",
                evidence: .document("duo-system-surfaces"), note: "most app extensions can't run"))
        let list = Tabular(try store.reader.capabilityList())
        let lacked = list.rows.map { $0[3].description }
        #expect(
            lacked == [
                "iPhone Duo simulator lacks app-extension from Xcode build 27A9275 (reported in duo-system-surfaces)",
                "iPhone Duo simulator lacks standby (Xcode 27.1 Release Notes)",
            ])
    }

    @Test func environmentsListWhatTheyLack() throws {
        try store.startRun(RunDraft(environment: StoreFixture.duoSimulator, tester: "qa"))
        try store.addLack(
            LackDraft(kind: .device, model: "iPhone 16", capability: "app-extension", evidence: .document("notes")))
        let table = Tabular(try store.reader.environmentList())
        #expect(
            table.columns == ["id", "kind", "model", "os", "os_build", "tool", "tool_build", "current", "lacks", "decided_by"])
        #expect(table.rows.map { $0[2].description } == ["iPhone 16", "iPhone Duo"])
        #expect(table.rows[1][8] == .text("standby"))
        #expect(
            table.rows[1][9]
                == .text("standby: the newest record at or before Xcode build 27A9275 says: lacks standby from the first "
                    + "Xcode build (Xcode 27.1 Release Notes)"))
        // A record of a model no environment has yet: what it says.
        #expect(table.rows[0][8] == .text("lacks app-extension"))
    }

    @Test func theSameEnvironmentIsRecordedOnce() throws {
        let first = try store.environmentID(StoreFixture.duoSimulator)
        let second = try store.environmentID(StoreFixture.duoSimulator)
        #expect(first == second)
        var other = StoreFixture.duoSimulator
        other.osBuild = "23B85"
        #expect(try store.environmentID(other) != first)
    }

    @Test func theOSAndBuildsAreParsedAndChecked() throws {
        let spec = try EnvironmentSpec(
            kind: .device, model: "iPhone Duo", os: "iOS 27.1", osBuild: "23B85", xcode: "27.1", xcodeBuild: "27A9275")
        #expect(spec.description == "iPhone Duo device, iOS 27.1 (23B85), Xcode 27.1 (27A9275)")
        #expect(throws: EvidenceError.self) {
            _ = try EnvironmentSpec(kind: .device, model: "iPhone Duo", os: "27.1", osBuild: nil, xcode: "27.1", xcodeBuild: nil)
        }
        #expect(throws: EvidenceError.self) {
            _ = try EnvironmentSpec(kind: .device, model: "iPhone Duo", os: "iOS 27.1", osBuild: "23b85", xcode: nil, xcodeBuild: nil)
        }
        #expect(throws: EvidenceError.self) {
            _ = try EnvironmentSpec(kind: .device, model: " ", os: "iOS 27.1", osBuild: nil, xcode: nil, xcodeBuild: nil)
        }
    }
}

@Suite struct LoggingTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
        try fixture.addBasics()
    }

    func observation(_ key: String = "island.clock-offset.closed", _ outcome: Outcome = .pass, date: String? = "2026-10-20")
        -> Observation
    {
        Observation(claimKey: key, outcome: outcome, posture: .closed, checkedAt: date)
    }

    @Test func aResultWithMeasurementsIsLoggedInANewRun() throws {
        var seen = observation()
        seen.measurements = [try MeasurementDraft(parsing: "status-bar clock y=171pt from 87pt")]
        seen.note = "Settings in front"
        let logged = try store.log(seen, run: .matching(StoreFixture.duoSimulator, tester: "ana"))
        #expect(logged.startedRun)
        #expect(logged.run.startedAt == "2026-10-20")
        let table = Tabular(try store.reader.measurementList(MeasurementFilter(claimKey: "island.clock-offset.closed")))
        #expect(table.rows.count == 1)
        #expect(table.rows[0][2] == .real(171))
        #expect(table.rows[0][3] == .real(87))
        #expect(table.rows[0][4] == .real(84))
        #expect(table.rows[0][5] == .text("pt"))
        #expect(table.rows[0][6] == .text("closed"))
    }

    @Test func theRunOfTheSameEnvironmentTesterAndDayIsReused() throws {
        let first = try store.log(observation(), run: .matching(StoreFixture.duoSimulator, tester: "ana"))
        let sameDay = try store.log(
            observation("bars.overflow", date: "2026-10-20T15:00:00Z"), run: .matching(StoreFixture.duoSimulator, tester: "ana"))
        #expect(!sameDay.startedRun)
        #expect(sameDay.run.id == first.run.id)
        let otherTester = try store.log(observation(), run: .matching(StoreFixture.duoSimulator, tester: "ben"))
        #expect(otherTester.startedRun)
        let otherDay = try store.log(observation(date: "2026-10-21"), run: .matching(StoreFixture.duoSimulator, tester: "ana"))
        #expect(otherDay.startedRun)
        var device = StoreFixture.duoSimulator
        device.kind = .device
        let otherEnvironment = try store.log(observation(), run: .matching(device, tester: "ana"))
        #expect(otherEnvironment.startedRun)
        #expect(try fixture.count("runs") == 4)
    }

    @Test func anExistingRunIsFoundByNumberUUIDOrPrefix() throws {
        let run = try store.startRun(RunDraft(environment: StoreFixture.duoSimulator, tester: "ana", startedAt: "2026-10-20"))
        for reference in [String(run.id), run.uuid, String(run.uuid.prefix(8)), run.uuid.uppercased()] {
            let logged = try store.log(observation(), run: .existing(reference))
            #expect(logged.run.id == run.id, "\(reference)")
        }
        #expect(throws: EvidenceError.self) {
            try store.log(observation(), run: .existing("999"))
        }
    }

    @Test func aBadClaimWritesNoRunAndNoResult() throws {
        #expect(throws: EvidenceError.self) {
            try store.log(observation("island.nope"), run: .matching(StoreFixture.duoSimulator, tester: "ana"))
        }
        #expect(try fixture.count("runs") == 0)
        #expect(try fixture.count("results") == 0)
        #expect(try fixture.count("environments") == 0)
    }

    @Test func attachmentsAreKeptRelativeToTheStoreWithTheirDigest() throws {
        try fixture.folder.write("shots/closed.png", Data([1, 2, 3]))
        var seen = observation()
        seen.attachments = ["shots/closed.png"]
        try store.log(seen, run: .matching(StoreFixture.duoSimulator, tester: "ana"), workingFolder: fixture.folder.url.path)
        let table = Tabular(try store.reader.attachmentList())
        #expect(table.rows.count == 1)
        #expect(table.rows[0][0] == .text("shots/closed.png"))
        #expect(table.rows[0][1] == .text("image/png"))
        #expect(table.rows[0][2] == .integer(3))
        #expect(table.rows[0][3] == .text(SHA256.hex(Data([1, 2, 3]))))
        #expect(try store.verifyAttachments().problems.isEmpty)

        try fixture.folder.write("shots/closed.png", Data([1, 2, 4]))
        #expect(try store.verifyAttachments().problems.map(\.kind) == [.changed])
        try FileManager.default.removeItem(atPath: fixture.folder.path("shots/closed.png"))
        #expect(try store.verifyAttachments().problems.map(\.kind) == [.vanished])
        #expect(try StoreCheck.run(store).ok == false)
    }

    @Test func linksMissingFilesAndTheStoreItselfAreRefused() throws {
        let outside = try TemporaryFolder()
        let elsewhere = try outside.write("secret.png", Data([9]))
        try fixture.folder.write("real.png", Data([1]))
        try FileManager.default.createSymbolicLink(
            atPath: fixture.folder.path("link.png"), withDestinationPath: fixture.folder.path("real.png"))
        try FileManager.default.createSymbolicLink(
            atPath: fixture.folder.path("escape"), withDestinationPath: outside.url.path)
        for path in ["link.png", "missing.png", "../no-such.png", fixture.folder.url.path] {
            var seen = observation()
            seen.attachments = [path]
            #expect(throws: EvidenceError.self, "\(path)") {
                try store.log(seen, run: .matching(StoreFixture.duoSimulator, tester: "ana"), workingFolder: fixture.folder.url.path)
            }
        }
        #expect(try fixture.count("results") == 0)
        #expect(try fixture.count("attachments") == 0)
        // Files outside the folder, however named, are copied in, named by their SHA-256.
        for path in [elsewhere, "escape/secret.png"] {
            var seen = observation()
            seen.attachments = [path]
            try store.log(seen, run: .matching(StoreFixture.duoSimulator, tester: "ana"), workingFolder: fixture.folder.url.path)
        }
        #expect(try fixture.count("attachments") == 2)
        #expect(FileManager.default.contents(atPath: fixture.folder.path("attachments/" + SHA256.hex(Data([9])) + ".png")) == Data([9]))
        #expect(try store.verifyAttachments().problems.isEmpty)
    }
}

@Suite struct MeasurementParsingTests {
    @Test func acceptedForms() throws {
        let joined = try MeasurementDraft(parsing: "status-bar clock y=171pt from 87pt")
        #expect(joined == MeasurementDraft(name: "status-bar clock y", value: 171, unit: .pt, baseline: 87))
        #expect(joined.delta == 84)
        #expect(joined.summary == "87 pt → 171 pt (Δ +84 pt)")
        let apart = try MeasurementDraft(parsing: "clock y = 128 pt from 34 at open-wide")
        #expect(apart == MeasurementDraft(name: "clock y", value: 128, unit: .pt, baseline: 34, posture: .openWide))
        #expect(try MeasurementDraft(parsing: "inset=84pt") == MeasurementDraft(name: "inset", value: 84, unit: .pt))
        #expect(try MeasurementDraft(parsing: "width=-0.5 %").value == -0.5)
        #expect(try MeasurementDraft(parsing: "launch=350ms").unit == .ms)
        #expect(try MeasurementDraft(parsing: "width=867pt from 951pt").summary == "951 pt → 867 pt (Δ -84 pt)")
    }

    @Test func badNumbersAndUnitsShowTheAcceptedForm() throws {
        for text in [
            "no equals sign", "=171pt", "clock=", "clock=abc pt", "clock=1e5pt", "clock=171", "clock=171 parsecs",
            "clock=171pt from", "clock=171pt from 87mm", "clock=171pt at sideways", "clock=171pt extra", "clock=1,5pt",
            "clock=171PT",
        ] {
            do {
                _ = try MeasurementDraft(parsing: text)
                Issue.record("'\(text)' must be refused")
            } catch let error as EvidenceError {
                #expect(error.description.contains(text), "\(error)")
                #expect(error.category == .usage)
            }
        }
        do {
            _ = try MeasurementDraft(parsing: "clock=171 parsecs")
        } catch let error as EvidenceError {
            #expect(error.description.contains("NAME=VALUE UNIT"))
            #expect(error.description.contains("pt, px, mm"))
        }
    }
}

@Suite struct VocabularyTests {
    @Test func invalidValuesListTheAcceptedOnes() throws {
        #expect(throws: EvidenceError.invalidValue(field: "label", value: "guessed", expected: "one of: measured, unverified, not-published, sourced")) {
            _ = try Label(parsing: "guessed")
        }
        #expect(throws: EvidenceError.invalidValue(field: "result", value: "ok", expected: "one of: pass, fail, blocked, inconclusive, skipped")) {
            _ = try Outcome(parsing: "ok")
        }
        #expect(throws: EvidenceError.invalidValue(field: "posture", value: "tent", expected: "one of: closed, open, open-wide, book, portrait, landscape")) {
            _ = try Posture(parsing: "tent")
        }
        #expect(try Label(parsing: "Not-Published") == .notPublished)
    }

    @Test func datesAreISO8601() throws {
        #expect(try Timestamp.parse("2026-10-20", field: "date") == "2026-10-20")
        #expect(try Timestamp.parse("2026-10-20T14:03:00Z", field: "date") == "2026-10-20T14:03:00Z")
        #expect(try Timestamp.parse("2026-10-20T14:03:00+02:00", field: "date") == "2026-10-20T12:03:00Z")
        #expect(try Timestamp.parse("2026-10-20T00:30:00.250-01:00", field: "date") == "2026-10-20T01:30:00Z")
        for bad in ["20 October 2026", "2026-02-30", "2026-10-20T25:00:00Z", "2026-10-20T10:00:00", "10/20/2026", ""] {
            #expect(throws: EvidenceError.self, "\(bad)") {
                _ = try Timestamp.parse(bad, field: "date")
            }
        }
        #expect(throws: EvidenceError.self) {
            _ = try Timestamp.parseDay("2026-10-20T10:00:00Z", field: "as-of date")
        }
    }

    /// The recording time of a result: the store's moment to the microsecond, and nothing like it.
    @Test func aRecordingTimeIsAMomentToTheMicrosecond() {
        for good in ["2026-10-20T14:03:00.000000Z", "2028-02-29T23:59:59.999999Z", "0001-01-01T00:00:00.000000Z"] {
            #expect(Timestamp.isMicroseconds(good), "\(good)")
        }
        for bad in [
            "2026-10-20T14:03:00.00000Z", "2026-10-20T14:03:00.0000000Z", "2026-10-20 14:03:00.000000Z",
            "2026-10-20T14:03:00,000000Z", "2026-10-20T14:03:00.00000aZ", "2026-10-20T14:03:00.000000z",
            "2026-10-20T24:03:00.000000Z", "2026-10-20T14:60:00.000000Z", "2026-02-30T14:03:00.000000Z",
            "2100-02-29T00:00:00.000000Z", "0000-01-01T00:00:00.000000Z", "2026-10-20T14:03:00Z", "",
        ] {
            #expect(!Timestamp.isMicroseconds(bad), "\(bad)")
        }
    }

    @Test func offsetsCarryAcrossDaysMonthsYearsAndLeapDays() throws {
        #expect(try Timestamp.parse("2026-01-01T00:30:00+01:00", field: "date") == "2025-12-31T23:30:00Z")
        #expect(try Timestamp.parse("2025-12-31T23:30:00-01:00", field: "date") == "2026-01-01T00:30:00Z")
        #expect(try Timestamp.parse("2028-03-01T01:00:00+02:00", field: "date") == "2028-02-29T23:00:00Z")
        #expect(try Timestamp.parse("2100-03-01T01:00:00+02:00", field: "date") == "2100-02-28T23:00:00Z")
        #expect(try Timestamp.parse("2000-02-29t12:00:00z", field: "date") == "2000-02-29T12:00:00Z")
        #expect(try Timestamp.parse(" 2026-10-20 14:03:00Z ", field: "date") == "2026-10-20T14:03:00Z")
        for bad in ["2100-02-29", "2026-10-20T14:03:00.Z", "2026-10-20T14:03:00+2:00", "2026-10-20T14:03:00+24:00", "2026-13-01"] {
            #expect(throws: EvidenceError.self, "\(bad)") {
                _ = try Timestamp.parse(bad, field: "date")
            }
        }
    }

    @Test func theCalendarArithmeticAgreesWithFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        var generator = SystemRandomNumberGenerator()
        // Every day from 1900 to 2200, and random seconds across four centuries.
        for days in Int64(-25_567)...Int64(84_000) {
            let (year, month, day) = Timestamp.civil(fromDays: days)
            #expect(Timestamp.days(year: year, month: month, day: day) == days)
        }
        for _ in 0..<2_000 {
            let seconds = Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator)
            let ours = Timestamp.format(secondsSinceEpoch: seconds)
            #expect(ours == formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))), "\(seconds)")
            #expect((try? Timestamp.parse(ours, field: "date")) == ours)
        }
    }
}
