/// The one-line summary a document's front matter carries.
extension Store {
    /// "Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no": the simulator
    /// setup that verified the most claims (the newest builds on a tie), and
    /// the device setups, if any claim passed on one. Only results on the
    /// models the claims speak about verify them; where the claims were
    /// verified on more than one model, each model is named with its own
    /// simulator setup: "iPhone Duo: Xcode 27.1, iOS 27.1 simulator; iPad Pro
    /// 13: Xcode 27.1, iPadOS 27 simulator; device: no". A setup where claims
    /// of the document fail says so: "device: iOS 27.1 (24B85), 1 claim failing".
    public func verifiedLine(document: String? = nil) throws -> String {
        let rows = try reader.verifyingEnvironments(document: document)
        let failing = try reader.failingEnvironments(document: document)
        func failures(_ environment: EnvironmentSpec) -> String {
            guard let count = failing[environment], count > 0 else { return "" }
            return ", " + NumberText.counted(count, "claim") + " failing"
        }
        func os(_ environment: EnvironmentSpec) -> String {
            var text = [environment.osName, environment.osVersion].filter { !$0.isEmpty }.joined(separator: " ")
            if !environment.osBuild.isEmpty { text += " (\(environment.osBuild))" }
            return text
        }
        func tool(_ environment: EnvironmentSpec) -> String {
            var text = [environment.toolName, environment.toolVersion].filter { !$0.isEmpty }.joined(separator: " ")
            if !environment.toolBuild.isEmpty { text += " (\(environment.toolBuild))" }
            return text
        }
        func simulatorSetup(_ simulator: EnvironmentSpec) -> String {
            let osText = os(simulator)
            return [tool(simulator), (osText.isEmpty ? "" : osText + " ") + "simulator"].filter { !$0.isEmpty }
                .joined(separator: ", ")
        }
        var models: [String] = []
        for row in rows where !models.contains(row.environment.model) { models.append(row.environment.model) }
        let named = models.count > 1
        var parts: [String] = []
        if named {
            // Each model's best simulator setup, the model that verified the most first.
            var simulatorModels: [String] = []
            for row in rows where row.environment.kind == .simulator && !simulatorModels.contains(row.environment.model) {
                simulatorModels.append(row.environment.model)
            }
            let setups = simulatorModels.compactMap { model in
                rows.first { $0.environment.kind == .simulator && $0.environment.model == model }
                    .map { "\(model): " + simulatorSetup($0.environment) + failures($0.environment) }
            }
            parts.append(setups.isEmpty ? "simulator: no" : setups.joined(separator: "; "))
        } else if let simulator = rows.first(where: { $0.environment.kind == .simulator })?.environment {
            parts.append(simulatorSetup(simulator) + failures(simulator))
        } else {
            parts.append("simulator: no")
        }
        let devices = rows.filter { $0.environment.kind == .device }.map {
            os($0.environment) + (named ? " on \($0.environment.model)" : "") + failures($0.environment)
        }
        var seen: Set<String> = []
        let distinctDevices = devices.filter { seen.insert($0).inserted }
        let line = parts.joined(separator: ", ") + (named ? "; " : ", ")
            + "device: " + (distinctDevices.isEmpty ? "no" : distinctDevices.joined(separator: ", "))
        // One line, whatever an older store holds: it goes into front matter.
        return ControlCharacters.escaped(line, keepingLineBreaks: false)
    }
}
