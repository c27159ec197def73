import Foundation
import IAPSimCore
import IAPSimSigned

extension ServeMerchant {
    /// GET the ledger (`?accounts=a,b`), in the world's names: this world's accounts, and the
    /// rows that name one of them or one of this world's transactions (rule 1: one backend
    /// serves many worlds). nil without a `ledger` key; a failure (exit 3) when unreadable.
    func readLedger(now: Int64, catalog: Catalog = .standard) -> LedgerSnapshot? {
        guard let endpoint = config.ledger, failure == nil else { return nil }
        let accounts = users.map(account).joined(separator: ",")
        let separator = endpoint.path.contains("?") ? "&" : "?"
        let path = endpoint.path + separator + "accounts=" + Self.percentEncoded(accounts)
        // An idempotent read: one that fails (a keep-alive connection the backend closed after a
        // 500, a reset, a bad answer) is read again at once; only two failures in a row are no
        // verdict (SERVE-CI rule 3).
        var why = ""
        for _ in 0..<2 {
            let e = send("GET", path, [], "", now: now, seconds: ServeLimits.notificationAnswerSeconds)
            guard e.status == 200, e.failure == nil else {
                why = "the ledger (\(e.line)) must answer 200 with JSON"
                continue
            }
            do {
                return try parseLedger(e.answer, catalog: catalog)
            } catch {
                why = "the ledger answer of GET \(path) is unreadable: \(error.description)"
            }
        }
        failure = ServeFailure(exitCode: 3, why + " (read twice in a row)")
        return nil
    }

    /// A tick: POST `{}`, sent again once when the connection was closed or reset before any
    /// answer (a tick is idempotent by contract: rule 12). Its status, a 500 included, is an answer.
    func tick(_ path: String, now: Int64) -> HTTPExchange {
        let e = send("POST", path, [], "{}", now: now, seconds: ServeLimits.tickAnswerSeconds)
        guard e.status == nil, BackendHTTP.isConnectionLost(e.failure) else { return e }
        return send("POST", path, [], "{}", now: now, seconds: ServeLimits.tickAnswerSeconds)
    }

    static func percentEncoded(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            let c = Character(UnicodeScalar(b))
            if c.isLetter && b < 128 || c.isNumber && b < 128 || "-._~,".contains(c) {
                out.append(c)
            } else {
                out += "%" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// `{"accounts": [...], "credits": [...], "clawbacks": [...], "restores": [...]}`.
    /// `catalog`: the world's, which says which products are non-consumables (a row without coins).
    func parseLedger(_ text: String, catalog: Catalog = .standard) throws(ServeConfigError) -> LedgerSnapshot {
        guard let root = ServeJSON.object(text) else { throw ServeConfigError("not a JSON object") }
        var snapshot = LedgerSnapshot()
        for item in try list(root, "accounts") {
            guard let id = ServeJSON.word(item["id"]), let user = worldUser(id) else { continue }
            guard let coins = ServeJSON.integer(item["coins"], within: ServeLimits.maxLedgerCoins) else {
                throw ServeConfigError(
                    "account \(id): coins \(Self.shown(item["coins"])) is not a whole number within "
                        + "±\(ServeLimits.maxLedgerCoins)")
            }
            snapshot.accounts.append(
                LedgerSnapshot.Account(id: user, coins: coins, entitlements: item["entitlements"] as? [String] ?? []))
        }
        snapshot.credits = try rows(root, "credits", catalog: catalog)
        snapshot.clawbacks = try rows(root, "clawbacks", catalog: catalog)
        snapshot.restores = try rows(root, "restores", catalog: catalog)
        return snapshot
    }

    /// A value as the backend sent it, for a message (at most 40 characters).
    static func shown(_ value: Any?) -> String {
        guard let value else { return "(missing)" }
        let text = (value as? String).map(ServeJSON.quote) ?? "\(value)"
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    func list(_ root: [String: Any], _ key: String) throws(ServeConfigError) -> [[String: Any]] {
        guard let value = root[key] else { return [] }
        guard let items = value as? [Any] else { throw ServeConfigError("'\(key)' is not a list") }
        var out: [[String: Any]] = []
        for item in items {
            guard let object = item as? [String: Any] else {
                throw ServeConfigError("an item of '\(key)' is not an object")
            }
            out.append(object)
        }
        return out
    }

    func rows(_ root: [String: Any], _ key: String, catalog: Catalog) throws(ServeConfigError) -> [LedgerSnapshot.Row] {
        var out: [LedgerSnapshot.Row] = []
        for item in try list(root, key) {
            guard let txn = ServeJSON.word(item["transactionId"]), let account = ServeJSON.word(item["account"]) else {
                throw ServeConfigError("a row of '\(key)' needs transactionId and account")
            }
            let user = worldUser(account)
            let core = ids.coreTransaction(txn)
            guard user != nil || core != nil else { continue }
            var coins = ServeJSON.integer(item["coins"], within: ServeLimits.maxLedgerCoins)
            if coins == nil, let sent = item["coins"], !(sent is NSNull) {
                throw ServeConfigError(
                    "a row of '\(key)' (transaction \(txn)): coins \(Self.shown(sent)) is not a whole number within "
                        + "±\(ServeLimits.maxLedgerCoins)")
            }
            let product = item["productId"] as? String
            if coins == nil, key != "credits", let product, catalog.product(product)?.kind == .nonConsumable {
                coins = 0
            }
            out.append(
                LedgerSnapshot.Row(
                    transactionId: core ?? txn, account: user ?? account, productId: product, coins: coins))
        }
        return out
    }
}

/// The core's signed values as Apple's payloads (shared by `run --signed` and serve): dates
/// from virtual to Unix milliseconds, ids as the backend sees them under serve.
package enum ServePayloads {
    package static func payload(_ s: SignedTransaction, ids: ServeIds? = nil) -> TransactionPayload {
        APISigner.payload(s, ids: ids?.api ?? .core)
    }

    package static func unix(_ virtual: IAPSimCore.VirtualTime) -> Int64 {
        IAPSimSigned.VirtualTime.unixMilliseconds(virtual: Int64(virtual))
    }
}
