import Foundation
import Testing

/// docs/app-code.md's "Add it", followed from a fresh folder: its Package.swift and its import
/// swap, a purchase module and its test; on Linux the test target builds against
/// `IAPSimStoreKit` and its test passes. The folder is kept between runs (its build is then
/// incremental); `IAPSIM_DOC_PACKAGE=0` skips it.
@Suite(.serialized) struct PackageFromDocsTests {
    static let enabled = ProcessInfo.processInfo.environment["IAPSIM_DOC_PACKAGE"] != "0"

    /// The fenced block after the HTML comment `marker` in docs/app-code.md.
    static func block(after marker: String) throws -> String {
        let doc = try String(
            contentsOf: CLI.root.appendingPathComponent("docs/app-code.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "<!-- \(marker)"), "no \(marker) in docs/app-code.md")
        let rest = doc[start.upperBound...]
        let open = try #require(rest.range(of: "```swift\n"))
        let close = try #require(rest[open.upperBound...].range(of: "\n```"))
        return String(rest[open.upperBound..<close.lowerBound]) + "\n"
    }

    @Test func theDocsNameNoPlaceholder() throws {
        let doc = try String(contentsOf: CLI.root.appendingPathComponent("docs/app-code.md"), encoding: .utf8)
        #expect(!doc.contains("<you>") && !doc.contains("<owner>"))
        let package = try Self.block(after: "app-code-package")
        #expect(package.contains("condition: .when(platforms: [.linux])"), "\(package)")
        #expect(package.contains(".package(path: \"../iapsim\")"), "\(package)")
    }

    @Test(.enabled(if: enabled, "IAPSIM_DOC_PACKAGE=0"), .timeLimit(.minutes(60)))
    func thePackageOfTheDocsBuildsAndItsTestPasses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-doc-package")
        let app = folder.appendingPathComponent("app")
        let fm = FileManager.default
        try fm.createDirectory(at: app.appendingPathComponent("Sources/MyStore"), withIntermediateDirectories: true)
        try fm.createDirectory(
            at: app.appendingPathComponent("Tests/MyStoreTests"), withIntermediateDirectories: true)
        // `../iapsim`: this checkout, beside the app's package as the docs have it.
        let link = folder.appendingPathComponent("iapsim")
        try? fm.removeItem(at: link)
        try fm.createSymbolicLink(at: link, withDestinationURL: CLI.root)
        try Self.block(after: "app-code-package").write(
            to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let swap = try Self.block(after: "app-code-import")
        try (swap + Self.shop).write(
            to: app.appendingPathComponent("Sources/MyStore/Shop.swift"), atomically: true, encoding: .utf8)
        try (swap + Self.test).write(
            to: app.appendingPathComponent("Tests/MyStoreTests/ShopTests.swift"), atomically: true, encoding: .utf8)
        let outputs = app.appendingPathComponent(".build/plugins/outputs")
        try? fm.removeItem(at: outputs)
        // The output goes to a file: a cold build writes more than a pipe holds.
        let log = folder.appendingPathComponent("swift-test.log")
        let result = try CLI.run(
            ["-c", "swift test --package-path \"$0\" > \"$1\" 2>&1", app.path, log.path],
            executable: URL(fileURLWithPath: "/bin/sh"))
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(result.status == 0, "\(output.suffix(4000))")
        #expect(output.contains("aPurchaseIsVerifiedAndFinished"), "\(output.suffix(4000))")
        // No build plugin ran (SwiftPM runs one for each target of the graph that uses it).
        let ran = (fm.enumerator(atPath: outputs.path)?.allObjects ?? []).compactMap { $0 as? String }
        #expect(!ran.contains { $0.hasSuffix("GitVersion.swift") }, "\(ran)")
        // The light library: no server or HTTP package among what the build compiled.
        let modules = app.appendingPathComponent(".build/debug/Modules")
        let built = (try? fm.contentsOfDirectory(atPath: modules.path)) ?? []
        #expect(built.contains("IAPSimStoreKit.swiftmodule"), "\(built)")
        for heavy in ["Hummingbird", "AsyncHTTPClient", "NIOCore", "NIOSSL", "IAPSimServe"] {
            #expect(!built.contains("\(heavy).swiftmodule"), "\(heavy) built: \(built)")
        }
    }

    static let shop = """

        /// A purchase manager's smallest form: buy, verify, send the JWS, finish.
        public actor Shop {
            public private(set) var sent: [String] = []
            public init() {}

            public func buy(_ id: String) async throws -> Bool {
                guard let product = try await Product.products(for: [id]).first else { return false }
                guard case .success(let result) = try await product.purchase(),
                    case .verified(let transaction) = result
                else { return false }
                sent.append(result.jwsRepresentation)
                await transaction.finish()
                return true
            }
        }

        """

    static let test = """
        import MyStore
        import Testing

        @Test func aPurchaseIsVerifiedAndFinished() async throws {
            let store = try SimulatedStore()
            let shop = await store.launch { Shop() }
            let bought = await store.user(shop) { try await $0.buy("no_ads") }
            await store.settle()
            #expect(try await bought.value)
            #expect(await shop.sent.count == 1)
            let owned = try await store.user { () -> [String] in
                var ids: [String] = []
                for await v in Transaction.currentEntitlements { ids.append(v.unsafePayloadValue.productID) }
                return ids
            }.value
            #expect(owned == ["no_ads"])
        }

        """
}
