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

    /// Reads the command line's form: `--os "iOS 27.1"`, `--xcode 27.1` and builds.
    public init(
        kind: EnvironmentKind, model: String, os: String?, osBuild: String?, xcode: String?, xcodeBuild: String?
    ) throws {
        let model = try Validate.nonEmpty(model, field: "model").trimmingCharacters(in: .whitespaces)
        let (osName, osVersion) = try os.map(Self.splitOS) ?? ("", "")
        self.init(
            kind: kind, model: model, osName: osName, osVersion: osVersion,
            osBuild: try AppleBuild.validated(osBuild ?? "", field: "OS build"),
            toolName: xcode == nil && xcodeBuild == nil ? "" : "Xcode",
            toolVersion: xcode?.trimmingCharacters(in: .whitespaces) ?? "",
            toolBuild: try AppleBuild.validated(xcodeBuild ?? "", field: "Xcode build"))
    }

    /// "iOS 27.1" becomes ("iOS", "27.1").
    public static func splitOS(_ text: String) throws -> (String, String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[1].first?.isNumber == true, parts[0].first?.isLetter == true else {
            throw EvidenceError.invalidValue(
                field: "OS", value: text, expected: "an OS name and version, such as \"iOS 27.1\"")
        }
        return (String(parts[0]), String(parts[1]).trimmingCharacters(in: .whitespaces))
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
