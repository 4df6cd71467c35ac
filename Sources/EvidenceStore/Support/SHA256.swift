import CCrypto
import Dispatch
import FoundationEssentials

/// SHA-256 of attachments, ingested files and claims' words, from OpenSSL's
/// libcrypto (EVP), which uses the processor's SHA extensions where it has
/// them. The tests check it against the standard test vectors.
///
/// A hasher made `onItsOwnThread` hashes on a thread of its own what it is
/// given, a few chunks behind, so that a file is hashed while it is parsed;
/// the digest waits for the last chunk.
public final class SHA256 {
    private let context: Context
    /// The thread's queue, and the chunks it may fall behind by (so that its
    /// copies stay bounded); nil when hashing on the caller's thread.
    private let thread: (queue: DispatchQueue, slots: DispatchSemaphore)?

    public init(onItsOwnThread: Bool = false) {
        // EVP_MD_CTX_new fails only when memory is exhausted.
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("libcrypto cannot allocate a digest context") }
        self.context = Context(context)
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        thread = onItsOwnThread ? (DispatchQueue(label: "evidence.sha256"), DispatchSemaphore(value: 8)) : nil
    }

    /// libcrypto's digest context: used by one thread at a time, the caller's
    /// or the hashing queue's (which `finalize` waits for), and freed when
    /// the last of them lets it go.
    private final class Context: @unchecked Sendable {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) {
            self.pointer = pointer
        }

        deinit {
            EVP_MD_CTX_free(pointer)
        }

        func hash(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            EVP_DigestUpdate(pointer, base, bytes.count)
        }
    }

    /// The hex digest of some bytes.
    public static func hex(_ data: Data) -> String {
        let hasher = SHA256()
        hasher.update(data)
        return hasher.finalizeHex()
    }

    /// The 32 bytes of the digest of some bytes.
    public static func digest(_ data: Data) -> [UInt8] {
        let hasher = SHA256()
        hasher.update(data)
        return hasher.finalize()
    }

    /// The 32 bytes of the digest of some bytes, in one call (no context to make).
    public static func digest(bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBytes { input in
            _ = EVP_Digest(input.baseAddress, input.count, &out, &length, EVP_sha256(), nil)
        }
        return Array(out.prefix(Int(length)))
    }

    /// The hex digest of a file, read in chunks; nil when it cannot be read.
    public static func hex(ofFile path: String) -> String? {
        guard let handle = try? RegularFile.open(path) else { return nil }
        defer { handle.close() }
        let hasher = SHA256()
        do {
            try RegularFile.forEachChunk(of: handle, size: 1 << 20) { hasher.update($0) }
        } catch {
            return nil
        }
        return hasher.finalizeHex()
    }

    public func update(_ data: Data) {
        guard let (queue, slots) = thread else { return data.withUnsafeBytes { context.hash($0) } }
        // Data does not change: the thread reads it where it is.
        slots.wait()
        queue.async { [context] in
            data.withUnsafeBytes { context.hash($0) }
            slots.signal()
        }
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard thread != nil else { return context.hash(bytes) }
        // Copied: the caller's bytes may change once it returns.
        update(Data(bytes))
    }

    /// The digest's 32 bytes; the hasher is spent afterwards.
    public func finalize() -> [UInt8] {
        // Every chunk given is hashed first.
        thread?.queue.sync {}
        var bytes = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context.pointer, &bytes, &length)
        return Array(bytes.prefix(Int(length)))
    }

    /// The digest as 64 lower-case hex digits; the hasher is spent afterwards.
    public func finalizeHex() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in finalize() {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
