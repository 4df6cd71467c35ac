import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The two renames that make a whole file or folder appear at once: one that
/// never replaces what is there, and one that swaps two paths. Both are
/// glibc's `renameat2`, which Swift's Glibc module does not export.
public enum AtomicRename {
    private typealias RenameAt2 = @convention(c) (
        Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
    ) -> Int32
    private static let renameat2: RenameAt2? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()
    private static let noReplace: UInt32 = 1
    private static let exchange: UInt32 = 2

    /// Renames `from` to `to` unless `to` exists (then errno is EEXIST). Where
    /// the filesystem cannot, a hard link and an unlink do the same, with an
    /// instant in which the file has two names.
    public static func withoutReplacing(_ from: String, _ to: String) -> Bool {
        if let renameat2 {
            if renameat2(AT_FDCWD, from, AT_FDCWD, to, noReplace) == 0 { return true }
            if errno != EINVAL && errno != ENOSYS { return false }
        }
        guard link(from, to) == 0 else { return false }
        unlink(from)
        return true
    }

    /// Swaps two paths at once; false (with errno) where the kernel or the
    /// filesystem cannot.
    public static func swap(_ first: String, _ second: String) -> Bool {
        guard let renameat2 else {
            errno = ENOSYS
            return false
        }
        return renameat2(AT_FDCWD, first, AT_FDCWD, second, exchange) == 0
    }
}
