#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(CommonCrypto)
    import CommonCrypto
#else
    import CCrypto
#endif

/// SHA-256 of attachments, ingested files and claims' words, from the
/// system's own library: CommonCrypto on macOS (in the SDK), OpenSSL's
/// libcrypto on Linux. Both forms stand side by side here and nowhere else;
/// the tests hold each to the same standard test vectors.
public final class SHA256 {
    #if canImport(CommonCrypto)
        private var context = CC_SHA256_CTX()
    #else
        private let context: OpaquePointer
    #endif
    private var finished = false

    public init() {
        #if canImport(CommonCrypto)
            CC_SHA256_Init(&context)
        #else
            // EVP_MD_CTX_new fails only when memory is exhausted.
            guard let context = EVP_MD_CTX_new() else { preconditionFailure("libcrypto cannot allocate a digest context") }
            self.context = context
            EVP_DigestInit_ex(context, EVP_sha256(), nil)
        #endif
    }

    deinit {
        #if !canImport(CommonCrypto)
            EVP_MD_CTX_free(context)
        #endif
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!finished, "a SHA256 hasher is spent once finalized")
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        #if canImport(CommonCrypto)
            // CC_LONG is 32 bits: a larger buffer is hashed in parts.
            var offset = 0
            while offset < bytes.count {
                let length = min(bytes.count - offset, Int(Int32.max))
                CC_SHA256_Update(&context, base + offset, CC_LONG(length))
                offset += length
            }
        #else
            EVP_DigestUpdate(context, base, bytes.count)
        #endif
    }

    public func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// The digest's 32 bytes; the hasher is spent afterwards.
    public func finalize() -> [UInt8] {
        precondition(!finished, "a SHA256 hasher is spent once finalized")
        finished = true
        var bytes = [UInt8](repeating: 0, count: 32)
        #if canImport(CommonCrypto)
            CC_SHA256_Final(&bytes, &context)
        #else
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, &bytes, &length)
        #endif
        return bytes
    }

    /// The digest as 64 lower-case hex digits; the hasher is spent afterwards.
    public func finalizeHex() -> String {
        Self.hex(digest: finalize())
    }

    /// 64 lower-case hex digits for a digest's bytes.
    static func hex(digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The hex digest of some bytes.
    public static func hex(_ data: Data) -> String {
        Self.hex(digest: digest(data))
    }

    /// The 32 bytes of the digest of some bytes.
    public static func digest(_ data: Data) -> [UInt8] {
        let hasher = SHA256()
        hasher.update(data)
        return hasher.finalize()
    }

    /// The 32 bytes of the digest of some bytes.
    public static func digest(bytes: [UInt8]) -> [UInt8] {
        let hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }
}
