import Foundation
import Testing

@testable import EvidenceStore

/// Apple's tools run with limits that hold (issue 45, point 5): a tool that
/// hangs, or leaves a child holding its output, is stopped with everything it
/// started when its time is up; one that floods is stopped at the size limit
/// while it prints, not after.
@Suite struct ChildProcessTests {
    @Test func aToolThatLeavesAChildHoldingItsOutputIsStoppedOnTime() throws {
        let started = Date()
        #expect(throws: ChildProcess.Failure.timedOut(seconds: 1)) {
            _ = try ChildProcess.run("/bin/sh", ["-c", "sleep 100 & echo started; sleep 100"], limit: 1 << 20, seconds: 1)
        }
        #expect(Date().timeIntervalSince(started) < 10, "stopped at its limit, not when the child ended")
    }

    @Test func aToolThatFloodsIsStoppedWhileItPrints() throws {
        let started = Date()
        var kept = 0
        #expect(throws: ChildProcess.Failure.tooMuchOutput(limit: 1_000_000)) {
            _ = try ChildProcess.run("/bin/sh", ["-c", "yes evidence"], limit: 1_000_000, seconds: 60) { chunk in kept += chunk.count }
        }
        #expect(kept <= 1_000_000, "no more than the limit was taken")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func aBundleWhoseToolFloodsIsRefusedAndLeavesNothingInTheTemporaryFolder() throws {
        let folder = try TemporaryFolder()
        let xcrun = try folder.write("xcrun", "#!/bin/sh\nexec yes '{\"testNodes\": []}'\n")
        chmod(xcrun, 0o755)
        _ = try folder.write("Build.xcresult/Info.plist", "<plist/>\n")
        let temporary = folder.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let store = folder.path("evidence.sqlite")
        _ = try EvidenceBinary.run(["init", "--store", store])
        let flooded = try EvidenceBinary.run(
            ["ingest", "Build.xcresult", "--no-detect", "--max-size", "1000000", "--simulator", "iPhone Duo", "--os", "iOS 27.1",
             "--store", store],
            environment: ["EVIDENCE_XCRUN": xcrun, "TMPDIR": temporary], in: folder.url)
        #expect(flooded.status != 0)
        #expect(flooded.stderr.contains("printed more than 1000000 bytes; it was stopped"), "\(flooded.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
    }
}
