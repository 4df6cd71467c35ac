import Foundation
import Testing

@testable import EvidenceStore

/// What replaced Foundation's full module for text, paths and errors reads
/// as Foundation did: each compared with Foundation's own, which the tests may use.
@Suite struct TextFunctionsTests {
    static let texts = [
        "", " ", "\t a b \t", "\u{00A0}x\u{2003}", "\n x \r\n", "a\r\nb", "é", "a; b;; c", "; x ;", "\u{2028}y\u{85}", "x\u{0301} ",
    ]

    /// UTF-8 is refused where the standard library's validation (macOS 15's
    /// and later, which the tool cannot call on 13) refuses it: overlong
    /// forms, surrogates, code points past U+10FFFF, cut sequences, stray
    /// continuation bytes, U+FFFD itself accepted.
    @Test func utf8IsRefusedWhereTheStandardLibraryRefusesIt() {
        var generator = StateInvariantTests.Generator(state: 11)
        let pieces: [[UInt8]] = [
            [0x61], [0x00], [0x7F], [0xC3, 0xA9], [0xEF, 0xBF, 0xBD], [0xF0, 0x9F, 0x98, 0x80], [0xE0, 0xA0, 0x80],
            [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0x80], [0xC1, 0xBF], [0x80], [0xBF],
            [0xC3], [0xE2, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFE], [0xFF],
        ]
        var refused = 0
        for _ in 0..<5_000 {
            let bytes = (0..<Int(generator.next() % 6)).flatMap { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
            if #available(macOS 15, *) {
                let expected = String(validating: bytes, as: UTF8.self)
                #expect(String(validatingUTF8Bytes: bytes) == expected, "\(bytes)")
                if expected == nil { refused += 1 }
            }
        }
        #expect(refused > 1_000)
    }

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
