import IAPSimCore
import IAPSimSigned

/// Where the calls go: the backend (recorded or not), or a recording (`--replay`).
package protocol ServeTransport: AnyObject, Sendable {
    /// The exchange with its answer. `seconds`: the wall deadline.
    func call(_ exchange: HTTPExchange, seconds: Int64) -> HTTPExchange
    /// A replay's first divergence, or a recorder's write failure: the run is not a verdict.
    var failure: ServeFailure? { get }
    /// The exchanges sent together, each on its own connection (`--race`), answered in order.
    func callTogether(_ batch: [HTTPExchange], seconds: Int64) -> [HTTPExchange]
}

extension ServeTransport {
    /// One after the other: a replay answers a race from the recording, in its order.
    package func callTogether(_ batch: [HTTPExchange], seconds: Int64) -> [HTTPExchange] {
        batch.map { call($0, seconds: seconds) }
    }
}

/// The App Store Server API that the backend reconciles against (the serve-api side): the
/// runner shows it the world before every exchange, so that it answers at that virtual time.
package protocol ServeAPIHosting: AnyObject, Sendable {
    var url: String { get }
    func show(_ world: World, ids: ServeIds)
    /// Request a Test Notification calls since the last look: the runner delivers them.
    func takeTestRequests() -> [(token: String, signedPayload: String)]
    /// Set App Account Token calls since the last look (served ids): the world takes them.
    func takeTokenChanges() -> [AppAccountTokenChange]
    /// The backend's calls to the API answered since the last look (`GET /inApps/... -> 200`).
    func takeCalls() -> [String]
    /// Arms a fault of the API (`server-api-fail`, `-slow`, `-outage`).
    func arm(_ fault: ServerAPIFault)
    /// One delivery attempt of a test notification (`SUCCESS` or Apple's failure words).
    func recordTestAttempt(token: String, result: String, at: IAPSimCore.VirtualTime)
}

/// Why a serve ends with no verdict: exit 3 (the backend cannot be reached, its ledger is
/// unreadable) or exit 2 (a replay diverged, bad input).
package struct ServeFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package var exitCode: Int32
    package var description: String
    package init(exitCode: Int32, _ description: String) {
        self.exitCode = exitCode
        self.description = description
    }
}

/// The world's merchant server under `iapsim serve`: each request becomes an HTTP call to
/// the backend (docs/serve.md, "The calls iapsim makes"), its answer read by the table's rules,
/// then the ledger is read and handed to the world in the world's names.
package final class ServeMerchant: ExternalMerchant, @unchecked Sendable {
    let config: ServeConfig
    package let ids: ServeIds
    let users: [String]
    let transport: ServeTransport
    let api: (any ServeAPIHosting)?
    let signer: SignedDataWriter
    /// A ledger that could not be read (exit 3): from then on nothing is called.
    package internal(set) var failure: ServeFailure?
    /// Every exchange of this world, oldest first (the UI's "Your backend" panel).
    package internal(set) var exchanges: [HTTPExchange] = []
    var ordersMade = 0
    var tokensMade = 0
    /// `--race`: whether deliveries with a twin race (ServeMerchant+Race.swift).
    package var race = ServeRace()
    /// The charges whose first report already raced their notification.
    var racedCharges: Set<String> = []

    package init(
        config: ServeConfig, ids: ServeIds, users: [String], environment: StoreEnvironment, transport: ServeTransport,
        api: (any ServeAPIHosting)? = nil
    ) throws {
        self.config = config
        self.ids = ids
        self.users = users
        self.transport = transport
        self.api = api
        signer = try SignedDataWriter(environment: environment.payloadName)
    }

    /// The id the backend's ledger uses for `user` (`users.NAME.account`, else the prefixed name).
    package func account(_ user: String) -> String {
        (config.user(user).account ?? ids.user(user)).replacing("{user}", with: ids.user(user))
    }

    package func backendName(_ user: String) -> String { account(user) }

    package func backendTransaction(_ id: String) -> String { ids.transaction(id) }

    /// The world's user for a ledger account id, if it is one of this world's.
    func worldUser(_ account: String) -> String? { users.first { self.account($0) == account } }

    /// The headers `user`'s requests carry, `{user}` filled in with the prefixed name.
    func headers(_ user: String?) -> [(name: String, value: String)] {
        guard let user else { return [] }
        return config.user(user).headers.map { ($0.name, $0.value.replacing("{user}", with: ids.user(user))) }
    }

    /// The token an account's own purchases carry when there is no `order` key (rule 9).
    package func ownToken(_ user: String) -> String {
        config.user(user).token ?? UUIDv5.url("iapsim:" + ids.user(user))
    }

    package func exchange(_ request: ExternalRequest, world: World) -> ExternalReply {
        guard failure == nil, transport.failure == nil else {
            return ExternalReply(Self.silent(request), line: nil)
        }
        api?.show(world, ids: ids)
        let now = Int64(world.now)
        let before = exchanges.count
        var reply: ExternalReply
        switch request {
        case .order(let user, let loggedIn, let product, _):
            reply = order(user: user, loggedIn: loggedIn, product: product, world: world, now: now)
        case .report(let r, let loggedIn, _):
            reply = report(r, loggedIn: loggedIn, now: now)
        case .notification(let n):
            reply = notification(n, now: now)
        case .tick(let k):
            let tick = config.ticks[k]
            let e = self.tick(tick.path, now: now)
            reply = ExternalReply(.done(e.status.map { (200..<300).contains($0) } == true ? nil : e.line), line: e.line)
        case .spend(let user, let coins):
            guard let spend = config.spend else { return ExternalReply(.done("no spend path")) }
            let body = ServeJSON.Value.object([
                (spend.field("user"), .string(ids.user(user))), (spend.field("coins"), .number(Int64(coins))),
            ])
            let e = send("POST", spend.path, headers(user), body.text, now: now, seconds: ServeLimits.tickAnswerSeconds)
            reply = ExternalReply(.done(e.status.map { (200..<300).contains($0) } == true ? nil : e.line), line: e.line)
        case .ledger:
            reply = ExternalReply(.done(nil))
        case .apiFault(let fault):
            api?.arm(fault)
            return ExternalReply(.done(nil))
        }
        deliverTestNotifications(now: now)
        reply.apiCalls = api?.takeCalls() ?? []
        reply.tokenChanges = (api?.takeTokenChanges() ?? []).compactMap { change in
            ids.coreTransaction(change.original).map { AppAccountTokenChange(original: $0, token: change.token) }
        }
        reply.ledger = readLedger(now: now, catalog: world.config.catalog)
        reply.calls =
            exchanges[before...].map { "\($0.panelLine) (\($0.wallMs) ms)" } + reply.apiCalls.map { "API " + $0 }
        return reply
    }

    /// A `TEST` notification asked for through the API during an exchange reaches the
    /// backend's `notify` path when that exchange ends (under `--hold`, within a poll of
    /// `ServeSession.hold`).
    func deliverTestNotifications(now: Int64) {
        guard let api else { return }
        for test in api.takeTestRequests() {
            let e = send(
                "POST", config.notify.path, [], Self.testBody(test.signedPayload), now: now,
                seconds: ServeLimits.notificationAnswerSeconds)
            api.recordTestAttempt(token: test.token, result: Self.testResult(e), at: IAPSimCore.VirtualTime(now))
        }
    }

    /// The body of a `TEST` notification: `{"signedPayload": ...}`.
    static func testBody(_ signedPayload: String) -> String {
        ServeJSON.Value.object([("signedPayload", .string(signedPayload))]).text
    }

    /// Apple's `sendAttemptResult` of one delivery of a `TEST` notification.
    static func testResult(_ e: HTTPExchange) -> String {
        let ok = e.failure == nil && e.status.map { (200...206).contains($0) } == true
        return ok ? "SUCCESS" : (e.status == nil ? "TIMED_OUT" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
    }

    /// What an exchange answers once the run has failed: nothing moves the world further.
    static func silent(_ request: ExternalRequest) -> ExternalOutcome {
        .unanswered(request, "the run has stopped")
    }

    func send(
        _ method: String, _ path: String, _ headers: [(name: String, value: String)], _ body: String, now: Int64,
        seconds: Int64
    ) -> HTTPExchange {
        let e = transport.call(
            HTTPExchange(virtual: now, method: method, path: path, headers: headers, body: body), seconds: seconds)
        exchanges.append(e)
        return e
    }

    func order(user: String, loggedIn: String?, product: String, world: World, now: Int64) -> ExternalReply {
        guard let endpoint = config.order else {
            ordersMade += 1
            return ExternalReply(.order(id: "o\(ordersMade)", token: ownToken(user)))
        }
        var members: [(String, ServeJSON.Value)] = [
            (endpoint.field("user"), .string(ids.user(user))), (endpoint.field("productId"), .string(product)),
        ]
        if world.policy.reportAppTransaction {
            members.append((endpoint.field("appTransactionId"), .string(ids.appTransaction)))
        }
        let e = send(
            "POST", endpoint.path, headers(loggedIn), ServeJSON.Value.object(members).text, now: now,
            seconds: ServeLimits.notificationAnswerSeconds)
        guard let status = e.status, (200..<300).contains(status), e.failure == nil else {
            return ExternalReply(.orderRefused(e.line), line: e.line)
        }
        let answer = ServeJSON.object(e.answer) ?? [:]
        ordersMade += 1
        // A field the answer lacks is named (SERVE-CI, item 6 of the issue): a misnamed
        // `fields:` entry shows at once instead of as refusals later.
        var notes: [String] = []
        let idField = endpoint.field("orderId")
        var id = ServeJSON.word(answer[idField]) ?? ""
        if id.isEmpty {
            id = "o\(ordersMade)"
            notes.append("the order answer has no `\(idField)`: iapsim named the order \(id)")
        }
        let tokenField = endpoint.field("appAccountToken")
        var token = (answer[tokenField] as? String)?.lowercased() ?? ""
        if !UUIDv5.isUUID(token) {
            tokensMade += 1
            let had = answer[tokenField] == nil ? "has no `\(tokenField)`" : "has a `\(tokenField)` that is not a UUID"
            token = ids.madeToken(tokensMade)
            notes.append("the order answer \(had): iapsim made the token \(token), which your backend never saw")
        }
        let line = ([e.line] + notes).joined(separator: "; ")
        return ExternalReply(.order(id: id, token: token), line: line)
    }

    func report(_ r: RechargeRequest, loggedIn: String?, now: Int64) -> ExternalReply {
        let endpoint = config.report
        guard let signed = r.signed, let jws = try? sign(signed, at: now) else {
            return ExternalReply(.report(.refused("nothing signed to report")))
        }
        let body = ServeJSON.Value.object([
            (endpoint.field("signedTransaction"), .string(jws)),
            (endpoint.field("orderId"), r.orderId.map { .string($0) } ?? .null),
            (endpoint.field("user"), .string(ids.user(r.uid))),
        ])
        let e = sendReport(r, jws: jws, body: body.text, headers: headers(loggedIn), now: now)
        var reply = ExternalReply(.report(Self.reportAnswer(e, endpoint: endpoint, txn: r.transactionId)), line: e.line)
        if case .report(.refused) = reply.outcome, let status = e.status, (400..<500).contains(status) {
            reply.refusedStatus = status
        }
        return reply
    }

    /// docs/serve.md, rule 10: a JSON `result` decides on any 2xx or 4xx; 429, 5xx, a 3xx and no
    /// answer mean retry; without `result`, 2xx credited, 409 already credited, other 4xx refused.
    static func reportAnswer(_ e: HTTPExchange, endpoint: ServeConfig.Endpoint, txn: String) -> RechargeAnswer {
        guard let status = e.status, e.failure == nil || (400..<500).contains(status) else {
            return .retryLater(e.failure ?? "no answer")
        }
        if status == 429 || status >= 500 || (300..<400).contains(status) || status < 200 {
            return .retryLater("HTTP \(status)")
        }
        if let result = ServeJSON.object(e.answer)?[endpoint.field("result")] as? String {
            switch result {
            case "credited": return .credited([txn])
            case "already-credited": return .alreadyCredited([txn])
            case "refused": return .refused("\(status), \(excerpt(e.answer))")
            case "retry": return .retryLater("the backend answered retry (HTTP \(status))")
            default: break
            }
        }
        if (200..<300).contains(status) { return .credited([txn]) }
        if status == 409 { return .alreadyCredited([txn]) }
        return .refused("\(status), \(excerpt(e.answer))")
    }

    /// The first 200 bytes of an answer body, on one line, quoted and escaped as JSON (control
    /// characters included, `""` when empty), with `…` inside the quotes when cut: what a
    /// verdict line and the transcript show of it.
    package static func excerpt(_ body: String, bytes: Int = 200) -> String {
        var cut = Array(body.utf8.prefix(bytes))
        while !cut.isEmpty, String(validating: cut, as: UTF8.self) == nil { cut.removeLast() }
        let text = String(decoding: cut, as: UTF8.self) + (body.utf8.count > bytes ? "…" : "")
        return ServeJSON.quote(text)
    }

    func notification(_ n: ServerNotification, now: Int64) -> ExternalReply {
        let jws: String
        do {
            jws = try signer.notification(
                NotificationPayload.NotificationType(rawValue: n.type.rawValue) ?? .oneTimeCharge,
                subtype: n.subtype.flatMap { NotificationPayload.Subtype(rawValue: $0.rawValue) },
                uuid: ids.notification(n.uuid),
                signedDate: ServePayloads.unix(n.signedDate),
                transaction: ServePayloads.payload(n.transaction, ids: ids),
                renewalInfo: n.renewalInfo.map { APISigner.payload($0, ids: ids.api) },
                status: n.renewalInfo.map { APISigner.status($0) },
                consumptionRequestReason: n.consumptionRequestReason?.rawValue, at: now)
            _ = signer.takeJSONLines()
        } catch {
            return ExternalReply(.notification(status: 0))
        }
        let body = ServeJSON.Value.object([("signedPayload", .string(jws))])
        let sent = exchanges.count
        let e = sendNotification(body.text, now: now)
        let what = n.type.rawValue + (n.subtype.map { "/\($0.rawValue)" } ?? "")
        for i in sent..<exchanges.count { exchanges[i].what = what }
        let status = e.failure == nil ? (e.status ?? 0) : 0
        return ExternalReply(.notification(status: status), line: e.line)
    }

    func sign(_ s: SignedTransaction, at now: Int64) throws -> String {
        let payload = ServePayloads.payload(s, ids: ids)
        let jws = try s.signer == .forger ? signer.forged(payload, at: now) : signer.transaction(payload, at: now)
        _ = signer.takeJSONLines()
        return jws
    }
}
