#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// The store `evidence demo` shows: the bundled iPhone Duo data set imported
/// into the store named, or into a temporary one that `close()` removes.
public struct DemoStore {
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
        var opened: Store?
        do {
            let store = try Store.initialize(at: target, clock: clock).0
            opened = store
            let summary = try StoreImporter(store: store).run(BundledSeed())
            sentence =
                scratch == nil
                ? "Demo store: \(store.path) (the iPhone Duo data set: \(summary))."
                : "Demo store: a temporary one, removed after the report (the iPhone Duo data set: \(summary)); "
                    + "give --store PATH to keep it."
            self.store = store
            self.scratch = scratch
        } catch {
            opened?.close()
            Self.remove(scratch)
            throw error
        }
    }

    /// Closes the store, and removes it when it was a temporary one.
    public func close() {
        store.close()
        Self.remove(scratch)
    }

    private static func remove(_ scratch: URL?) {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }
}
