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

extension Store {
    /// The id of the environment with exactly these fields, created when new.
    public func environmentID(_ spec: EnvironmentSpec) throws -> Int64 {
        let values: [SQLValue] = [
            .text(spec.kind.rawValue), .text(spec.model), .text(spec.osName), .text(spec.osVersion), .text(spec.osBuild),
            .text(spec.toolName), .text(spec.toolVersion), .text(spec.toolBuild),
        ]
        if let id = try database.scalar(
            """
            SELECT id FROM environments
            WHERE kind = ? AND model = ? AND os_name = ? AND os_version = ? AND os_build = ?
              AND tool_name = ? AND tool_version = ? AND tool_build = ?
            """, values
        ).int64 {
            return id
        }
        try database.execute(
            """
            INSERT INTO environments (kind, model, os_name, os_version, os_build, tool_name, tool_version, tool_build)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, values)
        return database.lastInsertRowID
    }

    public func environment(id: Int64) throws -> EnvironmentSpec {
        guard let row = try database.queryFirst(
            """
            SELECT kind, model, os_name, os_version, os_build, tool_name, tool_version, tool_build
            FROM environments WHERE id = ?
            """, .integer(id))
        else { throw EvidenceError.notFound(kind: "environment", value: String(id), suggestions: []) }
        return EnvironmentSpec(
            kind: try EnvironmentKind(parsing: row.text("kind")), model: row.text("model"), osName: row.text("os_name"),
            osVersion: row.text("os_version"), osBuild: row.text("os_build"), toolName: row.text("tool_name"),
            toolVersion: row.text("tool_version"), toolBuild: row.text("tool_build"))
    }
}
