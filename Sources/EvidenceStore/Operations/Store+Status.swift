/// The one-line summary a document's front matter carries.
extension Store {
    /// "Xcode 27.1 (27A9275), iOS 27.1 simulator, device: no": the simulator
    /// setup that verified the most claims (the newest builds on a tie), and
    /// the device setups, if any claim passed on one.
    public func verifiedLine(document: String? = nil) throws -> String {
        let rows = try reader.verifyingEnvironments(document: document)
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
        var parts: [String] = []
        if let simulator = rows.first(where: { $0.environment.kind == .simulator })?.environment {
            let osText = os(simulator)
            parts += [tool(simulator), (osText.isEmpty ? "" : osText + " ") + "simulator"].filter { !$0.isEmpty }
        } else {
            parts.append("simulator: no")
        }
        let devices = rows.filter { $0.environment.kind == .device }.map { os($0.environment) }
        var seen: Set<String> = []
        let distinctDevices = devices.filter { seen.insert($0).inserted }
        parts.append("device: " + (distinctDevices.isEmpty ? "no" : distinctDevices.joined(separator: ", ")))
        // One line, whatever an older store holds: it goes into front matter.
        return ControlCharacters.escaped(parts.joined(separator: ", "), keepingLineBreaks: false)
    }
}
