import IAPSimCore
import Testing

@testable import IAPSimServe

/// A backend in the test: answers orders and reports, keeps an append-only ledger, and can
/// be told to acknowledge without writing the row (`ack-before-commit`).
final class FakeBackend: ExternalMerchant, @unchecked Sendable {
    var credits: [LedgerSnapshot.Row] = []
    var coins: [String: Int] = [:]
    var writesRows = true
    var requests: [String] = []

    func exchange(_ request: ExternalRequest, world: World) -> ExternalReply {
        switch request {
        case .order(let user, _, _, _):
            requests.append("order \(user)")
            return ExternalReply(
                .order(id: "o\(requests.count)", token: "00000000-0000-4000-8000-00000000000\(requests.count % 10)"),
                ledger: ledger)
        case .report(let r, _, _):
            requests.append("report \(r.transactionId)")
            if writesRows, !credits.contains(where: { $0.transactionId == r.transactionId }) {
                credits.append(
                    LedgerSnapshot.Row(transactionId: r.transactionId, account: r.uid, productId: r.productId))
                coins[r.uid, default: 0] += Catalog.standard.product(r.productId)?.coins ?? 0
            }
            return ExternalReply(.report(.credited([r.transactionId])), ledger: ledger)
        case .notification:
            requests.append("notify")
            return ExternalReply(.notification(status: 200), ledger: ledger)
        default:
            return ExternalReply(.done(nil), ledger: ledger)
        }
    }

    var ledger: LedgerSnapshot {
        LedgerSnapshot(
            accounts: coins.keys.sorted().map { LedgerSnapshot.Account(id: $0, coins: coins[$0]!) }, credits: credits)
    }
}

@Suite struct RunExternalWorldTests {
    func world(_ backend: FakeBackend) -> Simulation {
        var policy = PolicyPreset.sk2Hardened.policy
        policy.serverReconcileMs = nil
        var sim = Simulation(WorldConfig(seed: 1, users: ["alice"], policy: policy))
        sim.external = ExternalLink(merchant: backend)
        return sim
    }

    @Test func aPurchaseGoesToTheBackendAndItsLedgerRowIsTheCredit() {
        let backend = FakeBackend()
        var sim = world(backend)
        _ = sim.apply(.buy(product: "coins_100"))
        sim.settle()
        sim.concludeVerdict()
        #expect(backend.requests.contains("order alice"))
        #expect(backend.requests.contains { $0.hasPrefix("report ") })
        #expect(sim.server.credits.count == 1)
        #expect(sim.auditor.unresolved.isEmpty)
    }

    @Test func anAcknowledgementWithNoRowIsAckedNotCredited() {
        let backend = FakeBackend()
        backend.writesRows = false
        var sim = world(backend)
        _ = sim.apply(.buy(product: "coins_100"))
        sim.settle()
        sim.concludeVerdict()
        #expect(sim.server.credits.isEmpty)
        #expect(sim.auditor.anomalies.contains { $0.type == .ackedNotCredited && $0.status == .permanent })
    }

    /// SERVE-CI rule 1: user names carry the invocation's block in six base-36 digits (every
    /// block below 10^8 fits), so two invocations never share an account.
    @Test func namesCarryTheInvocationsBlock() {
        #expect(ServeIds(block: 0, world: 3, prefix: "f3-").user("alice") == "000000-f3-alice")
        #expect(ServeIds(block: 99_999_999, world: 3, prefix: "f3-").user("alice") == "1njchr-f3-alice")
        #expect(
            ServeIds(block: 12, world: 1, prefix: "f1-").user("a")
                != ServeIds(block: 13, world: 1, prefix: "f1-").user("a"))
        let one = ServeIds(block: 5, world: 1, prefix: "f1-"), two = ServeIds(block: 5, world: 2, prefix: "f2-")
        #expect(one.notification("77ab773c") != two.notification("77ab773c"))
        #expect(one.notification("77ab773c") == one.notification("77ab773c"))
    }

    @Test func rule10ReadsTheAnswers() {
        let endpoint = ServeConfig.Endpoint(path: "/r")
        func answer(_ status: Int?, _ body: String = "", failure: String? = nil) -> RechargeAnswer {
            var e = HTTPExchange(virtual: 0, method: "POST", path: "/r", headers: [], body: "{}")
            e.status = status
            e.answer = body
            e.failure = failure
            return ServeMerchant.reportAnswer(e, endpoint: endpoint, txn: "t")
        }
        #expect(answer(200) == .credited(["t"]))
        #expect(answer(409) == .alreadyCredited(["t"]))
        #expect(answer(422) == .refused("422, \"\""))
        #expect(answer(200, "{\"result\":\"retry\"}") == .retryLater("the backend answered retry (HTTP 200)"))
        #expect(answer(400, "{\"result\":\"already-credited\"}") == .alreadyCredited(["t"]))
        #expect(answer(503) == .retryLater("HTTP 503"))
        #expect(answer(302) == .retryLater("HTTP 302"))
        #expect(answer(nil, failure: "connection refused") == .retryLater("connection refused"))
    }

    @Test func serveYamlReadsEveryKeyAndNamesMistakes() throws {
        let text = """
            backend: http://127.0.0.1:8000
            users: {alice: {headers: {Authorization: "Bearer t-{user}"}}, "*": {account: "{user}"}}
            report: {path: /apple/report, fields: {signedTransaction: jws}}
            ledger: {path: /iapsim/ledger}
            ticks: [{path: /jobs/reconcile, every: 1h}]
            """
        let c = try ServeConfig.parse(text, file: "serve.yaml")
        #expect(c.backend == "http://127.0.0.1:8000")
        #expect(c.report.field("signedTransaction") == "jws")
        #expect(c.ticks == [ServeConfig.Tick(path: "/jobs/reconcile", everyMs: 3_600_000)])
        #expect(c.user("bob").account == "{user}")
        #expect(throws: ServeConfigError.self) { try ServeConfig.parse("bogus: 1", file: "s.yaml") }
        do {
            _ = try ServeConfig.parse("ticks: [{path: /t, every: soon}]", file: "s.yaml")
        } catch {
            #expect(error.description.hasPrefix("s.yaml:") && error.description.contains("every"))
        }
    }

    @Test func idsAreUniquePerWorldAndMapBack() {
        let a = ServeIds(block: 42, world: 3, prefix: "f3-")
        let b = ServeIds(block: 42, world: 4, prefix: "f4-")
        #expect(a.transaction("1000000000001") != b.transaction("1000000000001"))
        #expect(a.coreTransaction(a.transaction("1000000000007")) == "1000000000007")
        #expect(b.coreTransaction(a.transaction("1000000000007")) == nil)
        #expect(UUIDv5.url("www.example.com") == "b63cdfa4-3df9-568e-97ae-006c5b8fd652")
    }

    @Test func replayMasksSignaturesAndNamesTheFirstDivergence() {
        let recorded = HTTPExchange(virtual: 5, method: "POST", path: "/r", headers: [], body: "{}", status: 200)
        let replay = ReplayTransport(recorded: [recorded], file: "rec.jsonl")
        let first = replay.call(
            HTTPExchange(virtual: 5, method: "POST", path: "/r", headers: [], body: "{}"), seconds: 1)
        #expect(first.status == 200)
        _ = replay.call(HTTPExchange(virtual: 9, method: "POST", path: "/x", headers: [], body: "{}"), seconds: 1)
        #expect(replay.failure?.exitCode == 2)
        let jws = "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2lnbmF0dXJlc2lnbmF0dXJlc2lnbmF0dXJl"
        let other = "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.b3RoZXJzaWduYXR1cmVvdGhlcnNpZ25hdHVyZQ"
        #expect(ServeRecord.masked("{\"s\":\"\(jws)\"}") == ServeRecord.masked("{\"s\":\"\(other)\"}"))
    }
}
