/// What a new environment is checked against before the store records it: a
/// typo in a model name or a swapped pair of builds would otherwise start a
/// new environment silently, and make every claim of the real one look stale.
public struct EnvironmentVetting: Sendable {
    /// Every model the store knows (from environments and recorded lacks).
    public var knownModels: [String]
    /// Every environment the store has recorded.
    public var environments: [EnvironmentSpec]

    public init(knownModels: [String], environments: [EnvironmentSpec]) {
        self.knownModels = knownModels
        self.environments = environments
    }

    // MARK: - Models

    /// A recorded model the given one is probably a typo of: the same but for
    /// case, or within two edits and with the same digits ("iPhone Dou" for
    /// "iPhone Duo"; never "iPhone 17" for "iPhone 18"). Nil for a recorded
    /// model, or one nothing is close to.
    public func nearMiss(model: String) -> String? {
        Suggestions.nearMiss(model, in: knownModels, sameDigits: true)
    }

    /// Throws when the model is a near miss of a recorded one.
    public func checkModel(_ model: String, option: String) throws {
        guard let known = nearMiss(model: model) else { return }
        throw EvidenceError.refused(
            reason: "unknown model '\(model)'; did you mean '\(known)'? "
                + "Give \(option) to record '\(model)' as a model of its own")
    }

    // MARK: - Builds

    /// Throws when an OS build looks like an Xcode build or the reverse: it
    /// is one the store recorded for the other, or its train (the number
    /// before the letter) is the one the other's version has and not the one
    /// its own version has.
    public func checkBuilds(of spec: EnvironmentSpec) throws {
        if !spec.osBuild.isEmpty {
            try check(
                build: spec.osBuild, as: "OS build", product: spec.osName, version: spec.osVersion,
                other: "Xcode build", otherProduct: spec.toolName.isEmpty ? "Xcode" : spec.toolName,
                otherVersion: spec.toolVersion, recordedOther: Set(environments.map(\.toolBuild)))
        }
        if !spec.toolBuild.isEmpty {
            try check(
                build: spec.toolBuild, as: "Xcode build", product: spec.toolName.isEmpty ? "Xcode" : spec.toolName,
                version: spec.toolVersion, other: "OS build", otherProduct: spec.osName,
                otherVersion: spec.osVersion, recordedOther: Set(environments.map(\.osBuild)))
        }
    }

    private func check(
        build: String, as what: String, product: String, version: String, other: String, otherProduct: String,
        otherVersion: String, recordedOther: Set<String>
    ) throws {
        let swapAdvice = "are --os-build and --xcode-build swapped?"
        if recordedOther.contains(build) {
            throw EvidenceError.refused(
                reason: "the \(what) '\(build)' is recorded as an \(other) in this store; \(swapAdvice)")
        }
        guard let parsed = AppleBuild(build), let ownTrains = trains(product: product, version: version),
            let otherTrains = trains(product: otherProduct, version: otherVersion),
            otherTrains.contains(parsed.train), !ownTrains.contains(parsed.train)
        else { return }
        throw EvidenceError.refused(
            reason: "the \(what) '\(build)' is from train \(parsed.train), which is \(otherProduct) \(otherVersion)'s "
                + "(\(Self.list(otherTrains))), not \(product) \(version)'s (\(Self.list(ownTrains))); \(swapAdvice)")
    }

    /// The build trains of a product's version: those recorded for its major
    /// version in this store, else Apple's numbering. Nil when neither says.
    public func trains(product: String, version: String) -> Set<Int>? {
        guard !product.isEmpty, let major = Self.major(version) else { return nil }
        let name = product.lowercased()
        var recorded: Set<Int> = []
        for environment in environments {
            if environment.osName.lowercased() == name, Self.major(environment.osVersion) == major,
                let build = AppleBuild(environment.osBuild)
            {
                recorded.insert(build.train)
            }
            if environment.toolName.lowercased() == name, Self.major(environment.toolVersion) == major,
                let build = AppleBuild(environment.toolBuild)
            {
                recorded.insert(build.train)
            }
        }
        if !recorded.isEmpty { return recorded }
        return Self.appleTrain(product: name, major: major).map { [$0] }
    }

    /// Apple's train for a major version: iOS 17 is 21, iOS 26 is 23; Xcode
    /// 16 is 16, Xcode 26 is 17. Nil for a product or year it does not know.
    static func appleTrain(product: String, major: Int) -> Int? {
        switch product {
        case "ios", "ipados", "tvos":
            return major >= 26 ? major - 3 : major >= 10 && major <= 18 ? major + 4 : nil
        case "watchos":
            return major >= 26 ? major - 3 : major >= 4 && major <= 11 ? major + 11 : nil
        case "macos":
            return major >= 26 ? major - 1 : major >= 11 && major <= 15 ? major + 9 : nil
        case "visionos":
            return major >= 26 ? major - 3 : major >= 1 && major <= 2 ? major + 20 : nil
        case "xcode":
            return major >= 26 ? major - 9 : major >= 9 && major <= 16 ? major : nil
        default:
            return nil
        }
    }

    static func major(_ version: String) -> Int? {
        let digits = version.trimmingWhitespace().prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits.prefix(6))
    }

    private static func list(_ trains: Set<Int>) -> String {
        trains.sorted().map(String.init).joined(separator: " or ")
    }
}
