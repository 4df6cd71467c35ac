// swift-tools-version:6.0
import PackageDescription

// The C libraries come from the system on each platform: on Linux from the
// distribution's -dev packages, found through pkg-config; on macOS from the
// SDK that Xcode or its command-line tools install (sqlite3.h, libxml2's
// headers under usr/include/libxml, CommonCrypto), where no .pc file exists
// and none is needed. Homebrew is named only as a hint where pkg-config fails.
#if os(Linux)
    let sqlitePkgConfig: String? = "sqlite3"
    let libxml2PkgConfig: String? = "libxml-2.0"
#else
    let sqlitePkgConfig: String? = nil
    let libxml2PkgConfig: String? = nil
#endif

let package = Package(
    name: "evidence",
    // macOS 13 at least: the command line's task-local parse values (macOS
    // 10.15) and the Foundation of Xcode 15 and later; users run current Xcodes.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "evidence", targets: ["evidence"]),
        .library(name: "EvidenceStore", targets: ["EvidenceStore"]),
    ],
    targets: [
        // The system SQLite: Debian's libsqlite3-dev, the macOS SDK's libsqlite3.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: sqlitePkgConfig,
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // OpenSSL's libcrypto, for SHA-256 on Linux (Debian's libssl-dev);
        // macOS uses CommonCrypto from its SDK instead.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // libxml2, for JUnit XML parsed in chunks through SAX2: Debian's
        // libxml2-dev, the macOS SDK's libxml2.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: libxml2PkgConfig,
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
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
            dependencies: [
                "CSQLite",
                .target(name: "CCrypto", condition: .when(platforms: [.linux])),
                "CLibXML2",
            ],
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
