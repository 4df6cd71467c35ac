import Foundation
import Testing

/// `evidence completions`: each shell, started in tmux as a person's terminal
/// with the script loaded as its help says, completes a command, a
/// subcommand, an option and the option's value on Tab, and passes over the
/// value of an option that takes one (issue 46).
@Suite struct CompletionsEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// Types each piece, then Tab, and expects the whole line on the screen.
    private func complete(in terminal: Tmux, _ pieces: [String], shows line: String) throws {
        for piece in pieces {
            try terminal.type(piece, then: ["Tab"])
            Thread.sleep(forTimeInterval: 0.3)
        }
        let shown = try terminal.shows(line, seconds: 10)
        let screen = try terminal.screen()
        #expect(shown, "\(screen)")
        try terminal.type("", then: ["C-u"])
    }

    private func check(shell command: [String], loading: String) throws {
        let path = EvidenceBinary.url.deletingLastPathComponent().path + ":/usr/bin:/bin"
        let terminal = try Tmux(folder: folder, command: command, environment: ["PATH": path, "HOME": folder.url.path])
        defer { terminal.close() }
        try terminal.type(loading, then: ["Enter"])
        Thread.sleep(forTimeInterval: 1)
        try complete(in: terminal, ["evidence cl", "a", "--la", "mea"], shows: "evidence claim add --label measured")
        try complete(in: terminal, ["evidence --store other.sqlite claim li"], shows: "evidence --store other.sqlite claim list")
        try complete(in: terminal, ["evidence completions f"], shows: "evidence completions fish")
    }

    @Test(.enabled(if: ExternalTool.tmux.shouldRun)) func bashCompletesCommandsOptionsAndValues() throws {
        try check(shell: ["bash", "--norc", "--noprofile"], loading: "source <(evidence completions bash)")
    }

    @Test(.enabled(if: ExternalTool.tmux.shouldRun && ExternalTool.zsh.shouldRun)) func zshCompletesCommandsOptionsAndValues() throws {
        try check(shell: ["zsh", "-f"], loading: "autoload -U compinit && compinit -u; source <(evidence completions zsh)")
    }

    @Test(.enabled(if: ExternalTool.tmux.shouldRun && ExternalTool.fish.shouldRun)) func fishCompletesCommandsOptionsAndValues() throws {
        try check(shell: ["fish", "--no-config"], loading: "evidence completions fish | source")
    }

    @Test func anUnknownShellIsNamed() throws {
        let result = try EvidenceBinary.run(["completions", "tcsh"])
        #expect(result.status == 64 || result.status == 65, "\(result.status)")
        #expect(result.stderr.contains("tcsh") && result.stderr.contains("bash"), "\(result.stderr)")
    }
}
