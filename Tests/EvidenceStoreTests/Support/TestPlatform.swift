import Foundation

/// What the tests need of the operating system beyond what Foundation gives
/// on both platforms, with the Linux and macOS forms side by side (the
/// library's own calls are in Sources/EvidenceStore/Platform).
enum TestPlatform {
    /// Whether the process has stopped itself (SIGSTOP): its state letter is
    /// "T", read from /proc/PID/stat on Linux and from ps(1) on macOS.
    static func isStopped(_ pid: Int32) -> Bool {
        #if os(Linux)
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            return stat[stat.index(close, offsetBy: 2)] == "T"
        #else
            let ps = Process()
            ps.executableURL = URL(fileURLWithPath: "/bin/ps")
            ps.arguments = ["-o", "stat=", "-p", String(pid)]
            let out = Pipe()
            ps.standardOutput = out
            guard (try? ps.run()) != nil else { return false }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            ps.waitUntilExit()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("T")
        #endif
    }
}

/// A program some tests drive as a person would (cmark-gfm renders the
/// published Markdown, tmux is the terminal of the guided session): found on
/// `PATH`. Where it is missing the tests that need it are skipped with a
/// line saying so, unless `EVIDENCE_REQUIRE_TOOLS=1` (which .ci/run sets,
/// after installing them): then they run, and fail for want of it.
struct ExternalTool: Sendable {
    let name: String
    let installed: String

    static let cmark = ExternalTool(name: "cmark-gfm", installed: "Debian's cmark-gfm; on a Mac, brew install cmark-gfm")
    static let tmux = ExternalTool(name: "tmux", installed: "Debian's tmux; on a Mac, brew install tmux")
    static let zsh = ExternalTool(name: "zsh", installed: "Debian's zsh; a Mac has it")
    static let fish = ExternalTool(name: "fish", installed: "Debian's fish; on a Mac, brew install fish")

    /// Set by .ci/run: every tool is there, and a test never skips.
    static var required: Bool { ProcessInfo.processInfo.environment["EVIDENCE_REQUIRE_TOOLS"] == "1" }

    var path: String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        return folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    var shouldRun: Bool {
        if path == nil && !Self.required {
            print("Skipping the tests that need \(name): it is not on PATH (\(installed)).")
        }
        return path != nil || Self.required
    }
}
