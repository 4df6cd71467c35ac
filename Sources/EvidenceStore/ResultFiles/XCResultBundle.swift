#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// An `.xcresult` bundle, read through Xcode's `xcrun xcresulttool` as a
/// person would on their Mac: `get test-results tests` (Xcode 16 and later),
/// else `get --legacy --format json` and `get --format json` for older
/// bundles and tools; its output goes to a temporary file as it comes and is
/// then ingested as that JSON is. `get test-results summary` adds the OS
/// build of each device where the tests' JSON leaves it out.
public struct XCResultBundle: Sendable {
    /// The bundle, as an absolute path.
    public let path: String
    /// The JSON xcresulttool printed, in a temporary folder of its own.
    public let json: String
    /// Which command printed it.
    public let command: String
    /// OS builds by device (`IngestOptions.deviceKey`), from the summary.
    public let osBuilds: [String: String]
    private let folder: String

    /// How long xcresulttool may take to read a bundle.
    static let toolSeconds = 600.0

    /// Whether a path names a bundle: a folder (an `.xcresult` is one).
    public static func isBundle(_ path: String) -> Bool {
        var isFolder: Bool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder
    }

    /// Runs xcresulttool on the bundle; refused, saying how to do it by hand, where there is no xcrun.
    public static func read(_ bundle: String, tools: MachineTools, maxBytes: Int = IngestOptions.defaultMaxBytes) throws -> XCResultBundle {
        let path = Store.absolutePath(bundle)
        guard let xcrun = tools.xcrun else {
            throw EvidenceError.refused(
                reason: "\(bundle) is an .xcresult bundle, which is read with Xcode's 'xcrun xcresulttool', and there is no xcrun "
                    + "on this machine (EVIDENCE_XCRUN names one); on a Mac with Xcode run 'xcrun xcresulttool get test-results "
                    + "tests --path \(bundle) > tests.json' and ingest tests.json")
        }
        let temporary = FileManager.default.temporaryDirectory.path
        // What a run that was killed left behind goes first.
        for leftover in Leftovers.abandoned(in: temporary, prefix: "evidence-xcresult-") {
            try? FileManager.default.removeItem(atPath: temporary + "/" + leftover)
        }
        let folder = temporary + "/evidence-xcresult-\(ThisProcess.id)-\(UInt32.random(in: 0...UInt32.max))"
        do {
            try FileSystem.makeFolder(folder, permissions: 0o700)
        } catch {
            throw EvidenceError.io(path: folder, reason: "cannot be created (\(error))")
        }
        do {
            let json = folder + "/" + PathText.name(of: path) + ".json"
            let attempts = [
                ["xcresulttool", "get", "test-results", "tests", "--path", path],
                ["xcresulttool", "get", "--legacy", "--format", "json", "--path", path],
                ["xcresulttool", "get", "--format", "json", "--path", path],
            ]
            var failures: [String] = []
            for arguments in attempts {
                let ran = try MachineTools.run(xcrun, arguments, to: json, limit: maxBytes, seconds: toolSeconds)
                if ran.status == 0 {
                    return XCResultBundle(
                        path: path, json: json, command: "xcrun " + arguments.dropLast(2).joined(separator: " "),
                        osBuilds: summaryBuilds(path, xcrun: xcrun), folder: folder)
                }
                let said = ran.error.split(whereSeparator: \.isNewline).first.map(String.init) ?? "exit status \(ran.status)"
                failures.append("'xcrun \(arguments.dropLast(2).joined(separator: " "))': \(said)")
            }
            throw EvidenceError.badFile(
                path: bundle, location: nil,
                reason: "xcresulttool could not read it: " + failures.joined(separator: "; "))
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// The OS build of each device the bundle's summary names; none when it cannot be read.
    private static func summaryBuilds(_ path: String, xcrun: String) -> [String: String] {
        guard let ran = try? MachineTools.run(
            xcrun, ["xcresulttool", "get", "test-results", "summary", "--path", path], limit: 16 << 20, seconds: toolSeconds),
            ran.status == 0, let value = try? JSONReader.parse(ran.output), case .array(let entries)? = value["devicesAndConfigurations"]
        else { return [:] }
        var builds: [String: String] = [:]
        for entry in entries {
            guard let device = entry["device"], let build = device["osBuildNumber"]?.stringValue, AppleBuild(build) != nil,
                let model = device["modelName"]?.stringValue ?? device["deviceName"]?.stringValue,
                let version = device["osVersion"]?.stringValue
            else { continue }
            builds[IngestOptions.deviceKey(model: model, osVersion: version)] = build
        }
        return builds
    }

    /// Removes the temporary JSON.
    public func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
