#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The store `evidence demo` shows: the bundled iPhone Duo data set imported
/// into the store named, or into a temporary one that `close()` removes.
public final class DemoStore {
    public let store: Store
    /// What was made, in a sentence.
    public let sentence: String
    /// The temporary folder of the store, when none was named.
    private let scratch: URL?

    public init(at path: String?, clock: Clock) throws {
        var scratch: URL?
        let target: String
        if let path {
            target = path
        } else {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("evidence-demo-\(UUID().uuidString.prefix(8).lowercased())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            scratch = folder
            target = folder.appendingPathComponent("evidence.sqlite").path
        }
        let removeScratch = { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        let opened: Store
        do {
            opened = try Store.initialize(at: target, clock: clock).0
        } catch {
            removeScratch()
            throw error
        }
        do {
            let summary = try StoreImporter(store: opened).run(BundledSeed())
            sentence =
                scratch == nil
                ? "Demo store: \(opened.path) (the iPhone Duo data set: \(summary))."
                : "Demo store: a temporary one, removed after the report (the iPhone Duo data set: \(summary)); "
                    + "give --store PATH to keep it."
        } catch {
            opened.close()
            removeScratch()
            throw error
        }
        store = opened
        self.scratch = scratch
    }

    /// Closes the store, and removes it when it was a temporary one.
    public func close() {
        store.close()
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }
}
