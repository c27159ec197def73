import Foundation
import IAPSimStoreKitServe
import Testing

@testable import IAPSimStoreKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app that speaks its backend's own words, as a `serve.yaml` maps them: the same file
/// `iapsim serve` calls the real backend with maps the app's calls onto the simulated one.
actor OwnWordsApp {
    let session: URLSession
    let base = "https://shop.example.com/api"
    var credited: [String] = []

    init(_ configuration: URLSessionConfiguration) {
        session = URLSession(configuration: configuration)
    }

    func post(_ path: String, _ body: [String: Any]) async throws -> (Int, [String: Any]) {
        var r = URLRequest(url: URL(string: base + path)!)
        r.httpMethod = "POST"
        r.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, response) = try await session.data(for: r)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }

    /// Order (login, sku), buy with the backend's token, report (jws, ref), then finish; with
    /// `finishWhatever`, the planted bug: finish even when the report got no answer.
    func buy(_ sku: String, finishWhatever: Bool = false) async throws {
        let (code, order) = try await post("/v2/purchase-intents", ["login": "alice", "sku": sku])
        #expect(code == 200, "\(order)")
        let ref = try #require(order["ref"] as? String, "\(order)")
        let token = try #require((order["token"] as? String).flatMap(UUID.init(uuidString:)), "\(order)")
        let product = try #require(try await Product.products(for: [sku]).first)
        guard case .success(let v) = try await product.purchase(options: [.appAccountToken(token)]),
            case .verified(let t) = v
        else { return }
        do {
            let (_, answer) = try await post(
                "/v2/apple-receipts", ["jws": v.jwsRepresentation, "ref": ref, "login": "alice"])
            if let status = answer["status"] as? String { credited.append(status) }
        } catch {
            if finishWhatever { await t.finish() }
            throw error
        }
        await t.finish()
    }
}

@Suite struct ServeConfigRoutesTests {
    static func config(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "iapsim-routes-\(UUID().uuidString).yaml"
        ).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let yaml = """
        order: {path: /v2/purchase-intents, fields: {user: login, productId: sku, orderId: ref, appAccountToken: token}}
        report: {path: /v2/apple-receipts, fields: {signedTransaction: jws, orderId: ref, user: login, result: status}}
        notify: {path: /v2/apple-notifications}

        """

    @Test func anAppSpeakingItsBackendsWordsIsServedAsServeYamlSays() async throws {
        let path = try Self.config(Self.yaml)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let routes = try MerchantRoutes(baseURL: URL(string: "https://shop.example.com/api")!, serveConfig: path)
        #expect(routes.orders == "/v2/purchase-intents" && routes.report == "/v2/apple-receipts")
        let store = try SimulatedStore(routes: routes)
        let app = await store.launch { OwnWordsApp(store.urlSessionConfiguration) }
        let bought = await store.user { try await app.buy("coins_100") }
        await store.settle()
        try await bought.value
        #expect(await app.credited == ["credited"])
        let verdict = await store.verdict().lines
        #expect(verdict.contains("anomalies: none"), "\(verdict)")
        #expect(verdict.contains { $0.hasPrefix("balances: alice 100") }, "\(verdict)")
    }

    /// The fault names the report's route as the core does (`recharge`) or as the team's
    /// `serve.yaml` does: its key, its path, the path's last part.
    @Test(arguments: ["recharge", "report", "apple-receipts", "/v2/apple-receipts"])
    func underAFaultTheAppFinishingWhateverTheAnswerMissesTheOrder(route: String) async throws {
        let path = try Self.config(Self.yaml)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let routes = try MerchantRoutes(baseURL: URL(string: "https://shop.example.com/api")!, serveConfig: path)
        let store = try SimulatedStore(serverPolicy: .naive, routes: routes)
        let app = await store.launch { OwnWordsApp(store.urlSessionConfiguration) }
        try await store.perform("drop-next-request \(route)")
        let bought = await store.user { try await app.buy("coins_100", finishWhatever: true) }
        await store.settle()
        await #expect(throws: URLError.self) { try await bought.value }
        // The report never reached the server, and the app finished anyway: a missed order.
        let verdict = await store.verdict().lines
        #expect(verdict.contains { $0.hasPrefix("  A1 missed-order permanent") }, "\(verdict)")
    }

    @Test func theTeamsRouteNamesAreTheCoresInAFault() throws {
        let path = try Self.config(Self.yaml)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let routes = try MerchantRoutes(baseURL: URL(string: "https://shop.example.com/api")!, serveConfig: path)
        #expect(routes.coreWords("drop-next-response purchase-intents") == "drop-next-response order")
        #expect(routes.coreWords("latency /v2/apple-receipts 5s") == "latency recharge 5s")
        #expect(routes.coreWords("refund newest") == "refund newest")
        #expect(routes.coreWords("drop-next-request nowhere") == "drop-next-request nowhere")
    }

    @Test func aBadServeYamlIsNamedWithItsLineAndColumn() throws {
        let path = try Self.config("order: {path: orders}\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: SimulatedStoreError.badRoutes("\(path):1:15: 'order.path' must start with /")) {
            try MerchantRoutes(baseURL: URL(string: "https://shop.example.com")!, serveConfig: path)
        }
    }
}
