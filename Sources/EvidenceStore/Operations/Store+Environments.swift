/// Environments typed by people are checked before they are first recorded:
/// a typo in a model or a swapped pair of builds is refused with what was
/// probably meant, instead of silently starting a new environment.
extension Store {
    /// Checks an environment the store does not hold yet; one it holds passes.
    /// With `newModel`, a model close to a recorded one is taken as new.
    static func vet(_ spec: EnvironmentSpec, newModel: Bool, reader: StoreReader) throws {
        guard try reader.existingEnvironmentID(spec) == nil else { return }
        let vetting = try reader.environmentVetting()
        if !newModel { try vetting.checkModel(spec.model, option: "--new-model") }
        try vetting.checkBuilds(of: spec)
    }
}
