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
            // Exclusivity is still checked at compile time; in release builds the
            // run-time checks on every access to a class's buffer (a tenth of a
            // large report's time) are left out.
            swiftSettings: [
                .unsafeFlags(["-enforce-exclusivity=unchecked", "-static-stdlib"], .when(configuration: .release))
            ],
            plugins: ["EmbedResources"]
        ),
        .executableTarget(
            name: "evidence",
            dependencies: ["EvidenceStore"],
            // A release binary carries the Swift runtime and Foundation instead
            // of loading them (as `swift build --static-swift-stdlib` builds it):
            // a command starts in 4 ms, not 10 spent by the dynamic loader on
            // their symbols, which a `log` or a small ingest feels. The system's
            // SQLite, libxml2 and libcrypto stay shared.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        .testTarget(
            name: "EvidenceStoreTests",
            dependencies: ["EvidenceStore", "evidence", "CLibXML2"],
            exclude: ["Golden", "Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
