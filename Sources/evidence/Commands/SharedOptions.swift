#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif
import EvidenceStore

/// Options several commands share, and how they are read.
enum SharedOptions {
    static let device = Option.text("device", "model", help: "A run on a real device of this model, such as \"iPhone Duo\".")
    static let simulator = Option.text("simulator", "model", help: "A run on a simulator of this model.")
    static let os = Option.text("os", "os", help: "The OS name and version, such as \"iOS 27.1\".")
    static let osBuild = Option.text(
        "os-build", "build",
        help: "The OS build, such as 24B85 (default for a simulator: its runtime's, from xcrun simctl list runtimes).")
    static let xcode = Option.text(
        "xcode", "version",
        help: "The Xcode version, such as 27.1 (default: from xcodebuild -version where Xcode is installed; else required).")
    static let xcodeBuild = Option.text(
        "xcode-build", "build", help: "The Xcode build, such as 27A9275 (default: from xcodebuild -version).")

    static let newModel = Option.flag(
        "new-model", help: "Record a model close to a known one (\"iPhone Duo 2\") as new, not as a typo.")

    static let noDetect = Option.flag(
        "no-detect",
        help: "Read nothing from Xcode on this machine (by default, what the options leave out comes from xcodebuild "
            + "-version and, for a simulator's OS build, xcrun simctl list runtimes).")

    /// The options that name an environment, as run start, log, session and ingest take them.
    static let environment: [OptionSpec] = [
        device.option, simulator.option, os.option, osBuild.option, xcode.option, xcodeBuild.option, newModel.option,
        noDetect.option,
    ]

    /// --tester, else $USER, else empty.
    static let tester = Option.text("tester", "name", help: "Who ran it (default: $USER).")
    static let date = Option.text("date", "date", help: "When, as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (default: now).")
    /// lint --write and annotate: a document with several names is written under the one given.
    static let breakHardLinks = Option.flag(
        "break-hard-links",
        help: "Write a document that has other names (hard links) under this name alone; the other names keep the old text.")
    /// --by, else $USER, else "unknown".
    static let by = Option.text("by", "name", help: "Who makes the change (default: $USER).")
    static let timezone = Option.text(
        "timezone", "zone",
        help: "The zone of the file's timestamps that name none, such as Europe/Berlin or UTC (default: this "
            + "machine's, as xcodebuild writes them).")

    /// Whether what the options leave out is read from Xcode on this machine.
    static func detect(_ values: ParsedValues) throws -> Bool { !(try values[noDetect]) }

    /// The environment named by --device or --simulator, or nil when neither is given.
    /// With `requireAll`, --os must be given too (--xcode may come from the machine, when the command runs).
    static func environment(_ values: ParsedValues, requireAll: Bool) throws -> EnvironmentSpec? {
        let device = try values[device]
        let simulator = try values[simulator]
        if device != nil && simulator != nil {
            throw UsageError(message: "Give either --device or --simulator, not both.", path: values.path)
        }
        guard let model = device ?? simulator else {
            for option in [os, osBuild, xcode, xcodeBuild] where try values[option] != nil {
                throw UsageError(message: "--\(option.option.name) needs --device or --simulator.", path: values.path)
            }
            return nil
        }
        if requireAll {
            if try values[os] == nil {
                throw UsageError(
                    message: "Missing expected argument '--os <os>': with --device or --simulator, an environment is named by "
                        + "--os (such as \"iOS 27.1\") and --xcode (read from xcodebuild -version where Xcode is installed).",
                    path: values.path)
            }
        }
        return try EnvironmentSpec(
            kind: device != nil ? .device : .simulator, model: model, os: try values[os],
            osBuild: try values[osBuild], xcode: try values[xcode], xcodeBuild: try values[xcodeBuild])
    }

    /// --timezone, else the machine's zone ($TZ, or the system's). An unknown name is refused.
    static func timeZone(_ values: ParsedValues) throws -> Zone {
        guard let name = try values[timezone] else { return Zone.current(environment: values.environment) }
        guard let zone = Zone.named(name, environment: values.environment) else {
            throw EvidenceError.invalidValue(
                field: "time zone", value: name, expected: "a zone of the tz database, such as Europe/Berlin, Asia/Tokyo or UTC")
        }
        return zone
    }

    /// --tester, else $USER, else empty.
    static func tester(_ values: ParsedValues) throws -> String {
        try values[tester] ?? values.environment["USER"] ?? ""
    }

    /// --by, else $USER, else "unknown".
    static func author(_ values: ParsedValues) throws -> String {
        try values[by] ?? values.environment["USER"] ?? "unknown"
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
