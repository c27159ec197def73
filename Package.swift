// swift-tools-version:6.0
import Foundation
import PackageDescription

/// True when iapsim is the package being built, false when it is another package's
/// dependency: SwiftPM evaluates a dependency's manifest from the root package's directory.
/// SwiftPM runs a build-tool plugin for every target of the graph, also in a package that only
/// builds `IAPSimStoreKit`: the `GitVersion` plugin is attached only here, at the root.
let isRootPackage =
    URL(fileURLWithPath: FileManager.default.currentDirectoryPath).resolvingSymlinksInPath().path
    == URL(fileURLWithPath: Context.packageDirectory).resolvingSymlinksInPath().path

let package = Package(
    name: "iapsim",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "iapsim", targets: ["iapsim"]),
        .executable(name: "iapsim-docs", targets: ["iapsim-docs"]),
        // StoreKit 2's API over the simulated world, for your app's purchase code in `swift test`.
        // Builds no server or HTTP package and runs no build plugin: it is light to depend on.
        .library(name: "IAPSimStoreKit", targets: ["IAPSimStoreKit"]),
        // `ServedBackend`: your own backend as the merchant server of a `SimulatedStore`
        // (Hummingbird, AsyncHTTPClient and NIO come with it).
        .library(name: "IAPSimStoreKitServe", targets: ["IAPSimStoreKitServe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The world: engine, App Store, app, network, merchant server, auditor, policies.
        // Standard library and swift-collections only: no I/O, no clock, no threads.
        .target(
            name: "IAPSimCore",
            // Only the heap: the umbrella `Collections` product would build every module of the
            // package (ropes, bit sets, hash trees) for each consumer of IAPSimStoreKit.
            dependencies: [.product(name: "HeapModule", package: "swift-collections")]
        ),
        // Scenario format v1: parse with line/column errors, run, expectations, exports.
        .target(
            name: "IAPSimScenario",
            dependencies: ["IAPSimCore", .product(name: "Yams", package: "Yams")]
        ),
        // Terminal UI as pure functions: model, update(message), render -> cell grid.
        .target(name: "IAPSimTUI", dependencies: ["IAPSimCore", "IAPSimScenario"]),
        // C shim for the ncurses macros Swift cannot import, and the signal handlers.
        .target(
            name: "CNcurses",
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        // The only code that talks to ncurses.
        // IAPSimCurses imports IAPSimCore itself: it holds a UIModel, whose layout comes from
        // the core, and an incremental build only recompiles the importers of a changed module.
        .target(name: "IAPSimCurses", dependencies: ["CNcurses", "IAPSimTUI", "IAPSimCore", "IAPSimScenario"]),
        // Signed data at the edge: the certificate chain and JWS (ES256) that Apple's own
        // library accepts. Plain values in, bytes out; it does not know the core.
        .target(
            name: "IAPSimSigned",
            // Crypto only: the certificate chain is pinned bytes (`SigningChain`); the X.509 code
            // that made it is in the tests, so a consumer of IAPSimStoreKit builds none.
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // `iapsim serve`: the user's real backend as the merchant server. The only module that
        // speaks HTTP: Hummingbird 2 serves the App Store Server API lookalike, AsyncHTTPClient
        // makes the calls to the backend. Nothing else imports either.
        // The core's signed values as Apple's payloads: what the API, `--signed` and the
        // StoreKit harness sign.
        .target(name: "IAPSimApplePayload", dependencies: ["IAPSimCore", "IAPSimSigned"]),
        .target(
            name: "IAPSimServe",
            dependencies: [
                "IAPSimCore", "IAPSimScenario", "IAPSimSigned", "IAPSimApplePayload",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "iapsim",
            dependencies: [
                "IAPSimCore", "IAPSimScenario", "IAPSimTUI", "IAPSimCurses", "IAPSimSigned", "IAPSimServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // As a dependency: no plugin, and `iapsim --version` names no commit.
            swiftSettings: isRootPackage ? [] : [.define("IAPSIM_NO_GIT_VERSION")],
            plugins: isRootPackage ? ["GitVersion"] : []
        ),
        // `iapsim --version` names the commit the binary was built from (git, when there is one).
        // Only the `iapsim` executable uses it: no library product runs a build plugin.
        .plugin(name: "GitVersion", capability: .buildTool()),
        // The docs' generated tables: each block rendered from one of the code's own tables.
        .target(name: "IAPSimDocs", dependencies: ["IAPSimCore", "IAPSimScenario", "IAPSimTUI"]),
        // `swift run iapsim-docs [--check]`: writes (or checks) the docs' generated blocks.
        .executableTarget(name: "iapsim-docs", dependencies: ["IAPSimDocs"]),
        // StoreKit 2's names over the world: your app's own purchase code runs in it
        // (docs/app-code.md). Its public API is the only `public` of the package.
        .target(
            name: "IAPSimStoreKit",
            dependencies: [
                "IAPSimCore", "IAPSimScenario", "IAPSimSigned", "IAPSimApplePayload",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // `ServedBackend`: a `SimulatedStore` whose merchant server is your backend, as
        // `iapsim serve` runs it. The only StoreKit-side module that speaks HTTP.
        .target(name: "IAPSimStoreKitServe", dependencies: ["IAPSimStoreKit", "IAPSimServe", "IAPSimCore"]),
        // The example a team would recognise: a StoreKit 2 purchase manager, with planted bugs.
        .target(
            name: "PurchaseManager", dependencies: ["IAPSimStoreKit"],
            path: "Examples/PurchaseManager/Sources/PurchaseManager"),
        // bench/app-code.sh: the harness's figures, in a release build.
        .executableTarget(
            name: "purchase-manager-bench", dependencies: ["PurchaseManager", "IAPSimStoreKit"],
            path: "Examples/PurchaseManager/Bench"),
        .testTarget(
            name: "PurchaseManagerTests", dependencies: ["PurchaseManager", "IAPSimStoreKit", "IAPSimStoreKitServe"],
            path: "Examples/PurchaseManager/Tests/PurchaseManagerTests"),
        .testTarget(name: "IAPSimStoreKitTests", dependencies: ["IAPSimStoreKit", "IAPSimStoreKitServe"]),
        .testTarget(name: "IAPSimCoreTests", dependencies: ["IAPSimCore"]),
        .testTarget(name: "IAPSimScenarioTests", dependencies: ["IAPSimScenario", "IAPSimCore"]),
        .testTarget(
            name: "IAPSimTUITests", dependencies: ["IAPSimTUI", "IAPSimCore", "IAPSimScenario"],
            exclude: ["Golden"]),
        .testTarget(
            name: "IAPSimSignedTests",
            dependencies: [
                "IAPSimSigned",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]),
        .testTarget(
            name: "IAPSimDocsTests",
            dependencies: ["IAPSimDocs", "IAPSimCore", "IAPSimScenario", "IAPSimTUI"]),
        .testTarget(
            name: "IAPSimServeTests",
            dependencies: ["IAPSimServe", "IAPSimCore", "IAPSimScenario", "IAPSimSigned"]),
        // Runs the built binaries; reads the vocabulary's tables for the lists it expects.
        .testTarget(
            name: "EndToEndTests", dependencies: ["IAPSimCore", .product(name: "Yams", package: "Yams")]),
    ]
)
