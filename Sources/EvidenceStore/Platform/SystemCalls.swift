#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
    import MachO  // _NSGetExecutablePath
#endif

// What the tool needs of the operating system, in one place: every system
// call the library and the command line make goes through this file, with its
// Linux (glibc) and Darwin forms side by side where they differ. Nothing else
// imports Glibc or Darwin (LayeringTests holds this). Errors come back as
// `SystemError`, the errno the call set.

// MARK: - Errors

/// An error a system call gave: its `errno`, in the system's words.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) { self.code = code }

    /// The error the last failed call left in `errno`.
    static var last: SystemError { SystemError(code: errno) }

    public var description: String { SystemCall.words(code) }

    public static let noSuchFile = SystemError(code: ENOENT)
    public static let notAFolder = SystemError(code: ENOTDIR)
    public static let exists = SystemError(code: EEXIST)
    public static let interrupted = SystemError(code: EINTR)
    public static let permissionDenied = SystemError(code: EACCES)
    public static let notPermitted = SystemError(code: EPERM)
    public static let noSpace = SystemError(code: ENOSPC)
    public static let readOnlyFilesystem = SystemError(code: EROFS)
    public static let brokenPipe = SystemError(code: EPIPE)
    public static let wouldBlock = SystemError(code: EWOULDBLOCK)
    public static let notSupported = SystemError(code: ENOTSUP)
    public static let tooLarge = SystemError(code: EFBIG)
    public static let crossDevice = SystemError(code: EXDEV)
    public static let tooManyLinks = SystemError(code: ELOOP)

    /// A missing file or a path through something that is not a folder.
    public var isMissing: Bool { code == ENOENT || code == ENOTDIR }
}

public enum SystemCall {
    /// The system's words for an `errno` value: "No such file or directory".
    public static func words(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Words for an error a file operation threw: the system's for a
    /// `POSIXError` (also under a `CocoaError`), the error's own otherwise.
    public static func words(for error: any Error) -> String {
        if let system = error as? SystemError { return system.description }
        if let posix = error as? POSIXError { return words(posix.code.rawValue) }
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.underlying as? POSIXError { return words(posix.code.rawValue) }
            // The codes FileManager and Data give without a system error under them.
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return words(ENOENT)
            case .fileReadNoPermission, .fileWriteNoPermission: return words(EACCES)
            case .fileWriteFileExists: return words(EEXIST)
            case .fileWriteOutOfSpace: return words(ENOSPC)
            case .fileWriteVolumeReadOnly: return words(EROFS)
            default: return "file operation error \(cocoa.code.rawValue)"
            }
        }
        return String(describing: error)
    }

    /// Calls `body` again while it fails with EINTR; throws any other error.
    @discardableResult
    static func retrying<T: BinaryInteger>(_ body: () -> T) throws(SystemError) -> T {
        while true {
            let result = body()
            if result >= 0 { return result }
            if errno != EINTR { throw SystemError.last }
        }
    }
}

// MARK: - Files

/// What `stat` says of a file.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Sendable {
        case regular, folder, symbolicLink, fifo, characterDevice, blockDevice, socket, other
    }

    public var kind: Kind
    /// The permission bits, with set-user-id, set-group-id and sticky (mode & 0o7777).
    public var permissions: UInt32
    public var size: Int64
    /// How many names (hard links) the file has.
    public var links: Int
    public var owner: UInt32
    public var group: UInt32
    public var device: UInt64
    public var inode: UInt64
    /// The modification time, to the nanosecond.
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int64

    /// Whether both describe the same file: the same device and inode.
    public func isSameFile(as other: FileStatus) -> Bool {
        device == other.device && inode == other.inode
    }

    /// What a file that is not regular is, as a phrase; nil for a regular file.
    public var kindPhrase: String? {
        switch kind {
        case .regular: return nil
        case .folder: return "a folder"
        case .symbolicLink: return "a symbolic link"
        case .fifo: return "a FIFO (named pipe)"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        case .other: return "not a regular file"
        }
    }

    init(_ raw: stat) {
        switch raw.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .folder
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        permissions = UInt32(raw.st_mode) & 0o7777
        size = Int64(raw.st_size)
        links = Int(raw.st_nlink)
        owner = UInt32(raw.st_uid)
        group = UInt32(raw.st_gid)
        device = UInt64(truncatingIfNeeded: raw.st_dev)
        inode = UInt64(truncatingIfNeeded: raw.st_ino)
        #if canImport(Darwin)
            modifiedSeconds = Int64(raw.st_mtimespec.tv_sec)
            modifiedNanoseconds = Int64(raw.st_mtimespec.tv_nsec)
        #else
            modifiedSeconds = Int64(raw.st_mtim.tv_sec)
            modifiedNanoseconds = Int64(raw.st_mtim.tv_nsec)
        #endif
    }
}

/// How a file is opened. Every descriptor is opened close-on-exec, so no
/// program this one starts inherits it.
public struct OpenMode: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let read = OpenMode(rawValue: O_RDONLY)
    public static let write = OpenMode(rawValue: O_WRONLY)
    public static let readWrite = OpenMode(rawValue: O_RDWR)
    public static let create = OpenMode(rawValue: O_CREAT)
    /// With `create`: fails with EEXIST when the file exists.
    public static let exclusive = OpenMode(rawValue: O_EXCL)
    public static let truncate = OpenMode(rawValue: O_TRUNC)
    public static let append = OpenMode(rawValue: O_APPEND)
    /// Fails unless the path is a folder (to sync or lock one).
    public static let folder = OpenMode(rawValue: O_DIRECTORY)
    /// Fails on a symbolic link in the last part of the path.
    public static let noFollow = OpenMode(rawValue: O_NOFOLLOW)
    /// The open itself does not wait (a FIFO with no writer).
    public static let nonBlocking = OpenMode(rawValue: O_NONBLOCK)
    public static let noControllingTerminal = OpenMode(rawValue: O_NOCTTY)
}

/// A file descriptor this process opened, closed when it is let go.
public final class OpenFile {
    /// The descriptor; -1 once closed.
    public private(set) var descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Gives up the descriptor without closing it (one this process did not open).
    public func releaseDescriptor() { descriptor = -1 }

    public func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
        descriptor = -1
    }

    /// What `fstat` says of it.
    public func status() throws(SystemError) -> FileStatus {
        var raw = stat()
        guard fstat(descriptor, &raw) == 0 else { throw SystemError.last }
        return FileStatus(raw)
    }

    /// Fills `buffer` with the next bytes, fewer at the end: how many. One
    /// call reads as much as the file gives.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < buffer.count {
            #if canImport(Glibc)
                let count = Glibc.read(descriptor, base + filled, buffer.count - filled)
            #else
                let count = Darwin.read(descriptor, base + filled, buffer.count - filled)
            #endif
            if count > 0 {
                filled += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw SystemError.last
            }
        }
        return filled
    }

    /// Reads what one call gives (at most `buffer.count`), for a pipe read
    /// as it comes; 0 at its end.
    public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        #if canImport(Glibc)
            return try SystemCall.retrying { Glibc.read(descriptor, base, buffer.count) }
        #else
            return try SystemCall.retrying { Darwin.read(descriptor, base, buffer.count) }
        #endif
    }

    /// Writes every byte, again after an interruption or a short write.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            #if canImport(Glibc)
                let written = Glibc.write(descriptor, base, left)
            #else
                let written = Darwin.write(descriptor, base, left)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError.last
            }
            left -= written
            base += written
        }
    }

    public func write(_ bytes: [UInt8]) throws(SystemError) {
        let failure: SystemError? = bytes.withUnsafeBytes { raw -> SystemError? in
            do throws(SystemError) { try write(raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes `bytes` at `offset`, leaving the file position where it was.
    public func write(_ bytes: [UInt8], at offset: Int64) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let written = bytes[done...].withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset) + off_t(done)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw SystemError.last
            }
            done += written
        }
    }

    /// Makes what was written durable. On Linux `fsync`; on macOS, where
    /// fsync leaves data in the drive's cache, `F_FULLFSYNC` as SQLite does
    /// (falling back to fsync on filesystems that do not support it).
    public func sync() throws(SystemError) {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        try SystemCall.retrying { fsync(descriptor) }
    }

    /// Cuts the file to `size` bytes.
    public func truncate(to size: Int64) throws(SystemError) {
        try SystemCall.retrying { ftruncate(descriptor, off_t(size)) }
    }

    public func setPermissions(_ permissions: UInt32) throws(SystemError) {
        guard fchmod(descriptor, mode_t(permissions)) == 0 else { throw SystemError.last }
    }

    public func setOwner(_ owner: UInt32, group: UInt32) throws(SystemError) {
        guard fchown(descriptor, uid_t(owner), gid_t(group)) == 0 else { throw SystemError.last }
    }

    /// An exclusive advisory lock (`flock`) on the whole file, let go by the
    /// kernel however the process ends. Without `wait`, one another process
    /// holds fails with `SystemError.wouldBlock`.
    public func lock(wait: Bool = true) throws(SystemError) {
        try SystemCall.retrying { flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) }
    }

    public func unlock() {
        _ = flock(descriptor, LOCK_UN)
    }

    /// Reads block again after an open that did not wait.
    public func setBlocking() {
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
    }

    /// Moves the file position to `offset` bytes from the end (a negative
    /// offset) or from the start.
    public func seek(fromEnd offset: Int64) throws(SystemError) -> Int64 {
        let position = lseek(descriptor, off_t(offset), SEEK_END)
        guard position >= 0 else { throw SystemError.last }
        return Int64(position)
    }

    public func seek(to offset: Int64) throws(SystemError) {
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw SystemError.last }
    }

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }
}

public enum FileSystem {
    /// Opens `path`; `permissions` are those of a file it creates (less the umask).
    public static func open(_ path: String, _ mode: OpenMode, permissions: UInt32 = 0o644) throws(SystemError) -> OpenFile {
        let flags = mode.rawValue | O_CLOEXEC
        #if canImport(Glibc)
            let descriptor = Glibc.open(path, flags, mode_t(permissions))
        #else
            let descriptor = Darwin.open(path, flags, mode_t(permissions))
        #endif
        guard descriptor >= 0 else { throw SystemError.last }
        return OpenFile(descriptor: descriptor)
    }

    /// What `stat` says of `path`, following a symbolic link.
    public static func status(_ path: String) throws(SystemError) -> FileStatus {
        var raw = stat()
        guard stat(path, &raw) == 0 else { throw SystemError.last }
        return FileStatus(raw)
    }

    /// What `lstat` says of `path`: a symbolic link itself, not where it leads.
    public static func linkStatus(_ path: String) throws(SystemError) -> FileStatus {
        var raw = stat()
        guard lstat(path, &raw) == 0 else { throw SystemError.last }
        return FileStatus(raw)
    }

    public static func rename(_ from: String, to: String) throws(SystemError) {
        #if canImport(Glibc)
            guard Glibc.rename(from, to) == 0 else { throw SystemError.last }
        #else
            guard Darwin.rename(from, to) == 0 else { throw SystemError.last }
        #endif
    }

    #if canImport(Glibc)
        /// glibc's `renameat2`, which Swift's Glibc module does not export.
        private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        private static let renameat2: RenameAt2? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
            return unsafeBitCast(symbol, to: RenameAt2.self)
        }()
    #endif

    /// Renames `from` to `to` unless `to` exists (then `SystemError.exists`):
    /// `renameat2(RENAME_NOREPLACE)` on Linux, `renamex_np(RENAME_EXCL)` on
    /// macOS. Where the filesystem cannot, a hard link and an unlink do the
    /// same, with an instant in which the file has two names.
    public static func renameWithoutReplacing(_ from: String, to: String) throws(SystemError) {
        #if canImport(Glibc)
            if let renameat2 {
                if renameat2(AT_FDCWD, from, AT_FDCWD, to, 1) == 0 { return }
                if errno != EINVAL && errno != ENOSYS { throw SystemError.last }
            }
        #else
            if renamex_np(from, to, UInt32(RENAME_EXCL)) == 0 { return }
            if errno != ENOTSUP && errno != EINVAL { throw SystemError.last }
        #endif
        try link(from, to: to)
        remove(from)
    }

    /// Swaps two paths at once: `renameat2(RENAME_EXCHANGE)` on Linux,
    /// `renamex_np(RENAME_SWAP)` on macOS; `SystemError.notSupported` where
    /// the kernel or the filesystem cannot.
    public static func exchange(_ first: String, _ second: String) throws(SystemError) {
        #if canImport(Glibc)
            guard let renameat2 else { throw SystemError.notSupported }
            guard renameat2(AT_FDCWD, first, AT_FDCWD, second, 2) == 0 else {
                throw errno == EINVAL || errno == ENOSYS ? SystemError.notSupported : SystemError.last
            }
        #else
            guard renamex_np(first, second, UInt32(RENAME_SWAP)) == 0 else {
                throw errno == EINVAL ? SystemError.notSupported : SystemError.last
            }
        #endif
    }

    /// A second name for a file.
    public static func link(_ existing: String, to name: String) throws(SystemError) {
        #if canImport(Glibc)
            guard Glibc.link(existing, name) == 0 else { throw SystemError.last }
        #else
            guard Darwin.link(existing, name) == 0 else { throw SystemError.last }
        #endif
    }

    /// Removes a file (not a folder); a missing one is no error.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        unlink(path) == 0 || errno == ENOENT
    }

    /// Removes an empty folder.
    public static func removeFolder(_ path: String) throws(SystemError) {
        guard rmdir(path) == 0 else { throw SystemError.last }
    }

    /// Makes one folder (not its parents).
    public static func makeFolder(_ path: String, permissions: UInt32 = 0o755) throws(SystemError) {
        guard mkdir(path, mode_t(permissions)) == 0 else { throw SystemError.last }
    }

    /// The absolute path with every symbolic link resolved; the file must exist.
    public static func realPath(_ path: String) throws(SystemError) -> String {
        guard let resolved = realpath(path, nil) else { throw SystemError.last }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Where the symbolic link at `path` points, nil where it is none.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why this user may not write `path`, nil when they may: the effective
    /// user's access, which a read-only filesystem denies even to root.
    public static func writeDenied(_ path: String) -> SystemError? {
        faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 ? nil : SystemError.last
    }

    /// Whether `path` is a file this user may run.
    public static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// Makes a folder's entries (a rename into it, a file made in it) durable.
    public static func syncFolder(_ path: String) {
        guard let folder = try? open(path, [.read, .folder]) else { return }
        try? folder.sync()
    }

    /// The type of the filesystem that holds `path` (a folder): on Linux the
    /// type /proc/self/mountinfo gives the deepest mount containing it ("nfs4",
    /// "fuse.sshfs"), on macOS the `f_fstypename` of `statfs` ("nfs", "smbfs",
    /// "macfuse"). Nil where it cannot be told.
    public static func filesystemType(of path: String) -> String? {
        #if canImport(Darwin)
            var info = statfs()
            guard statfs(path, &info) == 0 else { return nil }
            return withUnsafeBytes(of: info.f_fstypename) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        #else
            guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
            return MountTable(table).filesystemType(of: path)
        #endif
    }

    #if canImport(Glibc)
        // glibc's extended-attribute calls (sys/xattr.h), which Swift's Glibc module does not export.
        private typealias ListAttributes = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int
        private typealias GetAttribute = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
        private typealias SetAttribute = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32
        private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
        }
        private static let flistxattr = symbol("flistxattr", as: ListAttributes.self)
        private static let fgetxattr = symbol("fgetxattr", as: GetAttribute.self)
        private static let fsetxattr = symbol("fsetxattr", as: SetAttribute.self)
    #endif

    /// The extended attributes of a file (Finder tags, quarantine flags):
    /// each name with its value. Empty where the filesystem keeps none.
    public static func extendedAttributes(of file: OpenFile) -> [(name: String, value: [UInt8])] {
        #if canImport(Darwin)
            func list(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int { flistxattr(file.descriptor, buffer, size, 0) }
            func get(_ name: String, _ buffer: UnsafeMutableRawPointer?, _ size: Int) -> Int {
                fgetxattr(file.descriptor, name, buffer, size, 0, 0)
            }
        #else
            guard let flistxattr, let fgetxattr else { return [] }
            func list(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int { flistxattr(file.descriptor, buffer, size) }
            func get(_ name: String, _ buffer: UnsafeMutableRawPointer?, _ size: Int) -> Int {
                fgetxattr(file.descriptor, name, buffer, size)
            }
        #endif
        let size = list(nil, 0)
        guard size > 0 else { return [] }
        var names = [CChar](repeating: 0, count: size)
        let listed = list(&names, size)
        guard listed > 0 else { return [] }
        var attributes: [(name: String, value: [UInt8])] = []
        for raw in names[..<min(listed, size)].split(separator: 0) {
            let name = String(decoding: raw.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let length = get(name, nil, 0)
            guard length >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: length)
            let read = value.withUnsafeMutableBytes { get(name, $0.baseAddress, length) }
            guard read >= 0 else { continue }
            attributes.append((name, Array(value.prefix(read))))
        }
        return attributes
    }

    /// The bytes an unprivileged user may still write on the filesystem that
    /// holds `path` (`statvfs`); nil when it cannot be read.
    public static func freeBytes(at path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// A user's login name from the password database; the number where it has none.
    public static func ownerName(_ id: UInt32) -> String {
        guard let entry = getpwuid(uid_t(id)), let name = entry.pointee.pw_name else { return String(id) }
        return String(cString: name)
    }

    /// A group's name from the group database; the number where it has none.
    public static func groupName(_ id: UInt32) -> String {
        guard let entry = getgrgid(gid_t(id)), let name = entry.pointee.gr_name else { return String(id) }
        return String(cString: name)
    }

    /// Gives a file an extended attribute.
    public static func setExtendedAttribute(_ name: String, _ value: [UInt8], on file: OpenFile) throws(SystemError) {
        #if canImport(Darwin)
            let set = value.withUnsafeBytes { fsetxattr(file.descriptor, name, $0.baseAddress, value.count, 0, 0) }
        #else
            guard let fsetxattr else { throw SystemError.notSupported }
            let set = value.withUnsafeBytes { fsetxattr(file.descriptor, name, $0.baseAddress, value.count, 0) }
        #endif
        guard set == 0 else { throw SystemError.last }
    }
}

/// The mounts of Linux's /proc/self/mountinfo: which filesystem holds a path.
struct MountTable {
    struct Mount {
        var point: String
        var type: String
    }

    var mounts: [Mount] = []

    init(_ text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            // id parent major:minor root mount-point options [optional...] - type source super-options
            guard fields.count >= 10, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else { continue }
            mounts.append(Mount(point: Self.unescape(String(fields[4])), type: String(fields[dash + 1])))
        }
    }

    /// The type of the deepest mount that contains `path` (the last one mounted wins).
    func filesystemType(of path: String) -> String? {
        var best: Mount?
        for mount in mounts where Self.contains(mount.point, path) {
            if let current = best, current.point.count > mount.point.count { continue }
            best = mount
        }
        return best?.type
    }

    private static func contains(_ point: String, _ path: String) -> Bool {
        point == "/" || path == point || path.hasPrefix(point.hasSuffix("/") ? point : point + "/")
    }

    /// mountinfo writes space, tab, newline and backslash as octal escapes: `\040`.
    static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        let raw = Array(text.utf8)
        var index = 0
        while index < raw.count {
            if raw[index] == UInt8(ascii: "\\"), index + 3 < raw.count,
                let value = UInt8(String(decoding: raw[index + 1...index + 3], as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(raw[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

// MARK: - Files a write has not yet put in place

/// The temporary files of writes in progress: removed when SIGINT, SIGTERM
/// or SIGHUP stops the process (Ctrl-C, a closed terminal, `kill`), which
/// then ends as the signal would have ended it. A `kill -9` leaves them to the
/// next run's sweep of leftovers. Where a signal was ignored when the program
/// started (a background job), it stays ignored.
public enum PendingFiles {
    static let capacity = 16
    /// The paths, as C strings the signal handler can unlink without allocating.
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()
    private static let handlersInstalled: Bool = {
        let numbers = [SIGINT, SIGTERM, SIGHUP]
        for number in numbers {
            let previous = signal(number, removePendingFilesAndDie)
            if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { signal(number, SIG_IGN) }
        }
        // A mask inherited from the program that started this one (a test
        // runner's thread) would hold them back until the write is done.
        var set = sigset_t()
        #if canImport(Darwin)
            for number in numbers { set |= sigset_t(1) << sigset_t(number - 1) }
        #else
            sigemptyset(&set)
            for number in numbers { sigaddset(&set, number) }
        #endif
        sigprocmask(SIG_UNBLOCK, &set, nil)
        return true
    }()

    /// Registers a temporary file; returns its slot for `remove`, nil when
    /// every slot is taken (the file is then left to the sweep).
    public static func add(_ path: String) -> Int? {
        _ = slots
        _ = handlersInstalled
        guard let free = (0..<capacity).first(where: { slots[$0] == nil }) else { return nil }
        slots[free] = strdup(path)
        return free
    }

    /// Forgets a temporary file: renamed into place, or removed.
    public static func remove(_ slot: Int?) {
        guard let slot else { return }
        let path = slots[slot]
        slots[slot] = nil
        free(path)
    }
}

/// The handler: async-signal-safe calls only (unlink, signal, raise).
private func removePendingFilesAndDie(_ number: Int32) {
    for index in 0..<PendingFiles.capacity {
        if let path = PendingFiles.slots[index] { unlink(path) }
    }
    signal(number, SIG_DFL)
    raise(number)
}

// MARK: - This process

public enum ThisProcess {
    public static var id: Int32 { getpid() }

    /// Whether this process runs as root, whom file modes do not stop.
    public static var isRoot: Bool { geteuid() == 0 }

    /// Whether the process `id` has ended (a leftover of a crash).
    public static func hasEnded(_ id: Int32) -> Bool {
        id != getpid() && kill(id, 0) != 0 && errno == ESRCH
    }

    /// Kills this process at once, as `kill -9` would (crash tests only).
    public static func killNow() {
        kill(getpid(), SIGKILL)
    }

    /// Stops this process (SIGSTOP) until another sends SIGCONT (crash tests only).
    public static func stop() {
        kill(getpid(), SIGSTOP)
    }

    /// Ends the process with `status`.
    public static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
            Glibc.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }

    /// A write past a file-size limit then fails with EFBIG instead of killing the process.
    public static func ignoreFileSizeLimitSignal() {
        signal(SIGXFSZ, SIG_IGN)
    }

    /// The login name of this process's user, from the password database.
    private static func userName() -> String? {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// The environment with USER set to who runs the process, for testers and
    /// authors: $USER, else $LOGNAME, else the login name of the user id.
    public static func environment(_ variables: [String: String]) -> [String: String] {
        guard (variables["USER"] ?? "").isEmpty else { return variables }
        var variables = variables
        variables["USER"] = variables["LOGNAME"].flatMap { $0.isEmpty ? nil : $0 } ?? userName()
        return variables
    }

    /// The user's home folder: `$HOME`, else the password database's entry.
    public static func homeFolder(environment: [String: String]) -> String? {
        if let home = environment["HOME"], !home.isEmpty { return home }
        guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return nil }
        return String(cString: folder)
    }

    /// The path of the running program, nil where unknown: /proc/self/exe on
    /// Linux, `_NSGetExecutablePath` on macOS.
    public static func executablePath() -> String? {
        #if canImport(Darwin)
            var size: UInt32 = 0
            _ = _NSGetExecutablePath(nil, &size)
            var buffer = [CChar](repeating: 0, count: Int(size) + 1)
            guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
            return try? FileSystem.realPath(String(cString: buffer))
        #else
            return FileSystem.linkTarget("/proc/self/exe")
        #endif
    }

    /// The standard descriptors.
    public static let standardInput: Int32 = STDIN_FILENO
    public static let standardOutput: Int32 = STDOUT_FILENO
    public static let standardError: Int32 = STDERR_FILENO

    /// Whether a standard descriptor (0, 1, 2) is a terminal.
    public static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// Whether a standard descriptor takes colour: a terminal that has it
    /// (by $TERM), and never when NO_COLOR is set.
    public static func takesColour(_ descriptor: Int32, environment: [String: String]) -> Bool {
        isTerminal(descriptor) && (environment["NO_COLOR"] ?? "").isEmpty && !["", "dumb"].contains(environment["TERM"] ?? "")
    }

    /// How many columns the terminal on `descriptor` has; nil when it is none.
    public static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        guard isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

// MARK: - Other programs

/// Another program run to its end with `posix_spawn`: its standard input
/// `/dev/null`, its standard output kept or written to a file as it comes,
/// its standard error kept (the last 64 KB). Both outputs are read by one
/// loop (`poll`), so neither can fill its pipe and stop the program while the
/// other is read. The program leads a process group of its own: when its time
/// is up the whole group is killed, children that hold its output included,
/// and the reading stops then whatever still holds the pipes.
public enum ChildProcess {
    public struct Ran: Sendable {
        public var status: Int32
        public var output: Data
        public var error: String
    }

    /// Why a run stopped short.
    public enum Failure: Error, Equatable, Sendable {
        /// It could not be started, or its output not read.
        case system(SystemError)
        /// It printed more than `limit` bytes to standard output.
        case tooMuchOutput(limit: Int)
        /// Its time was up.
        case timedOut(seconds: Double)
        /// `sink` would not take its output.
        case sink(Error)

        public static func == (left: Failure, right: Failure) -> Bool {
            switch (left, right) {
            case let (.system(a), .system(b)): return a == b
            case let (.tooMuchOutput(a), .tooMuchOutput(b)): return a == b
            case let (.timedOut(a), .timedOut(b)): return a == b
            case (.sink, .sink): return true
            default: return false
            }
        }
    }

    /// Runs `executable` (a path) with `arguments`. Its standard output goes
    /// to `sink` when given (which may throw to stop it), else is kept; in
    /// either case more than `limit` bytes stop it. After `seconds`, when
    /// given, it is stopped.
    public static func run(
        _ executable: String, _ arguments: [String], limit: Int, seconds: Double?,
        sink: ((UnsafeRawBufferPointer) throws -> Void)? = nil
    ) throws(Failure) -> Ran {
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        guard pipe(&outputPipe) == 0 else { throw .system(SystemError.last) }
        guard pipe(&errorPipe) == 0 else {
            let code = SystemError.last
            _ = close(outputPipe[0])
            _ = close(outputPipe[1])
            throw .system(code)
        }
        let ownReadEnds = [outputPipe[0], errorPipe[0]]
        for end in ownReadEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }

        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #else
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        for end in [outputPipe[0], outputPipe[1], errorPipe[0], errorPipe[1]] {
            posix_spawn_file_actions_addclose(&actions, end)
        }
        // A process group of its own (its id is the child's), so that what it
        // starts is stopped with it.
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // This process's environment, passed on as it is (`environ` is not
        // exported to Swift on every platform).
        let envp: [UnsafeMutablePointer<CChar>?] =
            ProcessInfo.processInfo.environment.sorted { $0.key < $1.key }.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        _ = close(outputPipe[1])
        _ = close(errorPipe[1])
        guard spawned == 0 else {
            for end in ownReadEnds { _ = close(end) }
            throw .system(SystemError(code: spawned))
        }

        var kept = Data()
        var errorTail = Data()
        var failure: Failure?
        var open = ownReadEnds
        let deadline = seconds.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) }
        var written = 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        /// Stops the program and everything in its group; the reading ends.
        func stop(_ why: Failure) {
            failure = failure ?? why
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        while !open.isEmpty && failure == nil {
            var watched = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var wait: Int32 = -1
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                wait = left <= .zero ? 0 : Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            }
            let ready = poll(&watched, nfds_t(watched.count), wait)
            if ready < 0 {
                if errno == EINTR { continue }
                stop(.system(SystemError.last))
                break
            }
            if ready == 0 {
                if let deadline, let seconds, ContinuousClock.now >= deadline { stop(.timedOut(seconds: seconds)) }
                continue
            }
            for entry in watched where entry.revents != 0 && failure == nil {
                let count = read(entry.fd, buffer.baseAddress, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    _ = close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                    continue
                }
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                if entry.fd == errorPipe[0] {
                    errorTail.append(contentsOf: chunk)
                    if errorTail.count > 65_536 { errorTail = errorTail.suffix(65_536) }
                    continue
                }
                written += count
                if written > limit {
                    stop(.tooMuchOutput(limit: limit))
                } else if let sink {
                    do { try sink(chunk) } catch { stop(.sink(error)) }
                } else {
                    kept.append(contentsOf: chunk)
                }
            }
        }
        for end in open { _ = close(end) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Whatever it started and left behind goes with it.
        if failure == nil { kill(-pid, SIGKILL) }
        if let failure { throw failure }
        return Ran(status: exitStatus(status), output: kept, error: String(decoding: errorTail, as: UTF8.self))
    }

    /// The exit status from `waitpid`'s word; a signal's number plus 128 when killed.
    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}

// MARK: - Bytes and numbers

public enum Bytes {
    /// The index of the first `byte` in `bytes` from `start` on (`memchr`).
    @inline(__always)
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count else { return nil }
        guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Where `needle` (not empty) first occurs in `haystack` from `start` on:
    /// its first byte found with `memchr`, the rest compared with `memcmp`
    /// (glibc's `memmem` is not exported to Swift).
    public static func firstIndex(of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard let base = haystack.baseAddress, let target = needle.baseAddress, !needle.isEmpty else { return nil }
        var from = start
        while from + needle.count <= haystack.count, let at = firstIndex(of: needle[0], in: haystack, from: from) {
            guard at + needle.count <= haystack.count else { return nil }
            if memcmp(base + at, target, needle.count) == 0 { return at }
            from = at + 1
        }
        return nil
    }

    /// Whether `count` bytes at two places are the same (`memcmp`).
    @inline(__always)
    public static func equal(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(first, second, count) == 0
    }

    /// The length of a NUL-terminated C string (`strlen`).
    public static func length(ofCString pointer: UnsafePointer<CChar>) -> Int {
        strlen(pointer)
    }
}

/// The C library's mathematics, which FoundationEssentials does not bring.
public enum Math {
    public static func log10(_ value: Double) -> Double {
        #if canImport(Glibc)
            Glibc.log10(value)
        #else
            Darwin.log10(value)
        #endif
    }

    public static func power(_ base: Double, _ exponent: Double) -> Double {
        #if canImport(Glibc)
            Glibc.pow(base, exponent)
        #else
            Darwin.pow(base, exponent)
        #endif
    }
}
