#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The output of `xcodebuild -version`: `Xcode 27.1` and `Build version 27A9275`,
/// possibly after warning lines (objc class clashes and the like).
public struct XcodeVersion: Equatable, Sendable {
    public var version: String
    public var build: String

    public init(version: String, build: String) {
        self.version = version
        self.build = build
    }

    public static func read(path: String) throws -> XcodeVersion {
        let data = try InputFile.read(path, maxBytes: 1 << 20)
        guard let text = String(data: data, encoding: .utf8) else {
            throw EvidenceError.badFile(path: path, location: nil, reason: "not the UTF-8 text of `xcodebuild -version`")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws -> XcodeVersion {
        var version: String?
        var build: String?
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingWhitespace()
            if version == nil, trimmed.hasPrefix("Xcode ") {
                version = String(trimmed.dropFirst("Xcode ".count)).trimmingWhitespace()
            } else if version != nil, build == nil, trimmed.hasPrefix("Build version ") {
                build = String(trimmed.dropFirst("Build version ".count)).trimmingWhitespace()
            }
        }
        guard let version, !version.isEmpty, let build else {
            throw EvidenceError.badFile(
                path: path, location: nil, reason: "no 'Xcode <version>' line followed by 'Build version <build>'")
        }
        guard AppleBuild(build) != nil else {
            throw EvidenceError.badFile(path: path, location: nil, reason: "'\(build)' is not an Apple build number")
        }
        // The same check as --xcode: what a tool prints is no more trusted than what a person types.
        guard let checked = try? EnvironmentSpec.xcodeVersion(version) else {
            throw EvidenceError.badFile(path: path, location: nil, reason: "'\(version)' is not an Xcode version such as 27.1")
        }
        return XcodeVersion(version: checked, build: build)
    }
}
