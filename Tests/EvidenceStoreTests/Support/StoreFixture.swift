import Foundation

@testable import EvidenceStore

/// A fresh store in its own folder, with a few helpers to fill it.
final class StoreFixture: @unchecked Sendable {
    let folder: TemporaryFolder
    let store: Store

    init(clock: Clock = .system) throws {
        folder = try TemporaryFolder()
        store = try Store.initialize(at: folder.path("evidence.sqlite"), clock: clock).0
    }

    var path: String { store.path }

    static let duoSimulator = EnvironmentSpec(
        kind: .simulator, model: "iPhone Duo", osName: "iOS", osVersion: "27.1", toolName: "Xcode", toolVersion: "27.1",
        toolBuild: "27A9275")

    static let releaseNotes = "https://developer.apple.com/documentation/xcode-release-notes/xcode-27_1-release-notes"
    static let techTalk = "https://developer.apple.com/videos/play/tech-talks/111466/"

    /// Two sources, two capabilities, the Duo simulator's limits, and three claims.
    func addBasics() throws {
        try store.addSource(SourceDraft(url: Self.techTalk, title: "Tech Talk 111466", publisher: "Apple", kind: .techTalk))
        try store.addSource(
            SourceDraft(url: Self.releaseNotes, title: "Xcode 27.1 Release Notes", publisher: "Apple", kind: .releaseNotes))
        try store.addCapability(name: "standby", description: "StandBy, on either display")
        try store.addCapability(name: "app-extension", description: "Running and debugging app extensions")
        try store.addLack(
            LackDraft(kind: .simulator, model: "iPhone Duo", capability: "standby", evidence: .source(url: Self.releaseNotes)))
        try store.addClaim(
            ClaimDraft(
                key: "island.clock-offset.closed", statement: "The clock moves down 84 pt closed.",
                document: "duo-system-surfaces", area: "Live Activities", label: .measured,
                sources: [Self.techTalk + "?time=94"]), by: "writer")
        try store.addClaim(
            ClaimDraft(
                key: "standby.either-display", statement: "StandBy works on either display.",
                document: "duo-system-surfaces", area: "StandBy", label: .sourced, needs: ["standby"]), by: "writer")
        try store.addClaim(
            ClaimDraft(
                key: "bars.overflow", statement: "App items collapse into the overflow menu.",
                document: "duo-system-surfaces", area: "Bars", label: .unverified), by: "writer")
    }

    func count(_ table: String) throws -> Int {
        try store.database.scalar("SELECT count(*) FROM \(table)").int ?? -1
    }

    func state(_ key: String) throws -> String {
        try store.database.scalar("SELECT state FROM claim_state WHERE key = ?", .text(key)).description
    }
}
