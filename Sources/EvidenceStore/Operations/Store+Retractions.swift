#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Corrections: a wrong result or run is retracted, never deleted. The
/// retraction records who, when and why; the results stay where they were,
/// shown as retracted, and count for nothing in any state.
extension Store {
    /// Retracts one result, named by its UUID (or a prefix of it) or its local number.
    @discardableResult
    public func retractResult(_ reference: String, reason: String, by author: String) throws -> RetractionSummary {
        let reason = try Validate.prose(reason, field: "reason")
        return try write { writer in
            let reader = writer.reader
            let id = try reader.resultID(reference: reference)
            let name = ResultIdentity.described("result", uuid: try reader.resultUUID(id: id), local: id)
            if let earlier = try reader.retraction(ofResult: id) {
                throw EvidenceError.refused(reason: "\(name) was already \(earlier.summary)")
            }
            let run = try reader.run(id: try reader.runID(ofResult: id))
            if let earlier = try reader.retraction(ofRun: run.id) {
                throw EvidenceError.refused(
                    reason: "\(name) belongs to run \(run.shortName), which was already \(earlier.summary)")
            }
            try writer.insertRetraction(
                uuid: UUID().uuidString.lowercased(), resultID: id, runID: nil, by: Self.author(author),
                at: clock.timestamp(), reason: reason)
            let evidence = try reader.evidenceOf(result: id, run: nil)
            return RetractionSummary(target: name, results: evidence.results, claims: evidence.claims)
        }
    }

    /// Retracts a whole run, named by its UUID (or a prefix of it) or its local number: every result in it,
    /// including any logged to it later.
    @discardableResult
    public func retractRun(_ reference: String, reason: String, by author: String) throws -> RetractionSummary {
        let reason = try Validate.prose(reason, field: "reason")
        return try write { writer in
            let reader = writer.reader
            let run = try reader.run(id: try reader.runID(reference: reference))
            if let earlier = try reader.retraction(ofRun: run.id) {
                throw EvidenceError.refused(reason: "run \(run.shortName) was already \(earlier.summary)")
            }
            try writer.insertRetraction(
                uuid: UUID().uuidString.lowercased(), resultID: nil, runID: run.id, by: Self.author(author),
                at: clock.timestamp(), reason: reason)
            let evidence = try reader.evidenceOf(result: nil, run: run.id)
            return RetractionSummary(target: run.described, results: evidence.results, claims: evidence.claims)
        }
    }

    /// Ties a result to the issue that tracks it (append-only, like a
    /// retraction): its name, and whether the link is new.
    @discardableResult
    public func linkResult(_ reference: String, to url: String, by author: String) throws -> (result: String, added: Bool) {
        let url = try Validate.url(url, field: "issue URL")
        return try write { writer in
            let reader = writer.reader
            let id = try reader.resultID(reference: reference)
            let name = ResultIdentity.described("result", uuid: try reader.resultUUID(id: id), local: id)
            let added = try writer.insertLink(
                uuid: ResultIdentity.newUUID(), resultID: id, url: url, by: Self.author(author), at: clock.timestamp())
            return (name, added)
        }
    }

    /// Removes a result's link to an issue, linked by mistake: the link leaves
    /// every reason and listing, and its removal is kept (who, when, why),
    /// travelling as the link did. Refused, naming the result's links, where
    /// it has none to `url`.
    @discardableResult
    public func unlinkResult(_ reference: String, from url: String, reason: String, by author: String) throws -> String {
        let url = try Validate.url(url, field: "issue URL")
        let reason = try Validate.prose(reason, field: "reason")
        return try write { writer in
            let reader = writer.reader
            let id = try reader.resultID(reference: reference)
            let name = ResultIdentity.described("result", uuid: try reader.resultUUID(id: id), local: id)
            let links = try reader.links(ofResult: id)
            guard let link = links.first(where: { $0.url == url }) else {
                throw EvidenceError.refused(
                    reason: "\(name) is not linked to \(url)"
                        + (links.isEmpty ? "; it has no link" : "; its links: " + links.map(\.url).joined(separator: ", ")))
            }
            _ = try writer.unlink(
                uuid: ResultIdentity.newUUID(), linkUUID: link.uuid, runID: try reader.runID(ofResult: id), by: Self.author(author),
                at: clock.timestamp(), reason: reason)
            return name
        }
    }
}

extension Store {
    /// Records which OS build a run used, where it recorded none or a wrong
    /// one: the run and its results move to the environment with that build,
    /// and the correction is kept (who, when, why), travelling in the run's
    /// file. Refused where the run already has that build, or where the store
    /// knows the build as another version of the OS.
    @discardableResult
    public func correctRunBuild(_ reference: String, osBuild: String, reason: String, by author: String)
        throws -> RetractionSummary
    {
        let build = try AppleBuild.validated(osBuild, field: "OS build")
        let reason = try Validate.prose(reason, field: "reason")
        return try write { writer in
            let reader = writer.reader
            let run = try reader.run(id: try reader.runID(reference: reference))
            let environment = try reader.environment(id: run.environmentID)
            guard !build.isEmpty, build != environment.osBuild else {
                throw EvidenceError.refused(
                    reason: build.isEmpty
                        ? "give the OS build the run used, such as 24B85"
                        : "\(run.described) already records OS build \(build)")
            }
            if let version = try reader.osVersion(ofBuild: build, osName: environment.osName, besides: environment.osVersion) {
                throw EvidenceError.refused(
                    reason: "OS build \(build) is \(environment.osName) \(version) in this store, and \(run.described) "
                        + "ran \(environment.osName) \(environment.osVersion)")
            }
            try writer.correctRun(
                uuid: ResultIdentity.newUUID(), runID: run.id, recorded: try reader.recordedOSBuild(ofRun: run.id), osBuild: build,
                by: Self.author(author), at: clock.timestamp(), reason: reason)
            let evidence = try reader.evidenceOf(result: nil, run: run.id)
            return RetractionSummary(target: run.described, results: evidence.results, claims: evidence.claims)
        }
    }
}
