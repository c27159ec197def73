import Foundation
import IAPSimCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The merchant server's paths as your app calls them, under its base URL.
public struct MerchantRoutes: Sendable, Hashable {
    /// Your app's merchant base URL: requests under it reach the simulated merchant server.
    public var baseURL: URL
    /// `POST`, JSON `{"user": ..., "product": ...}`; answered `{"orderId": ..., "appAccountToken": ...}`.
    public var orders: String
    /// `POST`, JSON `{"signedTransaction": JWS, "user": ..., "orderId": ...}`; answered
    /// `{"result": "credited" | "already-credited" | "refused" | "retry"}` with 200, 409, 422 or 503.
    public var report: String

    public init(
        baseURL: URL = URL(string: "https://merchant.example.com")!, orders: String = "/orders",
        report: String = "/report"
    ) {
        self.baseURL = baseURL
        self.orders = orders
        self.report = report
    }
}

extension SimulatedStore {
    /// Give this to your app's `URLSession`: its requests to `routes.baseURL` go through the
    /// simulated network (counted, dropped, delayed, refused when the device is offline, as the
    /// scenario's faults say) to the simulated merchant server. Any other host is unreachable.
    public var urlSessionConfiguration: URLSessionConfiguration {
        let c = URLSessionConfiguration.ephemeral
        c.protocolClasses = [SimulatedURLProtocol.self]
        let process = SimulatedStore.callerIncarnation ?? locked { incarnation }
        c.httpAdditionalHeaders = [
            SimulatedNetwork.storeHeader: networkKey, SimulatedNetwork.processHeader: "\(process)",
        ]
        return c
    }

    /// One request of your app reached the device's network.
    func send(_ request: URLRequest, load: SimulatedNetwork.Load, process: Int?) {
        let refusal: URLError? = locked {
            activity += 1
            guard app.running, process.map({ $0 == incarnation }) ?? true else { return URLError(.cancelled) }
            guard let payload = merchantPayload(request) else { return URLError(.cannotFindHost) }
            let exchange = sim.drivenSend(payload.route, payload.payload)
            app.loads.append((exchange, load))
            blocked()
            return nil
        }
        trace("send refused: \(String(describing: refusal))")
        if let refusal { load.fail(refusal) }
    }

    /// The core's message for an order or a report, or nil for a request the merchant does not serve.
    func merchantPayload(_ request: URLRequest) -> (route: Route, payload: Payload)? {
        guard let url = request.url, url.host == routes.baseURL.host, request.httpMethod == "POST",
            let body = request.httpBody ?? request.httpBodyStream.map(Self.read),
            let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { return nil }
        let path = String(url.path.dropFirst(routes.baseURL.path.count))
        let user = json["user"] as? String ?? sim.app.loggedIn ?? ""
        if path == routes.orders, let product = json["product"] as? String {
            return (.order, .orderRequest(user: user, product: product))
        }
        if path == routes.report, let jws = json["signedTransaction"] as? String, let s = signedByJWS[jws] {
            let r = RechargeRequest(
                transactionId: s.transactionId, productId: s.productId, uid: user,
                orderId: json["orderId"] as? String, orderToken: s.appAccountToken, receipt: nil,
                reason: .firstDelivery, signed: s)
            return (.recharge, .rechargeRequest(r))
        }
        return nil
    }

    static func read(_ stream: InputStream) -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while stream.hasBytesAvailable {
            let n = stream.read(&buffer, maxLength: buffer.count)
            if n <= 0 { break }
            data.append(buffer, count: n)
        }
        return data
    }
}

/// The merchant server's answer as HTTP.
struct HTTPAnswer: Sendable {
    var status: Int
    var body: Data

    init(_ payload: Payload) {
        func json(_ object: [String: Any]) -> Data {
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        }
        switch payload {
        case .orderResponse(let order, let token, let product):
            status = 200
            body = json(["orderId": order, "appAccountToken": token, "product": product])
        case .rechargeResponse(let answer, let txn):
            switch answer {
            case .credited(let ids):
                status = 200
                body = json(["result": "credited", "transactionIds": ids, "transactionId": txn])
            case .alreadyCredited(let ids):
                status = 409
                body = json(["result": "already-credited", "transactionIds": ids, "transactionId": txn])
            case .refused(let why):
                status = 422
                body = json(["result": "refused", "reason": why])
            case .retryLater(let why):
                status = 503
                body = json(["result": "retry", "reason": why])
            }
        default:
            status = 503
            body = json(["result": "retry", "reason": "unavailable"])
        }
    }
}

/// The one interception point of your app's traffic: a `URLProtocol` that hands each
/// request to its store's simulated network.
enum SimulatedNetwork {
    static let storeHeader = "X-IAPSim-Store"
    static let processHeader = "X-IAPSim-Process"
    static let stores = LockedBox<[String: SimulatedStore.WeakStore]>([:])
    static let counter = LockedBox(0)

    static func register() -> String {
        counter.withLock {
            $0 += 1
            return "store-\($0)"
        }
    }

    static func attach(_ store: SimulatedStore, key: String) { stores.withLock { $0[key] = .init(store) } }
    static func detach(_ key: String) { _ = stores.withLock { $0.removeValue(forKey: key) } }
    static func store(_ key: String?) -> SimulatedStore? {
        guard let key else { return SimulatedStore.current }
        return stores.withLock { $0[key]?.store }
    }

    /// A request in flight: where its answer goes.
    final class Load: @unchecked Sendable {
        weak var owner: SimulatedURLProtocol?
        let url: URL
        init(_ owner: SimulatedURLProtocol, url: URL) {
            self.owner = owner
            self.url = url
        }

        func answer(_ a: HTTPAnswer) {
            guard let p = owner, let client = p.client else { return }
            let response = HTTPURLResponse(
                url: url, statusCode: a.status, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json"])!
            client.urlProtocol(p, didReceive: response, cacheStoragePolicy: .notAllowed)
            client.urlProtocol(p, didLoad: a.body)
            client.urlProtocolDidFinishLoading(p)
        }

        func fail(_ error: URLError) {
            guard let p = owner, let client = p.client else { return }
            client.urlProtocol(p, didFailWithError: error)
        }
    }
}

/// Routes a `URLSession`'s requests to the simulated network (`urlSessionConfiguration`).
final class SimulatedURLProtocol: URLProtocol, @unchecked Sendable {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    var load: SimulatedNetwork.Load?

    override func startLoading() {
        trace(
            "startLoading \(request.url?.absoluteString ?? "") headers \(request.allHTTPHeaderFields ?? [:]) body \(request.httpBody?.count ?? -1)"
        )
        let key = request.value(forHTTPHeaderField: SimulatedNetwork.storeHeader)
        let process = request.value(forHTTPHeaderField: SimulatedNetwork.processHeader).flatMap { Int($0) }
        let load = SimulatedNetwork.Load(self, url: request.url ?? URL(string: "about:blank")!)
        self.load = load
        guard let store = SimulatedNetwork.store(key) else { return load.fail(URLError(.cannotConnectToHost)) }
        store.send(request, load: load, process: process)
    }

    override func stopLoading() { load = nil }
}
