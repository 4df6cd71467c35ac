import EvidenceStore

/// The options that name an environment, as run start, log, session and ingest take them.
struct EnvironmentOptions: OptionGroup {
    @Option(.text("device", "model", help: "A run on a real device of this model, such as \"iPhone Duo\"."))
    var device: String?
    @Option(.text("simulator", "model", help: "A run on a simulator of this model.")) var simulator: String?
    @Option(.text("os", "os", help: "The OS name and version, such as \"iOS 27.1\".")) var os: String?
    @Option(
        .text(
            "os-build", "build",
            help: "The OS build, such as 24B85 (default for a simulator: its runtime's, from xcrun simctl list runtimes)."))
    var osBuild: String?
    @Option(
        .text(
            "xcode", "version",
            help: "The Xcode version, such as 27.1 (default: from xcodebuild -version where Xcode is installed; else required)."))
    var xcode: String?
    @Option(.text("xcode-build", "build", help: "The Xcode build, such as 27A9275 (default: from xcodebuild -version)."))
    var xcodeBuild: String?
    @Option(SharedOptions.newModel) var newModel: Bool
    @Option(
        .flag(
            "no-detect",
            help: "Read nothing from Xcode on this machine (by default, what the options leave out comes from xcodebuild "
                + "-version and, for a simulator's OS build, xcrun simctl list runtimes)."))
    var noDetect: Bool

    /// Whether what the options leave out is read from Xcode on this machine.
    var detect: Bool { !noDetect }

    /// The model and its kind, or nil when neither --device nor --simulator is given.
    func model() throws -> (kind: EnvironmentKind, name: String)? {
        if device != nil && simulator != nil { throw UsageError(message: "Give either --device or --simulator, not both.") }
        return device.map { (.device, $0) } ?? simulator.map { (.simulator, $0) }
    }

    /// The environment named by --device or --simulator, or nil when neither is given.
    /// With `requireAll`, --os must be given too (--xcode may come from the machine, when the command runs).
    func spec(requireAll: Bool) throws -> EnvironmentSpec? {
        guard let (kind, model) = try model() else {
            for (name, value) in [("os", os), ("os-build", osBuild), ("xcode", xcode), ("xcode-build", xcodeBuild)]
            where value != nil {
                throw UsageError(message: "--\(name) needs --device or --simulator.")
            }
            return nil
        }
        if requireAll && os == nil {
            throw UsageError(
                message: "Missing expected argument '--os <os>': with --device or --simulator, an environment is named by "
                    + "--os (such as \"iOS 27.1\") and --xcode (read from xcodebuild -version where Xcode is installed).")
        }
        return try EnvironmentSpec(kind: kind, model: model, os: os, osBuild: osBuild, xcode: xcode, xcodeBuild: xcodeBuild)
    }

    /// The environment, which the command cannot do without.
    func required() throws -> EnvironmentSpec {
        guard let spec = try spec(requireAll: true) else {
            throw UsageError(
                message: "Missing expected argument '--device <model>' or '--simulator <model>': an environment is named by "
                    + "--device or --simulator, --os and --xcode.")
        }
        return spec
    }
}

/// Options several commands take, each declared once here.
enum SharedOptions {
    static let newModel = OptionDeclaration.flag(
        "new-model", help: "Record a model close to a known one (\"iPhone Duo 2\") as new, not as a typo.")
    /// --tester, else $USER, else empty.
    static let tester = OptionDeclaration.text("tester", "name", help: "Who ran it (default: $USER).").withUser(else: "")
    /// --by, else $USER, else "unknown".
    static let by = OptionDeclaration.text("by", "name", help: "Who makes the change (default: $USER).")
        .withUser(else: "unknown")
    static let date = OptionDeclaration.text(
        "date", "date", help: "When, as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (default: now).")
    /// lint --write and annotate: a document with several names is written under the one given.
    static let breakHardLinks = OptionDeclaration.flag(
        "break-hard-links",
        help: "Write a document that has other names (hard links) under this name alone; the other names keep the old text.")
    /// --timezone, else the machine's zone ($TZ, or the system's). An unknown name is refused.
    static let timezone = OptionDeclaration(
        option: OptionSpec(
            name: "timezone", valueName: "zone",
            help: "The zone of the file's timestamps that name none, such as Europe/Berlin or UTC (default: this "
                + "machine's, as xcodebuild writes them).")
    ) { given, values in
        guard let name = given.last else { return Zone.current(environment: values.environment) }
        guard let zone = Zone.named(name, environment: values.environment) else {
            throw EvidenceError.invalidValue(
                field: "time zone", value: name, expected: "a zone of the tz database, such as Europe/Berlin, Asia/Tokyo or UTC")
        }
        return zone
    }
    static let owner = OptionDeclaration.text("owner", "name", help: "Only claims this person owns.")
        .map { try $0.map(Validate.owner) }
    static let document = OptionDeclaration.text("document", "document", help: "Only claims of this document.")
}

extension OptionDeclaration where Value == String? {
    /// The option, else $USER, else `fallback`.
    func withUser(else fallback: String) -> OptionDeclaration<String> {
        let read = self.read
        return OptionDeclaration<String>(option: option) { given, values in
            try read(given, values) ?? values.environment["USER"] ?? fallback
        }
    }
}
