/// Who plays the merchant server (`merchant:` in a scenario file): the simulated one, or the
/// user's own backend under `iapsim serve` (docs/serve.md).
package enum MerchantMode: String, Sendable, Hashable, CaseIterable {
    case simulated, external
}

/// A request the world hands out to the user's backend (`merchant: external`). The world
/// waits for the answer: virtual time stands still during an exchange (docs/serve.md, rule 13).
package enum ExternalRequest: Sendable, Hashable {
    /// `POST order`: `user` is the body's account, `loggedIn` whose headers it carries.
    case order(user: String, loggedIn: String?, product: String, sender: Sender)
    /// `POST report`: the signed transaction the app (or the attacker's proxy) sends.
    case report(RechargeRequest, loggedIn: String?, sender: Sender)
    /// App Store Server Notifications V2.
    case notification(ServerNotification)
    /// The backend's own timer number `index` (`ticks:`), at the current virtual time.
    case tick(index: Int)
    /// `spend USER COINS` (`spend:`).
    case spend(user: String, coins: Int)
    /// Only the ledger: the final snapshot, after the last round of ticks.
    case ledger
    /// A fault of the App Store Server API that iapsim serves to the backend: the edge arms it.
    case apiFault(ServerAPIFault)
}

/// What the backend answered, read by the edge's rules (docs/serve.md, "The calls iapsim makes").
package enum ExternalOutcome: Sendable, Hashable {
    /// An order: its id and the appAccountToken the purchase carries.
    case order(id: String, token: String)
    /// No order: the purchase does not start. The words say why (status, no answer).
    case orderRefused(String)
    case report(RechargeAnswer)
    /// The HTTP status of a notification's answer; 0 when none came within 10 s.
    case notification(status: Int)
    /// A tick, a spend or a ledger read: nil when it went well, else what went wrong.
    case done(String?)
}

extension ExternalOutcome {
    /// The answer to a request no backend answers (none could be made, or the run has
    /// stopped), `why` in its words: nothing moves the world further.
    package static func unanswered(_ request: ExternalRequest, _ why: String) -> ExternalOutcome {
        switch request {
        case .order: return .orderRefused(why)
        case .report: return .report(.retryLater(why))
        case .notification: return .notification(status: 0)
        case .tick, .spend, .ledger, .apiFault: return .done(why)
        }
    }
}

/// One exchange's result: the answer, the ledger read after it (nil: no `ledger` key, the
/// blind mode), and the line the transcript shows (`POST /orders -> 201`).
package struct ExternalReply: Sendable, Hashable {
    package var outcome: ExternalOutcome
    package var ledger: LedgerSnapshot?
    package var line: String?
    /// Every HTTP exchange the request made, with its wall time (`GET /iapsim/ledger -> 200
    /// (3 ms)`): the UI's "Your backend" panel; never in the log (wall time is not the world's).
    package var calls: [String] = []
    /// The backend's calls to the App Store Server API during the exchange, answered
    /// (`GET /inApps/v2/history/… -> 200`): the log shows them.
    package var apiCalls: [String] = []
    /// A report answered with this 4xx status: a refusal the verdict names when the
    /// transaction was genuine (SERVE-CI rule 4).
    package var refusedStatus: Int?
    /// Set App Account Token calls the API accepted during the exchange, in the world's ids:
    /// the world's App Store takes them when the exchange ends.
    package var tokenChanges: [AppAccountTokenChange] = []

    package init(_ outcome: ExternalOutcome, ledger: LedgerSnapshot? = nil, line: String? = nil) {
        self.outcome = outcome
        self.ledger = ledger
        self.line = line
    }
}

/// The backend's ledger (docs/serve.md, "The ledger"), in the world's names: the edge has taken
/// the prefixes off the accounts and mapped the ids back. `credits`, `clawbacks` and
/// `restores` are append-only.
package struct LedgerSnapshot: Sendable, Hashable {
    package struct Account: Sendable, Hashable {
        package var id: String
        package var coins: Int
        package var entitlements: [String]
        package init(id: String, coins: Int, entitlements: [String] = []) {
            self.id = id
            self.coins = coins
            self.entitlements = entitlements
        }
    }

    package struct Row: Sendable, Hashable {
        package var transactionId: String
        package var account: String
        package var productId: String?
        /// Coins of a clawback or restore row (nil: the product's coins).
        package var coins: Int?
        package init(transactionId: String, account: String, productId: String? = nil, coins: Int? = nil) {
            self.transactionId = transactionId
            self.account = account
            self.productId = productId
            self.coins = coins
        }
    }

    package var accounts: [Account] = []
    package var credits: [Row] = []
    package var clawbacks: [Row] = []
    package var restores: [Row] = []

    package init(accounts: [Account] = [], credits: [Row] = [], clawbacks: [Row] = [], restores: [Row] = []) {
        self.accounts = accounts
        self.credits = credits
        self.clawbacks = clawbacks
        self.restores = restores
    }
}

/// The edge that answers the world's external requests. `world` is the world as it is when
/// the request reaches the backend (the App Store Server API answers from its store).
/// Deterministic answers make a deterministic run: the world itself reads no clock.
package protocol ExternalMerchant: Sendable {
    func exchange(_ request: ExternalRequest, world: World) -> ExternalReply
    /// The name the backend knows a world's user by (its ledger account).
    func backendName(_ user: String) -> String
    /// The id the backend sees for a world's transaction id.
    func backendTransaction(_ id: String) -> String
}

extension ExternalMerchant {
    package func backendName(_ user: String) -> String { user }
    package func backendTransaction(_ id: String) -> String { id }
}

/// The world's link to its external merchant, and what it has seen of the backend's ledger.
package struct ExternalLink: Sendable {
    package var merchant: any ExternalMerchant
    /// `ticks:`: each timer's period in virtual ms.
    package var tickPeriods: [VirtualTime]
    /// No `ledger` key: the verdict is blind (docs/serve.md, rule 21).
    package var blind: Bool
    /// `spend:` is configured.
    package var canSpend: Bool
    /// The next virtual time of each tick (whole multiples of its period, never 0).
    var nextTicks: [VirtualTime]
    /// How many rows of each append-only list have been turned into facts.
    var seenCredits = 0
    var seenClawbacks = 0
    var seenRestores = 0
    /// Who added the payment of each transaction, the latest first seen (`notePayers`).
    var payers: [String: String] = [:]
    /// Who paid each charge (its payment's payer, "?" when none was seen): whom a blind
    /// backend's acknowledgement credits.
    var buyers: [String: String] = [:]
    /// Accounts whose balance was found moved with no row, at that balance.
    var mismatches: [(account: String, coins: Int)] = []
    /// The backend's last ledger (nil: none read yet, or blind).
    package internal(set) var ledger: LedgerSnapshot?
    /// The latest HTTP exchanges, oldest first, with the virtual time they left at (at most
    /// `callLimit`): what the UI shows live.
    package internal(set) var calls: [(time: VirtualTime, text: String)] = []
    package static let callLimit = 200
    /// Reports of genuine transactions (charged, signed by the App Store, sent by the app, not
    /// refunded) that the backend refused: each is a verdict line under serve (SERVE-CI rule 4).
    package internal(set) var refusedReports: [(txn: String, why: String)] = []

    package init(
        merchant: any ExternalMerchant, tickPeriods: [VirtualTime] = [], blind: Bool = false, canSpend: Bool = false
    ) {
        self.merchant = merchant
        self.tickPeriods = tickPeriods.filter { $0 > 0 }
        self.blind = blind
        self.canSpend = canSpend
        nextTicks = self.tickPeriods
    }
}

extension ExternalLink {
    /// Notes who paid for what, from an event's facts: a blind backend keeps no ledger, so
    /// the world credits what it acknowledges to the charge's buyer itself.
    mutating func notePayers(_ facts: [LogEntry]) {
        for entry in facts {
            switch entry.fact {
            case .paymentAdded(let txn, _, _, let user, _), .purchaseStarted(let txn, _, _, let user, _),
                .purchaseCompletedOutsideApp(let txn, _, let user, _):
                payers[txn] = user
            case .paymentCharged(let txn, _, _):
                if buyers[txn] == nil { buyers[txn] = payers[txn] ?? "?" }
            default: continue
            }
        }
    }
}
