import Foundation
import Testing

/// The layers of the library point one way, and the folders show them:
/// CLI → Operations → Import, Render and Storage → Model → Support →
/// Platform. SQL and CSQLite live in Storage only; the operating system's
/// names (Glibc, Darwin, what only one of them has) in Platform only. These
/// tests read the sources, so a file that reaches across a layer fails here
/// rather than in review.
@Suite struct LayeringTests {
    static let sources = EvidenceBinary.packageRoot.appendingPathComponent("Sources")

    /// What each folder of EvidenceStore may use besides itself.
    static let allowed: [String: Set<String>] = [
        "Platform": [],
        "Support": ["Platform"],
        "Model": ["Support", "Platform"],
        "Storage": ["Model", "Support", "Platform"],
        "Render": ["Model", "Support", "Platform"],
        // What commands do with the store; the three concerns below build on it,
        // each with what it reads and writes: result files, the exchange format, documents.
        "Operations": ["Storage", "Render", "Model", "Support", "Platform"],
        "ResultFiles": ["Operations", "Storage", "Model", "Support", "Platform"],
        "Exchange": ["Operations", "Storage", "Render", "Model", "Support", "Platform"],
        "Documents": ["Operations", "Storage", "Render", "Model", "Support", "Platform"],
    ]

    struct SourceFile {
        var path: String
        var layer: String
        /// The text without comments and string literals.
        var code: String
        /// The contents of its string literals.
        var strings: [String]
    }

    static func files() throws -> [SourceFile] {
        var files: [SourceFile] = []
        for target in ["EvidenceStore", "evidence"] {
            let root = sources.appendingPathComponent(target)
            let walker = FileManager.default.enumerator(atPath: root.path)
            while let relative = walker?.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                let layer = target == "evidence" ? "CLI" : String(relative.split(separator: "/").first ?? "")
                let (code, strings) = split(text)
                files.append(SourceFile(path: target + "/" + relative, layer: layer, code: code, strings: strings))
            }
        }
        return files
    }

    /// Separates code from comments and string literals (single-line and `"""`).
    static func split(_ text: String) -> (code: String, strings: [String]) {
        var code = ""
        var strings: [String] = []
        let characters = Array(text)
        var index = 0
        func starts(_ prefix: String) -> Bool {
            let p = Array(prefix)
            return index + p.count <= characters.count && Array(characters[index..<index + p.count]) == p
        }
        while index < characters.count {
            if starts("//") {
                while index < characters.count && characters[index] != "\n" { index += 1 }
            } else if starts("/*") {
                while index < characters.count && !starts("*/") { index += 1 }
                index += 2
            } else if starts("\"\"\"") {
                index += 3
                var literal = ""
                while index < characters.count && !starts("\"\"\"") {
                    literal.append(characters[index])
                    index += 1
                }
                index += 3
                strings.append(literal)
                code += "\"\""
            } else if characters[index] == "\"" {
                index += 1
                var literal = ""
                while index < characters.count && characters[index] != "\"" && characters[index] != "\n" {
                    if characters[index] == "\\" { index += 1 }
                    if index < characters.count { literal.append(characters[index]) }
                    index += 1
                }
                index += 1
                strings.append(literal)
                code += "\"\""
            } else {
                code.append(characters[index])
                index += 1
            }
        }
        return (code, strings)
    }

    /// The types each folder declares at the top level.
    static func declarations(_ files: [SourceFile]) throws -> [String: Set<String>] {
        let pattern = try NSRegularExpression(
            pattern: #"^(?:(?:public|final|private|fileprivate|internal|indirect)\s+)*(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)"#,
            options: [.anchorsMatchLines])
        var declared: [String: Set<String>] = [:]
        for file in files {
            let range = NSRange(file.code.startIndex..., in: file.code)
            for match in pattern.matches(in: file.code, range: range) {
                if let name = Range(match.range(at: 1), in: file.code) {
                    declared[file.layer, default: []].insert(String(file.code[name]))
                }
            }
        }
        return declared
    }

    @Test func eachLayerUsesOnlyTheLayersBelowIt() throws {
        let files = try Self.files()
        let declared = try Self.declarations(files)
        var breaches: [String] = []
        for file in files where file.layer != "CLI" {
            let allowed = (Self.allowed[file.layer] ?? []).union([file.layer])
            let words = Set(file.code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
            for (layer, names) in declared where !allowed.contains(layer) && layer != "CLI" {
                for name in names.intersection(words) {
                    breaches.append("\(file.path) (\(file.layer)) uses \(name) of \(layer)")
                }
            }
        }
        #expect(breaches.sorted() == [], "\(breaches.sorted().joined(separator: "\n"))")
        #expect(Set(declared.keys).subtracting(["CLI"]) == Set(Self.allowed.keys), "every folder has a rule")
    }

    @Test func onlyTheStorageLayerHoldsSQLOrImportsCSQLite() throws {
        let sql = try NSRegularExpression(  // SQL as statements begin, in string literals.
            pattern: #"\b(SELECT\s[\s\S]*\sFROM\b|INSERT\s+(OR\s+\w+\s+)?INTO\b|DELETE\s+FROM\b|UPDATE\s+\w+\s+SET\b|CREATE\s+(TABLE|VIEW|INDEX|TRIGGER)\b|DROP\s+(TABLE|VIEW|INDEX|TRIGGER)\b|PRAGMA\s+\w+|BEGIN\s+(IMMEDIATE|DEFERRED|EXCLUSIVE)\b)"#)
        var breaches: [String] = []
        for file in try Self.files() where file.layer != "Storage" {
            if file.code.contains("import CSQLite") { breaches.append("\(file.path) imports CSQLite") }
            for literal in file.strings
            where sql.firstMatch(in: literal, range: NSRange(literal.startIndex..., in: literal)) != nil {
                breaches.append("\(file.path) holds SQL: \(literal.prefix(60))")
            }
        }
        #expect(breaches == [], "\(breaches.joined(separator: "\n"))")
    }

    /// The library and the tool import `FoundationEssentials` where it can be
    /// imported (Linux's toolchain), else Foundation (Apple's SDK has no
    /// FoundationEssentials): never the whole of Foundation on Linux, which
    /// would link ICU's data into the binary again (34 of the 60 MB it
    /// weighed). `-D EVIDENCE_FULL_FOUNDATION` builds the Foundation branch on
    /// Linux, as .ci/run does, so the import path a Mac takes is compiled.
    /// The tests may import Foundation; they are not shipped.
    @Test func foundationIsImportedAsTheEcosystemDoesIt() throws {
        let guarded = "#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION"
        var breaches: [String] = []
        for file in try Self.files() {
            let lines = file.code.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            for (index, line) in lines.enumerated() {
                let words = line.split(separator: " ")
                guard words.first == "import", let module = words.last else { continue }
                if module == "FoundationEssentials" {
                    if index == 0 || lines[index - 1] != guarded {
                        breaches.append("\(file.path): FoundationEssentials imported outside '\(guarded)'")
                    }
                } else if module == "Foundation" || module.hasPrefix("Foundation.") {
                    if index < 3 || lines[index - 1] != "#else" || lines[index - 3] != guarded {
                        breaches.append("\(file.path): Foundation imported outside the #else of '\(guarded)'")
                    }
                }
            }
        }
        #expect(breaches == [], "\(breaches.joined(separator: "\n"))")
    }

    /// Names that belong to one operating system's C library or SDK, or to
    /// Linux's /proc: each must stay in the platform files.
    static let platformNames = [
        "Glibc", "Darwin", "MachO", "CommonCrypto", "CCrypto", "errno", "st_mtim", "st_mtimespec", "/proc/",
        "renameat2", "renamex_np", "F_FULLFSYNC", "statfs", "f_fstypename", "posix_spawn", "dlsym",
        "_NSGetExecutablePath", "canImport(Glibc)", "canImport(Darwin)", "os(Linux)", "os(macOS)",
    ]

    /// The files allowed to name them: the library's platform folder, and
    /// the tests' own few calls of the same kind.
    static func isPlatformFile(_ path: String) -> Bool {
        path.hasPrefix("EvidenceStore/Platform/") || path.hasSuffix("Support/TestPlatform.swift")
    }

    /// Every source file of the package, the tests and fuzz targets
    /// included, with its path from the package's root.
    static func everySourceFile() throws -> [(path: String, code: String, strings: [String])] {
        let root = EvidenceBinary.packageRoot
        var found: [(path: String, code: String, strings: [String])] = []
        for folder in ["Sources", "Tests", "Fuzz", "Plugins"] {
            let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let relative = walker?.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(relative), encoding: .utf8)
                let (code, strings) = split(text)
                found.append((folder == "Sources" ? relative : folder + "/" + relative, code, strings))
            }
        }
        return found
    }

    @Test func onlyThePlatformFilesNameTheOperatingSystem() throws {
        var breaches: [String] = []
        var namingGlibc: Set<String> = []
        // This file names them to look for them.
        for file in try Self.everySourceFile() where !file.path.hasSuffix("/LayeringTests.swift") {
            let text = file.code + "\n" + file.strings.joined(separator: "\n")
            if text.contains("Glibc") { namingGlibc.insert(file.path) }
            guard !Self.isPlatformFile(file.path) else { continue }
            let words = Set(file.code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
            for name in Self.platformNames {
                let named = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
                    ? words.contains(name) : text.contains(name)
                if named { breaches.append("\(file.path) names \(name)") }
            }
        }
        #expect(breaches.sorted() == [], "\(breaches.sorted().joined(separator: "\n"))")
        #expect(namingGlibc.count <= 2, "Glibc is named in \(namingGlibc.sorted())")
    }

    @Test func theCheckItselfFindsALeak() throws {
        let (code, strings) = Self.split(#"let x = db.run("SELECT key FROM claims") // SELECT a FROM b"#)
        #expect(strings == ["SELECT key FROM claims"])
        #expect(!code.contains("SELECT"))
    }
}
