import IAPSimCore
import Testing

@testable import IAPSimTUI

/// A backend in the test: answers orders and reports, keeps a ledger and says what it did in
/// the words the serve edge uses.
final class PanelBackend: ExternalMerchant, @unchecked Sendable {
    var credits: [LedgerSnapshot.Row] = []
    var coins = 0
    var orders = 0

    func exchange(_ request: ExternalRequest, world: World) -> ExternalReply {
        var reply: ExternalReply
        switch request {
        case .order:
            orders += 1
            reply = ExternalReply(
                .order(id: "o\(orders)", token: "00000000-0000-4000-8000-00000000000\(orders % 10)"),
                line: "POST /orders -> 201")
            reply.calls = ["POST /orders -> 201 (3 ms)"]
        case .report(let r, _, _):
            if !credits.contains(where: { $0.transactionId == r.transactionId }) {
                credits.append(
                    LedgerSnapshot.Row(transactionId: r.transactionId, account: r.uid, productId: r.productId))
                coins += 100
            }
            reply = ExternalReply(.report(.credited([r.transactionId])), line: "POST /apple/report -> 200")
            reply.calls = ["POST /apple/report -> 200 (5 ms)"]
        case .notification:
            reply = ExternalReply(.notification(status: 503), line: "POST /apple/notifications -> 503")
            reply.calls = ["POST /apple/notifications -> 503 (1 ms)"]
        default:
            reply = ExternalReply(.done(nil))
        }
        reply.ledger = LedgerSnapshot(accounts: [.init(id: "alice", coins: coins)], credits: credits)
        reply.calls.append("GET /iapsim/ledger -> 200 (2 ms)")
        return reply
    }

    func backendName(_ user: String) -> String { "0k7q2a-u1-" + user }
    func backendTransaction(_ id: String) -> String { "9" + id }
}

@Suite struct BackendPanelTests {
    @Test func underServeTheMerchantPanelIsYourBackendWithItsLedgerAndExchanges() {
        var model = UIModel(preset: .sk2Hardened)
        model.connectBackend { ExternalLink(merchant: PanelBackend()) }
        let d = Driver.bought(model, wallMs: 20_000)
        // Wide enough for the whole lines (a narrow panel cuts them; z zooms it).
        let text = d.screen(200, 50).text
        #expect(text.contains("┌ Your backend "), "\(text)")
        #expect(!text.contains("┌ Merchant server "))
        #expect(text.contains("serve: your backend"), "the header says whose server this is:\n\(text)")
        #expect(text.contains("alice    100 coins"), "\(text)")
        #expect(text.contains("rows     1 credits, 0 clawbacks"), "\(text)")
        #expect(text.contains("POST /orders -> 201 (3 ms)"), "\(text)")
        #expect(text.contains("POST /apple/report -> 200 (5 ms)"), "\(text)")
        // The ids the backend saw: its account names and its transaction ids.
        #expect(text.contains("ids      alice=0k7q2a-u1-alice"), "\(text)")
        #expect(text.contains("1000000000001=91000000000001"), "\(text)")
        // Newest first: the report's line stands above the order's.
        let report = text.range(of: "POST /apple/report -> 200")!.lowerBound
        let order = text.range(of: "POST /orders -> 201")!.lowerBound
        #expect(report < order)
    }

    @Test func aRestartIsANewWorldWithANewLinkAndNoSplitScreen() {
        var model = UIModel(preset: .sk2Hardened)
        let made = Counter()
        model.connectBackend {
            made.n += 1
            return ExternalLink(merchant: PanelBackend())
        }
        var d = Driver.bought(model, wallMs: 5_000)
        d.keys("Ry")
        #expect(made.n == 2, "a restart makes the next world's link")
        #expect(d.model.simulation.isExternal)
        d.keys("V")
        #expect(d.model.twin == nil)
    }

    @Test func withoutABackendThePanelIsTheMerchantServer() {
        let text = Driver.bought(UIModel(preset: .sk2Hardened), wallMs: 5_000).screen().text
        #expect(text.contains("┌ Merchant server "))
        #expect(!text.contains("Your backend"))
    }
}

final class Counter: @unchecked Sendable { var n = 0 }
