import FoundationEssentials
import EvidenceStore

/// Options several commands share, and how they are read.
enum SharedOptions {
    static let environment: [OptionSpec] = [
        OptionSpec(name: "device", valueName: "model", help: "A run on a real device of this model, such as \"iPhone Duo\"."),
        OptionSpec(name: "simulator", valueName: "model", help: "A run on a simulator of this model."),
        OptionSpec(name: "os", valueName: "os", help: "The OS name and version, such as \"iOS 27.1\"."),
        OptionSpec(
            name: "os-build", valueName: "build",
            help: "The OS build, such as 24B85 (default for a simulator: its runtime's, from xcrun simctl list runtimes)."),
        OptionSpec(
            name: "xcode", valueName: "version",
            help: "The Xcode version, such as 27.1 (default: from xcodebuild -version where Xcode is installed; else required)."),
        OptionSpec(
            name: "xcode-build", valueName: "build", help: "The Xcode build, such as 27A9275 (default: from xcodebuild -version)."),
        newModel,
        noDetect,
    ]

    static let noDetect = OptionSpec(
        name: "no-detect",
        help: "Read nothing from Xcode on this machine (by default, what the options leave out comes from xcodebuild "
            + "-version and, for a simulator's OS build, xcrun simctl list runtimes).")

    /// Whether what the options leave out is read from Xcode on this machine.
    static func detect(_ values: ParsedValues) -> Bool { !values.flag("no-detect") }

    static let newModel = OptionSpec(
        name: "new-model", help: "Record a model close to a known one (\"iPhone Duo 2\") as new, not as a typo.")

    static let tester = OptionSpec(name: "tester", valueName: "name", help: "Who ran it (default: $USER).")
    static let date = OptionSpec(
        name: "date", valueName: "date", help: "When, as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (default: now).")
    static let by = OptionSpec(name: "by", valueName: "name", help: "Who makes the change (default: $USER).")

    /// The environment named by --device or --simulator, or nil when neither is given.
    /// With `requireAll`, --os must be given too (--xcode may come from the machine, when the command runs).
    static func environment(_ values: ParsedValues, requireAll: Bool) throws -> EnvironmentSpec? {
        let device = values.value("device")
        let simulator = values.value("simulator")
        if device != nil && simulator != nil {
            throw UsageError(message: "Give either --device or --simulator, not both.", path: values.path)
        }
        guard let model = device ?? simulator else {
            for name in ["os", "os-build", "xcode", "xcode-build"] where values.value(name) != nil {
                throw UsageError(message: "--\(name) needs --device or --simulator.", path: values.path)
            }
            return nil
        }
        if requireAll {
            if values.value("os") == nil {
                throw UsageError(
                    message: "Missing expected argument '--os <os>': with --device or --simulator, an environment is named by "
                        + "--os (such as \"iOS 27.1\") and --xcode (read from xcodebuild -version where Xcode is installed).",
                    path: values.path)
            }
        }
        return try EnvironmentSpec(
            kind: device != nil ? .device : .simulator, model: model, os: values.value("os"),
            osBuild: values.value("os-build"), xcode: values.value("xcode"), xcodeBuild: values.value("xcode-build"))
    }

    /// --timezone, else the machine's zone ($TZ, or the system's). An unknown name is refused.
    static func timeZone(_ values: ParsedValues) throws -> Zone {
        guard let name = values.value("timezone") else { return Zone.current(environment: values.environment) }
        guard let zone = Zone.named(name, environment: values.environment) else {
            throw EvidenceError.invalidValue(
                field: "time zone", value: name, expected: "a zone of the tz database, such as Europe/Berlin, Asia/Tokyo or UTC")
        }
        return zone
    }

    /// --tester, else $USER, else empty.
    static func tester(_ values: ParsedValues) -> String {
        values.value("tester") ?? values.environment["USER"] ?? ""
    }

    /// --by, else $USER, else "unknown".
    static func author(_ values: ParsedValues) -> String {
        values.value("by") ?? values.environment["USER"] ?? "unknown"
    }

    /// Rejects an empty environment for commands that need one.
    static func requireEnvironment(_ values: ParsedValues) throws -> EnvironmentSpec {
        guard let spec = try environment(values, requireAll: true) else {
            throw UsageError(
                message: "Missing expected argument '--device <model>' or '--simulator <model>': an environment is named by "
                    + "--device or --simulator, --os and --xcode.",
                path: values.path)
        }
        return spec
    }
}
