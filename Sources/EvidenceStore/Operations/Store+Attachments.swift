#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


extension Store {
    /// Every attachment whose file is missing or differs from its recorded SHA-256 and size.
    public func verifyAttachments() throws -> (checked: Int, problems: [AttachmentProblem]) {
        let files = try reader.attachedFiles()
        let root = folder.path
        var problems: [AttachmentProblem] = []
        // A file attached to several results is checked once.
        var found: [String: AttachmentProblem.Kind?] = [:]
        for file in files {
            let kind: AttachmentProblem.Kind?
            if let known = found[file.path] {
                kind = known
            } else {
                kind = Self.problem(path: file.path, sha256: file.sha256, size: file.size, in: root)
                found[file.path] = kind
            }
            if let kind {
                problems.append(AttachmentProblem(path: file.path, kind: kind, claimKey: file.claim, runUUID: file.run))
            }
        }
        return (found.count, problems)
    }

    /// What is wrong with an attached file, or nil when it is as recorded.
    static func problem(path: String, sha256: String, size: Int64, in root: String) -> AttachmentProblem.Kind? {
        switch locateAttached(path: path, size: size, in: root) {
        case .problem(let kind): return kind
        case .found(let absolute): return SHA256.hex(ofFile: absolute) == sha256 ? nil : .changed
        }
    }

    enum AttachedFile {
        /// A regular file of the recorded size, inside the folder; its bytes are still to be checked.
        case found(String)
        case problem(AttachmentProblem.Kind)
    }

    /// Where an attached file is, or what is wrong with it short of its bytes.
    static func locateAttached(path: String, size: Int64, in root: String) -> AttachedFile {
        guard case .inside(let absolute) = AttachmentFile.locate(path, in: root) else { return .problem(.outsideFolder) }
        guard let info = try? FileSystem.linkStatus(absolute) else { return .problem(.vanished) }
        if info.kind == .symbolicLink { return .problem(.replacedByLink) }
        if info.kind != .regular || info.size != size { return .problem(.changed) }
        return .found(absolute)
    }
}
