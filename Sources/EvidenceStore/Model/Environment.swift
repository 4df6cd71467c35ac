/// Where a run happened: a device or simulator of a model, an OS and its build,
/// a tool (Xcode) and its build. Empty strings stand for values nobody gave.
public struct EnvironmentSpec: Hashable, Sendable {
    public var kind: EnvironmentKind
    public var model: String
    public var osName: String
    public var osVersion: String
    public var osBuild: String
    public var toolName: String
    public var toolVersion: String
    public var toolBuild: String

    public init(
        kind: EnvironmentKind, model: String, osName: String = "", osVersion: String = "", osBuild: String = "",
        toolName: String = "", toolVersion: String = "", toolBuild: String = ""
    ) {
        self.kind = kind
        self.model = model
        self.osName = osName
        self.osVersion = osVersion
        self.osBuild = osBuild
        self.toolName = toolName
        self.toolVersion = toolVersion
        self.toolBuild = toolBuild
    }

    /// Reads the command line's form: `--os "iOS 27.1"`, `--xcode 27.1` and
    /// builds. What is unambiguous is normalised: "ios 27.1" is iOS 27.1, and
    /// "Xcode 27.1" given as the Xcode version is 27.1.
    public init(
        kind: EnvironmentKind, model: String, os: String?, osBuild: String?, xcode: String?, xcodeBuild: String?
    ) throws {
        let model = try Validate.nonEmpty(model, field: "model").trimmingWhitespace()
        let (osName, osVersion) = try os.map(Self.splitOS) ?? ("", "")
        self.init(
            kind: kind, model: model, osName: osName, osVersion: osVersion,
            osBuild: try AppleBuild.validated(osBuild ?? "", field: "OS build"),
            toolName: xcode == nil && xcodeBuild == nil ? "" : "Xcode",
            toolVersion: try xcode.map(Self.xcodeVersion) ?? "",
            toolBuild: try AppleBuild.validated(xcodeBuild ?? "", field: "Xcode build"))
    }

    /// Apple's operating systems, spelled as Apple spells them.
    public static let appleOSNames = ["iOS", "iPadOS", "macOS", "tvOS", "visionOS", "watchOS"]

    /// "iOS 27.1" becomes ("iOS", "27.1"); "ios 27.1" too. The version must be
    /// a marketing version.
    public static func splitOS(_ text: String) throws -> (String, String) {
        let parts = text.trimmingWhitespace().split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[1].first?.isNumber == true, parts[0].first?.isLetter == true else {
            throw EvidenceError.invalidValue(
                field: "OS", value: text, expected: "an OS name and version, such as \"iOS 27.1\"")
        }
        let name = appleOSNames.first { $0.lowercased() == parts[0].lowercased() } ?? String(parts[0])
        return (name, try MarketingVersion.validated(String(parts[1]), field: "OS version"))
    }

    /// An Xcode version as given, without a leading "Xcode" ("Xcode 27.1" is 27.1).
    public static func xcodeVersion(_ text: String) throws -> String {
        var version = text.trimmingWhitespace()
        if version.lowercased().hasPrefix("xcode") {
            version = String(version.dropFirst(5)).trimmingWhitespace()
        }
        return try MarketingVersion.validated(version, field: "Xcode version")
    }

    /// How people name it: "iPhone Duo simulator, iOS 27.1, Xcode 27.1 (27A9275)".
    public var description: String {
        var text = "\(model) \(kind.rawValue)"
        let os = [osName, osVersion].filter { !$0.isEmpty }.joined(separator: " ")
        if !os.isEmpty { text += ", " + os }
        if !osBuild.isEmpty { text += " (\(osBuild))" }
        let tool = [toolName, toolVersion].filter { !$0.isEmpty }.joined(separator: " ")
        if !tool.isEmpty { text += ", " + tool }
        if !toolBuild.isEmpty { text += " (\(toolBuild))" }
        return text
    }
}

extension EnvironmentSpec {
    /// Its OS build as the reports name it: "iOS 27.1 (23B85)", and where no
    /// build was recorded "iOS 27.1, build not recorded".
    public var buildLabel: String {
        let os = [osName, osVersion].filter { !$0.isEmpty }.joined(separator: " ")
        if osBuild.isEmpty { return (os.isEmpty ? "" : os + ", ") + "build not recorded" }
        return os.isEmpty ? osBuild : os + " (" + osBuild + ")"
    }
}
