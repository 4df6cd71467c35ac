import Foundation

/// Writes a synthetic store in the text format: many claims, runs and results,
/// for tests that need a large import.
enum SyntheticExport {
    static func write(to folder: URL, claims: Int, runs: Int, results: Int) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func file(_ name: String, _ lines: [String]) throws {
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: folder.appendingPathComponent(name))
        }
        try file("format.json", ["{\"format\":\"evidence-store\",\"version\":1}"])
        try file("claims.jsonl", (0..<claims).map {
            "{\"key\":\"synthetic.claim-\(String(format: "%06d", $0))\",\"document\":\"synthetic\",\"area\":\"Area \($0 % 10)\",\"label\":\"measured\",\"statement\":\"Synthetic claim \($0).\"}"
        })
        var runLines: [String] = []
        var resultLines: [String] = []
        resultLines.reserveCapacity(results)
        for run in 0..<runs {
            let uuid = String(format: "00000000-0000-4000-8000-%012d", run)
            runLines.append(
                "{\"uuid\":\"\(uuid)\",\"started_at\":\"2026-10-\(String(format: "%02d", run % 28 + 1))\",\"environment\":{\"kind\":\"simulator\",\"model\":\"iPhone Duo\",\"os_name\":\"iOS\",\"os_version\":\"27.1\"}}")
            let count = results / runs + (run < results % runs ? 1 : 0)
            for n in 0..<count {
                let claim = (run * 7919 + n) % claims
                let outcome = n % 10 == 0 ? "fail" : "pass"
                resultLines.append(
                    "{\"run\":\"\(uuid)\",\"n\":\(n + 1),\"claim\":\"synthetic.claim-\(String(format: "%06d", claim))\",\"result\":\"\(outcome)\",\"checked_at\":\"2026-10-\(String(format: "%02d", run % 28 + 1))\",\"measurements\":[{\"name\":\"offset\",\"value\":\(n % 200),\"unit\":\"pt\",\"baseline\":87}]}")
            }
        }
        runLines.sort()
        try file("runs.jsonl", runLines)
        try file("results.jsonl", resultLines)
    }
}
