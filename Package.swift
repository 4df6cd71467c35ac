// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "evidence",
    products: [
        .executable(name: "evidence", targets: ["evidence"]),
        .library(name: "EvidenceStore", targets: ["EvidenceStore"]),
    ],
    targets: [
        // The system SQLite, found through pkg-config; Debian ships it as libsqlite3-dev.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // OpenSSL's libcrypto, for SHA-256; Debian ships it as libssl-dev.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // libxml2, for JUnit XML parsed in chunks through SAX2; Debian ships it as libxml2-dev.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // Turns migrations/*.sql and seed/* into Swift source, so the binary carries them.
        .executableTarget(name: "embed-resources"),
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            dependencies: ["embed-resources"]
        ),
        .target(
            name: "EvidenceStore",
            dependencies: ["CSQLite", "CCrypto", "CLibXML2"],
            plugins: ["EmbedResources"]
        ),
        .executableTarget(
            name: "evidence",
            dependencies: ["EvidenceStore"]
            // No unsafe flags, so that EvidenceStore can be a versioned
            // dependency: scripts/release.sh links the Swift runtime in
            // (--static-swift-stdlib) for the binary people install.
        ),
        .testTarget(
            name: "EvidenceStoreTests",
            dependencies: ["EvidenceStore", "evidence", "CLibXML2"],
            exclude: ["Golden", "Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
