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

    /// Your names for the contract's fields, per call: `fields:` of a `serve.yaml`.
    package var orderFields: [String: String] = [:]
    package var reportFields: [String: String] = [:]
    /// The product's field in an order: `product` here, `productId` in `serve`'s contract.
    package var productField = "product"

    /// The merchant server at `baseURL`, with its two paths.
    public init(
        baseURL: URL = URL(string: "https://merchant.example.com")!, orders: String = "/orders",
        report: String = "/report"
    ) {
        self.baseURL = baseURL
        self.orders = orders
        self.report = report
    }

    /// `line` with the route of a route fault (`drop-next-request`, `drop-next-response`,
    /// `latency`) named as the team names it (`report`, a path, its last part) in the core's
    /// words (`recharge`, `order`), for the scenario vocabulary.
    func coreWords(_ line: String) -> String {
        var names: [String: String] = ["report": "recharge"]
        for (path, word) in [(report, "recharge"), (orders, "order")] where !path.isEmpty {
            names[path] = word
            if let last = path.split(separator: "/").last { names[String(last)] = word }
        }
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let routed: Set<String> = ["drop-next-request", "drop-next-response", "latency"]
        guard words.count > 1, routed.contains(words[0]), let core = names[words[1]] else { return line }
        words[1] = core
        return words.joined(separator: " ")
    }

    /// Your name for the order call's field `name`.
    func orderField(_ name: String) -> String { orderFields[name] ?? name }
    /// Your name for the report call's field `name`.
    func reportField(_ name: String) -> String { reportFields[name] ?? name }
}

extension SimulatedStore {
    /// Give this to your app's `URLSession`: its requests to `routes.baseURL` go through the
    /// simulated network (counted, dropped, delayed, refused when the device is offline, as the
    /// scenario's faults say) to the simulated merchant server. Any other host is unreachable.
    public var urlSessionConfiguration: URLSessionConfiguration {
        let c = URLSessionConfiguration.ephemeral
        c.protocolClasses = [protocolClass(for: SimulatedStore.callerIncarnation)]
        c.timeoutIntervalForRequest = 24 * 3600
        return c
    }

    /// The protocol class of `process` (nil: the one running now), made on first use.
    func protocolClass(for process: Int?) -> AnyClass {
        locked {
            let p = process ?? incarnation
            if let known = processSlots.first(where: { $0.process == p }) { return known.cls }
            let (slot, cls) = SimulatedNetwork.attach(self, process: p)
            processSlots.append((p, slot, cls))
            return cls
        }
    }

    /// A process died: its sessions' requests fail from now on.
    func releaseSlots(keeping process: Int?) {
        let gone = processSlots.filter { $0.process != process }
        processSlots.removeAll { $0.process != process }
        SimulatedNetwork.detach(gone.map(\.slot))
    }

    /// One request of your app reached the device's network.
    func send(_ request: URLRequest, load: SimulatedNetwork.Load, process: Int) {
        let refusal: URLError? = locked {
            activity += 1
            guard app.running, process == incarnation else { return URLError(.cancelled) }
            guard let payload = merchantPayload(request) else { return URLError(.cannotFindHost) }
            let exchange = sim.drivenSend(payload.route, payload.payload)
            app.loads.append((exchange, load))
            blocked(nil)
            return nil
        }
        if let refusal { load.fail(refusal) }
    }

    /// The core's message for an order or a report, or nil for a request the merchant does not serve.
    func merchantPayload(_ request: URLRequest) -> (route: Route, payload: Payload)? {
        guard let url = request.url, url.host == routes.baseURL.host, request.httpMethod == "POST",
            let body = request.httpBody ?? request.httpBodyStream.map(Self.read),
            let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { return nil }
        let path = String(url.path.dropFirst(routes.baseURL.path.count))
        if !routes.orders.isEmpty, path == routes.orders, let product = json[routes.productField] as? String {
            let user = json[routes.orderField("user")] as? String ?? sim.app.loggedIn ?? ""
            return (.order, .orderRequest(user: user, product: product))
        }
        if path == routes.report, let jws = json[routes.reportField("signedTransaction")] as? String,
            let s = signedByJWS[jws]
        {
            let user = json[routes.reportField("user")] as? String ?? sim.app.loggedIn ?? ""
            let order = json[routes.reportField("orderId")]
            let r = RechargeRequest(
                transactionId: s.transactionId, productId: s.productId, uid: user,
                orderId: order as? String ?? (order as? NSNumber).map { "\($0)" }, orderToken: s.appAccountToken,
                receipt: nil, reason: .firstDelivery, signed: s)
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

    /// The answer to `payload`, in the names of `routes` (a `serve.yaml`'s `fields:`).
    init(_ payload: Payload, routes: MerchantRoutes = MerchantRoutes()) {
        func json(_ object: [String: Any]) -> Data {
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        }
        let result = routes.reportField("result")
        switch payload {
        case .orderResponse(let order, let token, let product):
            status = 200
            body = json([
                routes.orderField("orderId"): order, routes.orderField("appAccountToken"): token,
                routes.productField: product,
            ])
        case .rechargeResponse(let answer, let txn):
            switch answer {
            case .credited(let ids):
                status = 200
                body = json([result: "credited", "transactionIds": ids, "transactionId": txn])
            case .alreadyCredited(let ids):
                status = 409
                body = json([result: "already-credited", "transactionIds": ids, "transactionId": txn])
            case .refused(let why):
                status = 422
                body = json([result: "refused", "reason": why])
            case .retryLater(let why):
                status = 503
                body = json([result: "retry", "reason": why])
            }
        case .orderRequest, .rechargeRequest, .verifyRequest, .verifyResponse, .notification, .notificationResponse,
            .historyRequest, .historyResponse, .unavailable, .appTransactionReport, .consumptionInfo, .apiError,
            .statusRequest, .statusResponse:
            status = 503
            body = json(["result": "retry", "reason": "unavailable"])
        }
    }
}

/// The one interception point of your app's traffic: a `URLProtocol` class of its own for
/// each process of each store (a generic class's instance per slot: `URLSession` picks
/// protocols by class, and its requests carry nothing else that names their configuration),
/// which hands each request to that store's simulated network, for that process.
enum SimulatedNetwork {
    /// How many slots there are; a freed slot is used again only after every other one.
    static let slots = 1 << 16
    static let registry = LockedBox(Registry())

    struct Registry {
        var owners: [Int: (store: SimulatedStore.WeakStore, process: Int)] = [:]
        var byClass: [ObjectIdentifier: Int] = [:]
        var classes: [Int: AnyClass] = [:]
        var fresh = 0
        var freed: [Int] = []
    }

    /// Takes a slot for `process` of `store`; returns it and its protocol class.
    static func attach(_ store: SimulatedStore, process: Int) -> (slot: Int, protocolClass: AnyClass) {
        registry.withLock { r in
            let slot: Int
            if r.fresh < slots {
                slot = r.fresh
                r.fresh += 1
            } else {
                precondition(!r.freed.isEmpty, "more than \(slots) app processes alive at once")
                slot = r.freed.removeFirst()
            }
            let cls = r.classes[slot] ?? protocolClass(slot)
            r.classes[slot] = cls
            r.byClass[ObjectIdentifier(cls)] = slot
            r.owners[slot] = (.init(store), process)
            return (slot, cls)
        }
    }

    static func detach(_ slots: [Int]) {
        registry.withLock { r in
            for slot in slots {
                r.owners[slot] = nil
                r.freed.append(slot)
            }
        }
    }

    /// The store and process a protocol class serves, if they still live.
    static func owner(of cls: AnyClass) -> (store: SimulatedStore, process: Int)? {
        registry.withLock { r in
            guard let slot = r.byClass[ObjectIdentifier(cls)], let o = r.owners[slot], let s = o.store.store
            else { return nil }
            return (s, o.process)
        }
    }

    /// The protocol class of `slot`: a distinct instance of the generic class per slot.
    static func protocolClass(_ slot: Int) -> AnyClass {
        func build<Rest: SlotTag>(_: Rest.Type, _ bits: Int, _ left: Int) -> AnyClass {
            if left == 0 { return SlotURLProtocol<Rest>.self }
            if bits & 1 == 1 { return build(SlotNext<SlotOne, Rest>.self, bits >> 1, left - 1) }
            return build(SlotNext<SlotZero, Rest>.self, bits >> 1, left - 1)
        }
        return build(SlotEnd.self, slot, 16)
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

protocol SlotTag {}
enum SlotEnd: SlotTag {}
enum SlotZero: SlotTag {}
enum SlotOne: SlotTag {}
enum SlotNext<Bit: SlotTag, Rest: SlotTag>: SlotTag {}

/// Routes a `URLSession`'s requests to its store's simulated network (`urlSessionConfiguration`).
class SimulatedURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    var load: SimulatedNetwork.Load?

    override func startLoading() {
        let load = SimulatedNetwork.Load(self, url: request.url ?? URL(string: "about:blank")!)
        self.load = load
        guard let owner = SimulatedNetwork.owner(of: type(of: self)) else {
            return load.fail(URLError(.cancelled))
        }
        owner.store.send(request, load: load, process: owner.process)
    }

    override func stopLoading() { load = nil }
}

/// The protocol class of one slot.
final class SlotURLProtocol<Tag: SlotTag>: SimulatedURLProtocol {}
