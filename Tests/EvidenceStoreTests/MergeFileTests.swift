import Foundation
import Testing

@testable import EvidenceStore

/// The merge driver on three versions of one file, record by record.
@Suite struct MergeFileTests {
    static let claimA = #"{"key":"a.one","document":"d","area":"A","label":"unverified","statement":"One."}"#
    static let claimB = #"{"key":"b.two","document":"d","area":"B","label":"unverified","statement":"Two."}"#

    func merge(_ base: [String], _ ours: [String], _ theirs: [String]) -> MergeFile.Outcome {
        func text(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }
        return MergeFile.merge(base: text(base), ours: text(ours), theirs: text(theirs), path: "claims/d.jsonl")
    }

    @Test func eachSidesChangesAndAdditionsAreKept() {
        let ours = Self.claimA.replacingOccurrences(of: "\"area\":\"A\"", with: "\"area\":\"Alpha\"")
        let theirs = Self.claimB.replacingOccurrences(of: "Two.", with: "Two words.")
        let added = #"{"key":"c.three","document":"d","area":"C","label":"sourced","statement":"Three."}"#
        let outcome = merge([Self.claimA, Self.claimB], [ours, Self.claimB], [Self.claimA, theirs, added])
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.text == ours + "\n" + theirs + "\n" + added + "\n", "in key order")
    }

    /// A link removed on one side (its unlink added beside it) merges with
    /// the other side's file unchanged, either way round: removals are only
    /// ever added (issue 46).
    @Test func anUnlinkMergesEitherWayRound() {
        let base = [
            #"{"run":"46ae06e0-6a29-4fe3-97cf-edc53345ad78","started_at":"2026-11-01T10:00:00Z","environment":{"kind":"simulator","model":"iPhone Duo","os_name":"iOS","os_version":"27.1","tool_name":"Xcode","tool_version":"27.1","tool_build":"27A9275"},"tester":"root"}"#,
            #"{"result":"8dd25f92-8dc3-4f9d-8cb5-6bfa754a49b7","claim":"bars.other-app-activity","statement":"32e015794358ad4fcc7bfef8583503d2632d6c9bdc4a7e2cad97b3db8fde8609","outcome":"fail","checked_at":"2026-11-01T10:00:00Z","recorded_at":"2026-12-05T07:22:36.015640Z"}"#,
            #"{"link":"561ec2e1-a279-4c73-ac88-4e87fc2c32c6","result":"8dd25f92-8dc3-4f9d-8cb5-6bfa754a49b7","url":"https://github.com/e/d/issues/1","by":"root","at":"2026-12-05T07:22:36Z"}"#,
            #"{"link":"bd5d4cba-0e70-4333-aed7-e8966fd6dc6a","result":"8dd25f92-8dc3-4f9d-8cb5-6bfa754a49b7","url":"https://github.com/e/d/issues/2","by":"root","at":"2026-12-05T07:22:36Z"}"#,
        ]
        let ours = base + [#"{"unlink":"4c32cb1f-bce1-4ef4-ab2a-d75e38188bb5","link":"bd5d4cba-0e70-4333-aed7-e8966fd6dc6a","by":"root","at":"2026-12-05T07:22:36Z","reason":"wrong"}"#]
        func text(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }
        for (a, b) in [(ours, base), (base, ours)] {
            let outcome = MergeFile.merge(base: text(base), ours: text(a), theirs: text(b), path: "runs/46ae06e0-6a29-4fe3-97cf-edc53345ad78.jsonl")
            #expect(outcome.conflicts.isEmpty, "\(outcome.conflicts)")
            #expect(outcome.text == text(ours))
        }
        // Two clones' corrections of the run's OS build: both kept, in time order.
        let mine = base + [#"{"correction":"0c32cb1f-bce1-4ef4-ab2a-d75e38188bb5","os_build":"24B85","by":"a","at":"2026-12-05T07:22:36Z","reason":"log"}"#]
        let yours = base + [#"{"correction":"9c32cb1f-bce1-4ef4-ab2a-d75e38188bb5","os_build":"24B90","by":"b","at":"2026-12-05T07:22:40Z","reason":"Settings"}"#]
        let merged = MergeFile.merge(base: text(base), ours: text(mine), theirs: text(yours), path: "runs/46ae06e0-6a29-4fe3-97cf-edc53345ad78.jsonl")
        #expect(merged.conflicts.isEmpty, "\(merged.conflicts)")
        #expect(merged.text == text(mine + [yours.last!]))
    }

    /// One clone retires a claim while another restores it after an earlier
    /// retirement: both records are kept, in time order, and the later one
    /// decides on every clone (issue 46).
    @Test func retirementsMergeInTimeOrder() {
        let base = [
            #"{"retirement":"1d0e2f3a-0000-4000-8000-000000000001","claim":"a.one","action":"retire","by":"a","at":"2026-12-05T07:00:00Z","reason":"dropped"}"#
        ]
        let restored = #"{"retirement":"2d0e2f3a-0000-4000-8000-000000000002","claim":"a.one","action":"restore","by":"b","at":"2026-12-05T08:00:00Z"}"#
        let other = #"{"retirement":"0d0e2f3a-0000-4000-8000-000000000003","claim":"b.two","action":"retire","by":"a","at":"2026-12-05T07:30:00Z","reason":"merged into a.one"}"#
        func text(_ lines: [String]) -> String { lines.map { $0 + "\n" }.joined() }
        for (ours, theirs) in [(base + [restored], base + [other]), (base + [other], base + [restored])] {
            let outcome = MergeFile.merge(base: text(base), ours: text(ours), theirs: text(theirs), path: "retirements.jsonl")
            #expect(outcome.conflicts.isEmpty, "\(outcome.conflicts)")
            #expect(outcome.text == text(base + [other, restored]))
        }
    }

    @Test func differentFieldsOfOneRecordMerge() {
        let ours = Self.claimA.replacingOccurrences(of: "\"area\":\"A\"", with: "\"area\":\"Alpha\"")
        let theirs = Self.claimA.replacingOccurrences(of: "One.", with: "One word.")
        let outcome = merge([Self.claimA], [ours], [theirs])
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.text == #"{"key":"a.one","document":"d","area":"Alpha","label":"unverified","statement":"One word."}"# + "\n")
    }

    @Test func documentsDefaultModelsAndClaimModelsMergeAsTheirOwnRecords() {
        let base = #"{"document":"d","models":["iPhone Duo"]}"#
        let ours = #"{"document":"d","models":["iPhone Duo","iPhone Duo Mini"]}"#
        let added = #"{"document":"e","models":["iPad Pro 13"]}"#
        let outcome = MergeFile.merge(
            base: base + "\n", ours: ours + "\n", theirs: base + "\n" + added + "\n", path: "documents.jsonl")
        #expect(outcome.conflicts.isEmpty)
        #expect(outcome.text == ours + "\n" + added + "\n")
        // Two ways: a conflict named as the document's, not a checklist's.
        let other = #"{"document":"d","models":["iPad Pro 13"]}"#
        let both = MergeFile.merge(base: base + "\n", ours: ours + "\n", theirs: other + "\n", path: "documents.jsonl")
        #expect(both.conflicts.first?.contains("document 'd'") == true, "\(both.conflicts)")
        // A claim's models and another field merge.
        let claimModels = Self.claimA.replacingOccurrences(of: "\"statement\":\"One.\"", with: "\"statement\":\"One.\",\"models\":[\"iPhone Duo\"]")
        let claimArea = Self.claimA.replacingOccurrences(of: "\"area\":\"A\"", with: "\"area\":\"Alpha\"")
        let claims = merge([Self.claimA], [claimModels], [claimArea])
        #expect(claims.conflicts.isEmpty)
        #expect(claims.text.contains("\"area\":\"Alpha\"") && claims.text.contains("\"models\":[\"iPhone Duo\"]"))
    }

    @Test func theLaterLabelWins() {
        let ours = Self.claimA.replacingOccurrences(
            of: "\"label\":\"unverified\"", with: "\"label\":\"measured\",\"labelled_at\":\"2026-11-02T10:00:00Z\"")
        let theirs = Self.claimA.replacingOccurrences(
            of: "\"label\":\"unverified\"", with: "\"label\":\"sourced\",\"labelled_at\":\"2026-11-02T11:00:00Z\"")
        #expect(merge([Self.claimA], [ours], [theirs]).text == theirs + "\n")
        #expect(merge([Self.claimA], [theirs], [ours]).text == theirs + "\n")
    }

    @Test func theSameFieldChangedTwoWaysIsAConflictBetweenMarkers() {
        let ours = Self.claimA.replacingOccurrences(of: "One.", with: "Uno.")
        let theirs = Self.claimA.replacingOccurrences(of: "One.", with: "Eins.")
        let outcome = merge([Self.claimA, Self.claimB], [ours, Self.claimB], [theirs, Self.claimB])
        #expect(outcome.conflicts == ["claims/d.jsonl: claim 'a.one' was changed both ways ('statement')"])
        #expect(outcome.text == "<<<<<<< ours\n\(ours)\n=======\n\(theirs)\n>>>>>>> theirs\n\(Self.claimB)\n")
    }

    @Test func aRemovalTakesUnlessTheOtherSideChangedTheRecord() {
        #expect(merge([Self.claimA, Self.claimB], [Self.claimB], [Self.claimA, Self.claimB]).text == Self.claimB + "\n")
        let changed = Self.claimA.replacingOccurrences(of: "One.", with: "Uno.")
        let outcome = merge([Self.claimA], [], [changed])
        #expect(outcome.conflicts.count == 1)
        #expect(outcome.text.contains("<<<<<<< ours\n=======\n\(changed)\n>>>>>>> theirs"))
    }

    @Test func theEarlierIngestionOfOneFileStands() {
        let run = "3e7a2c10-1d2e-8f00-8a00-000000000001"
        func header(_ at: String, tester: String) -> String {
            #"{"run":"\#(run)","started_at":"2026-11-02","environment":{"kind":"simulator","model":"iPhone Duo"},"tester":"\#(tester)","ingested_file":{"sha256":"\#(String(repeating: "a", count: 64))","file_name":"t.xml","format":"junit","test_count":1,"ingested_at":"\#(at)"}}"#
        }
        func result(_ recorded: String) -> String {
            #"{"result":"3e7a2c10-1d2e-8f00-8a00-000000000002","outcome":"pass","checked_at":"2026-11-02","recorded_at":"\#(recorded)","test_id":"T/test()"}"#
        }
        let early = [header("2026-11-02T09:00:00Z", tester: "ana"), result("2026-11-02T09:00:00.000001Z")]
        let late = [header("2026-11-02T11:00:00Z", tester: "ben"), result("2026-11-02T11:00:00.000001Z")]
        for (ours, theirs) in [(early, late), (late, early)] {
            let outcome = merge([], ours, theirs)
            #expect(outcome.conflicts.isEmpty)
            #expect(outcome.text == early.joined(separator: "\n") + "\n")
        }
    }

    /// Two clones that judged one result against different expected values
    /// merge without a conflict: the verdict and its note are derived, and
    /// every import judges the result again (issue 44, point 12).
    @Test func judgedVerdictsNeverConflict() {
        let head = #"{"run":"3e7a2c10-1d2e-8f00-8a00-000000000001","started_at":"2026-11-02","environment":{"kind":"simulator","model":"iPhone Duo"},"tester":"ana"}"#
        func judged(_ outcome: String, note: String?) -> String {
            #"{"result":"3e7a2c10-1d2e-8f00-8a00-000000000002","claim":"a.one","outcome":"\#(outcome)","checked_at":"2026-11-02","recorded_at":"2026-11-02T09:00:00.000001Z""#
                + (note.map { #","note":"\#($0)""# } ?? "") + #","measurements":[{"name":"y","value":173,"unit":"pt"}],"judged":true}"#
        }
        let base = [head, judged("pass", note: nil)]
        let ours = [head, judged("fail", note: "Outside the expected values: y: measured 173 pt, expected 171 ±1 pt.")]
        let theirs = [head, judged("fail", note: "Outside the expected values: y: measured 173 pt, expected 170 ±2 pt.")]
        let outcome = merge(base, ours, theirs)
        #expect(outcome.conflicts.isEmpty, "\(outcome.conflicts)")
        // A result whose measured value differs is no verdict: still a conflict.
        let edited = [head, judged("fail", note: "Outside the expected values: y: measured 173 pt, expected 171 ±1 pt.").replacingOccurrences(of: "173,", with: "175,")]
        #expect(!merge(base, edited, theirs).conflicts.isEmpty)
    }

    @Test func linesThatAreNotRecordsMakeTheWholeFileAConflict() {
        let outcome = MergeFile.merge(base: "", ours: "<<<<<<< ours\n", theirs: Self.claimA + "\n", path: "claims/d.jsonl")
        #expect(outcome.conflicts.count == 1)
        #expect(outcome.text.hasPrefix("<<<<<<< ours\n<<<<<<< ours\n=======\n"))
    }
}
