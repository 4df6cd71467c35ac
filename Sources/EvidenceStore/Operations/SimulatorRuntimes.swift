#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The simulator runtimes of `xcrun simctl list runtimes -j` (or of `xcrun
/// simctl list -j`, which holds them among devices and pairs): for each, its
/// platform, version and build, so that a simulator run named "iOS 27.1" can
/// be given the build of the runtime it ran on.
public struct SimulatorRuntime: Equatable, Sendable {
    public var name: String
    public var platform: String
    public var version: String
    public var build: String

    public init(name: String, platform: String, version: String, build: String) {
        self.name = name
        self.platform = platform
        self.version = version
        self.build = build
    }

    /// The available runtimes of simctl's JSON.
    public static func read(_ data: Data, path: String) throws -> [SimulatorRuntime] {
        let value: JSONValue
        do {
            value = try JSONReader.parse(data)
        } catch {
            throw EvidenceError.badFile(path: path, location: nil, reason: "not the JSON of 'xcrun simctl list runtimes -j'")
        }
        guard case .array(let runtimes)? = value["runtimes"] else {
            throw EvidenceError.badFile(path: path, location: nil, reason: "no 'runtimes' list, as 'xcrun simctl list runtimes -j' prints")
        }
        return runtimes.compactMap { runtime in
            guard runtime["isAvailable"]?.boolValue != false, let build = runtime["buildversion"]?.stringValue,
                let version = runtime["version"]?.stringValue, AppleBuild(build) != nil
            else { return nil }
            let name = runtime["name"]?.stringValue ?? ""
            let platform = runtime["platform"]?.stringValue ?? String(name.split(separator: " ").first ?? "")
            return SimulatorRuntime(name: name, platform: platform, version: version, build: build)
        }
    }

    /// What the runtimes say of an OS name and version.
    public enum Match: Equatable, Sendable {
        case build(String, runtime: String)
        /// Several runtimes answer to it, with different builds: none is taken.
        case ambiguous([String])
        case none
    }

    /// The build of the runtime of `osName` `osVersion`: its platform (iPadOS
    /// runs on iOS runtimes, visionOS on xrOS ones) and its version or the
    /// version in its name.
    public static func match(osName: String, osVersion: String, in runtimes: [SimulatorRuntime]) -> Match {
        let platforms: Set<String> = switch osName.lowercased() {
        case "ios", "ipados": ["ios"]
        case "visionos", "xros": ["xros", "visionos"]
        default: [osName.lowercased()]
        }
        let ofPlatform = runtimes.filter { platforms.contains($0.platform.lowercased()) }
        // Xcode names a runtime by its name, so "iOS 17.0" may be 17.0 or 17.0.1: both answer to it.
        let found = ofPlatform.filter { $0.version == osVersion || $0.name.split(separator: " ").last.map(String.init) == osVersion }
        let builds = Array(Set(found.map(\.build))).sorted()
        switch builds.count {
        case 0: return .none
        case 1: return .build(builds[0], runtime: found[0].name)
        default: return .ambiguous(builds)
        }
    }
}
