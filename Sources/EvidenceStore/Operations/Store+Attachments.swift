import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Store {
    /// Every attachment whose file is missing or differs from its recorded SHA-256 and size.
    public func verifyAttachments() throws -> (checked: Int, problems: [AttachmentProblem]) {
        let files = try reader.attachedFiles()
        var problems: [AttachmentProblem] = []
        for file in files {
            let absolute = folder.appendingPathComponent(file.path).path
            var info = stat()
            var kind: AttachmentProblem.Kind?
            if lstat(absolute, &info) != 0 {
                kind = .vanished
            } else if info.st_mode & S_IFMT == S_IFLNK {
                kind = .replacedByLink
            } else if Int64(info.st_size) != file.size {
                kind = .changed
            } else if SHA256.hex(ofFile: absolute) != file.sha256 {
                kind = .changed
            }
            if let kind {
                problems.append(AttachmentProblem(path: file.path, kind: kind, claimKey: file.claim, runUUID: file.run))
            }
        }
        return (files.count, problems)
    }
}
