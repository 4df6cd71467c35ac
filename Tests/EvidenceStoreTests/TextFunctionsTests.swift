import Foundation
import Testing

@testable import EvidenceStore

/// What replaced Foundation's full module for text, paths and errors reads
/// as Foundation did: each compared with Foundation's own, which the tests may use.
@Suite struct TextFunctionsTests {
    static let texts = [
        "", " ", "\t a b \t", "\u{00A0}x\u{2003}", "\n x \r\n", "a\r\nb", "é", "a; b;; c", "; x ;", "\u{2028}y\u{85}", "x\u{0301} ",
    ]

    @Test func trimmingReadsAsFoundations() {
        for text in Self.texts {
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(
                text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
        }
    }

    @Test func replacingAndSplittingReadAsFoundations() {
        for text in Self.texts {
            for (target, replacement) in [("\n", " "), (";", "|"), ("b", ""), ("\r\n", "\n"), (" ", "  ")] {
                #expect(
                    text.replacingEvery(target, with: replacement) == text.replacingOccurrences(of: target, with: replacement),
                    "\(text.debugDescription) \(target.debugDescription)")
            }
            for separator in ["; ", ";", "\n", "ab"] {
                #expect(text.pieces(separatedBy: separator) == text.components(separatedBy: separator), "\(text.debugDescription)")
            }
        }
        #expect("ab".padded(to: 4) == "ab  " && "abcde".padded(to: 4) == "abcde")
    }

    @Test func pathsReadAsNSStringReadsThem() {
        for path in ["/a/b", "/a/b/", "b", "/a", "/", "a/b.PNG", "a/.hidden", "a.b/c", "x.tar.gz", "", "//a//b"] {
            let ns = path as NSString
            #expect(PathText.name(of: path) == ns.lastPathComponent, "\(path)")
            #expect(PathText.fileExtension(of: path) == ns.pathExtension, "\(path)")
        }
        // As NSString's deletingLastPathComponent reads them (which traps on
        // some, such as "b", in Swift 6.3.1's Foundation on Linux).
        let folders = ["/a/b": "/a", "/a/b/": "/a", "b": "", "/a": "/", "/": "/", "a/b.PNG": "a", "a.b/c": "a.b", "": ""]
        for (path, folder) in folders {
            #expect(PathText.folder(of: path) == folder, "\(path)")
        }
        #expect(PathText.expandingTilde("~/x", home: "/home/q/") == "/home/q/x")
        #expect(PathText.expandingTilde("~", home: "/home/q") == "/home/q")
        #expect(PathText.expandingTilde("a/~", home: "/home/q") == "a/~")
        #expect(ThisProcess.homeFolder(environment: ["HOME": "/h"]) == "/h")
        #expect(ThisProcess.homeFolder(environment: [:]) != nil)
    }

    @Test func errorsAreInTheSystemsWords() throws {
        #expect(SystemCall.words(for: SystemError(code: ENOENT)) == "No such file or directory")
        do {
            try Data().write(to: URL(fileURLWithPath: "/nonexistent-folder/file"))
            Issue.record("written")
        } catch {
            #expect(SystemCall.words(for: error) == "No such file or directory")
        }
    }
}
