#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a person left out of an environment, read from the machine as Xcode
/// reports it: the Xcode version and build from `xcodebuild -version`, a
/// simulator's OS build from the runtime of its OS in `xcrun simctl list
/// runtimes -j`. A value given is never replaced; a value read is named in a
/// note, and one that cannot be read for certain (another Xcode than the one
/// given, two runtimes of one version) is left out, saying why.
public final class BuildDetection {
    private let tools: MachineTools
    private var xcode: XcodeVersion??
    private var runtimes: [SimulatorRuntime]?

    public init(tools: MachineTools) {
        self.tools = tools
    }

    /// The Xcode of `xcodebuild -version`, read once.
    public var installedXcode: XcodeVersion? {
        if let xcode { return xcode }
        let read = tools.xcodeVersion()
        xcode = .some(read)
        return read
    }

    /// The simulator runtimes, read once.
    public var simulatorRuntimes: [SimulatorRuntime] {
        if let runtimes { return runtimes }
        let read = tools.simulatorRuntimes()
        runtimes = read
        return read
    }

    /// The environment with what was left out filled in where the machine
    /// says it, and a note for each value read or not read.
    public func complete(_ spec: EnvironmentSpec) -> (environment: EnvironmentSpec, notes: [String]) {
        var spec = spec
        var notes: [String] = []
        if spec.toolBuild.isEmpty, let (version, build, note) = xcodeValues(given: spec.toolVersion) {
            spec.toolName = "Xcode"
            spec.toolVersion = version
            spec.toolBuild = build
            notes.append(note)
        } else if spec.toolBuild.isEmpty, !spec.toolVersion.isEmpty, let installed = installedXcode {
            notes.append(
                "xcodebuild -version says Xcode \(installed.version), not the \(spec.toolVersion) given: no Xcode build read")
        }
        if spec.kind == .simulator, spec.osBuild.isEmpty, !spec.osVersion.isEmpty,
            let (build, note) = osBuild(osName: spec.osName, osVersion: spec.osVersion, notes: &notes)
        {
            spec.osBuild = build
            notes.append(note)
        }
        return (spec, notes)
    }

    /// An environment a person names, with what its options left out read from
    /// this machine through `detection` (nil for --no-detect): each value read
    /// is named in a note; an Xcode version still missing is refused, saying
    /// which options name an environment.
    public static func complete(_ spec: EnvironmentSpec, with detection: BuildDetection?) throws
        -> (environment: EnvironmentSpec, notes: [String])
    {
        let (environment, notes) = detection?.complete(spec) ?? (spec, [])
        guard environment.toolVersion.isEmpty else { return (environment, notes) }
        let reason =
            detection == nil ? "--no-detect reads nothing from this machine"
            : detection?.tools.xcodebuild == nil ? "no xcodebuild on this machine to read it from"
            : "xcodebuild -version said nothing readable"
        throw EvidenceError.refused(
            reason: "Missing expected argument '--xcode <version>' (\(reason)): an environment is named by --device or "
                + "--simulator, --os and --xcode, with --os-build and --xcode-build at will")
    }

    /// Where the options name no Xcode build and no `xcodebuild -version`
    /// file, the Xcode of this machine (when it is the version given, if
    /// any), taken into `options` for every file; the note to say once.
    public func takeInstalledXcode(into options: inout IngestOptions) -> String? {
        guard options.xcodeVersionFile == nil, options.xcodeBuild == nil,
            let (version, build, note) = xcodeValues(given: options.xcodeVersion ?? "")
        else { return nil }
        options.xcodeVersion = version
        options.xcodeBuild = build
        return note + " on this machine; give --xcode or --no-detect for files made elsewhere."
    }

    /// The Xcode version and build to take, when none was given or the one given is installed.
    private func xcodeValues(given version: String) -> (version: String, build: String, note: String)? {
        guard let installed = installedXcode else { return nil }
        let note = "Xcode \(installed.version) (\(installed.build)), from xcodebuild -version"
        if version.isEmpty { return (installed.version, installed.build, note) }
        guard (try? EnvironmentSpec.xcodeVersion(installed.version)) == version || installed.version == version else { return nil }
        return (version, installed.build, note)
    }

    /// A simulator's OS build from its runtime, when exactly one runtime build answers to it.
    func osBuild(osName: String, osVersion: String, notes: inout [String]) -> (build: String, note: String)? {
        let runtimes = simulatorRuntimes
        guard !runtimes.isEmpty else { return nil }
        let os = "\(osName) \(osVersion)"
        switch SimulatorRuntime.match(osName: osName, osVersion: osVersion, in: runtimes) {
        case .build(let build, let runtime):
            return (build, "OS build \(build) of the \(runtime) simulator runtime, from xcrun simctl list runtimes")
        case .ambiguous(let builds):
            notes.append("Several simulator runtimes answer to \(os) (\(builds.joined(separator: ", "))): no OS build read; give --os-build")
            return nil
        case .none:
            notes.append("No simulator runtime of \(os) in xcrun simctl list runtimes: no OS build read")
            return nil
        }
    }
}
