import Foundation
import Testing

@testable import EvidenceStore

@Suite struct AppleBuildTests {
    /// Every build number in the simctl and xcodebuild fixtures.
    static func fixtureBuilds() throws -> [String] {
        var builds: Set<String> = []
        for name in ["simctl-1.json", "simctl-5.json"] {
            let text = try String(contentsOf: Fixtures.apple(name), encoding: .utf8)
            var rest = text[...]
            while let range = rest.range(of: "\"buildversion\" : \"") {
                let tail = rest[range.upperBound...]
                guard let end = tail.firstIndex(of: "\"") else { break }
                builds.insert(String(tail[..<end]))
                rest = tail[end...]
            }
        }
        for name in ["xcodebuild-version-1.txt", "xcodebuild-version-2.txt"] {
            builds.insert(try XcodeVersion.read(path: Fixtures.apple(name).path).build)
        }
        return builds.sorted()
    }

    @Test func everyBuildInTheFixturesParses() throws {
        let builds = try Self.fixtureBuilds()
        #expect(builds.count >= 15)
        for build in builds {
            #expect(AppleBuild(build)?.description == build, "\(build)")
        }
    }

    @Test func betasComeBeforeTheReleaseOfTheirTrain() throws {
        let order = ["23A5318c", "23A341", "23B85"].compactMap(AppleBuild.init)
        #expect(order == order.sorted())
        #expect(AppleBuild("23B85")! > AppleBuild("23A341")!)
        #expect(AppleBuild("23A5318c")! < AppleBuild("23A341")!)
        #expect(AppleBuild("21C5046b")! < AppleBuild("21C52")!)
        #expect(AppleBuild("16A5230g")! < AppleBuild("16A242d")!)
        #expect(AppleBuild("20A5283p")! < AppleBuild("20B72")!)
        #expect(AppleBuild("9A235")! < AppleBuild("13C100")!)
        // Neither as text ("9A" > "13C") nor as numbers would give that.
        #expect("9A235" > "13C100")
    }

    @Test func notBuildsAreRefused() throws {
        for text in ["", "23", "23b85", "A341", "023A341", "23A", "23A341C", "23A341abc", "23 A341", "23A0"] {
            #expect(AppleBuild(text) == nil, "\(text)")
        }
        #expect(throws: EvidenceError.self) {
            _ = try AppleBuild.validated("banana", field: "OS build")
        }
        #expect(try AppleBuild.validated(" ", field: "OS build") == "")
    }

    @Test func theStoreOrdersBuildsExactlyAsSwiftDoes() throws {
        let fixture = try StoreFixture()
        let builds = try Self.fixtureBuilds() + ["23A5318c", "23A341", "23B85", "9A235", "16A242d"]
        for build in builds {
            _ = try fixture.store.environmentID(
                EnvironmentSpec(kind: .simulator, model: "Model \(build)", osBuild: build, toolBuild: build))
        }
        let bySQL = try fixture.store.database.query("SELECT os_build FROM environments ORDER BY os_build_order")
            .map { try $0.text("os_build") }
        let bySwift = builds.compactMap(AppleBuild.init).sorted().map(\.description)
        #expect(bySQL == bySwift)
        let toolBySQL = try fixture.store.database.query("SELECT tool_build FROM environments ORDER BY tool_build_order")
            .map { try $0.text("tool_build") }
        #expect(toolBySQL == bySwift)
    }

    @Test func theStoreRefusesWhatIsNotABuild() throws {
        let fixture = try StoreFixture()
        for bad in ["23b85", "023A341", "23A", "x", "23A341abc"] {
            #expect(throws: DatabaseError.self, "\(bad)") {
                try fixture.store.database.execute(
                    "INSERT INTO environments (kind, model, os_build) VALUES ('device', 'iPhone', ?)", .text(bad))
            }
        }
    }

    @Test func xcodebuildVersionOutputIsReadPastItsWarnings() throws {
        #expect(
            try XcodeVersion.read(path: Fixtures.apple("xcodebuild-version-1.txt").path)
                == XcodeVersion(version: "13.2.1", build: "13C100"))
        #expect(
            try XcodeVersion.read(path: Fixtures.apple("xcodebuild-version-2.txt").path)
                == XcodeVersion(version: "16 beta6", build: "16A5230g"))
        #expect(throws: EvidenceError.self) {
            _ = try XcodeVersion.parse("objc[1]: warning\nnothing else\n", path: "x.txt")
        }
        // A version the --xcode option would refuse is refused from the tool too (issue 45, point 10).
        for version in ["27.1<b>", "-1", "27.1\u{1B}[31m"] {
            #expect(throws: EvidenceError.self, "\(version)") {
                _ = try XcodeVersion.parse("Xcode \(version)\nBuild version 27A9275\n", path: "xcodebuild -version")
            }
        }
    }
}
