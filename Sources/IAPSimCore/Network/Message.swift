/// What the app (or the attacker) sends to `POST /recharge`.
package struct RechargeRequest: Sendable, Hashable {
    // One copy-on-write box: a request is copied into the message, the server's waiting
    // verification, its answer and the attacker's notes; each copy is one reference.
    private var fields: Shared<Values>

    package init(
        transactionId: String, productId: String, uid: String, orderId: String?, orderToken: String?,
        receipt: Receipt?, reason: SendReason, signed: SignedTransaction? = nil
    ) {
        fields = Shared(
            Values(
                transactionId: transactionId, productId: productId, uid: uid, orderId: orderId,
                orderToken: orderToken, receipt: receipt, reason: reason, signed: signed))
    }

    package var transactionId: String {
        get { fields.value.transactionId }
        set { fields.value.transactionId = newValue }
    }
    package var productId: String { fields.value.productId }
    /// The logged-in account that the request carries.
    package var uid: String { fields.value.uid }
    package var orderId: String? {
        get { fields.value.orderId }
        set { fields.value.orderId = newValue }
    }
    var orderToken: String? {
        get { fields.value.orderToken }
        set { fields.value.orderToken = newValue }
    }
    package var receipt: Receipt? { fields.value.receipt }
    package var reason: SendReason { fields.value.reason }
    /// StoreKit 2: the `jwsRepresentation` the request carries instead of a receipt.
    package var signed: SignedTransaction? { fields.value.signed }

    /// The fields, compared and hashed as one.
    struct Values: Hashable, Sendable {
        var transactionId: String
        var productId: String
        var uid: String
        var orderId: String?
        var orderToken: String?
        var receipt: Receipt?
        var reason: SendReason
        var signed: SignedTransaction?
    }
}

/// The merchant server's answer to a recharge.
package enum RechargeAnswer: Sendable, Hashable, Worded {
    /// Coins added; the listed transaction ids are credited and may be finished.
    case credited([String])
    /// Idempotent success: the transaction had been credited before.
    case alreadyCredited([String])
    /// A definite no: the receipt or the request is bad and will stay bad.
    case refused(String)
    /// Try again later (App Store unavailable or not answering).
    case retryLater(String)

    /// Credited, already credited or refused: the receipt will not be sent again.
    var isDefinite: Bool {
        if case .retryLater = self { return false }
        return true
    }

    package var words: String {
        switch self {
        case .credited(let ids): return "credited \(IdList.text(ids))"
        case .alreadyCredited(let ids): return "already credited \(IdList.text(ids))"
        case .refused(let why): return "refused: \(why)"
        case .retryLater(let why): return "retry later: \(why)"
        }
    }
}

/// The body of a network message.
package enum Payload: Sendable, Hashable {
    case orderRequest(user: String, product: String)
    case orderResponse(order: String, token: String, product: String)
    case rechargeRequest(RechargeRequest)
    case rechargeResponse(RechargeAnswer, transactionId: String)
    case verifyRequest(Receipt?)
    case verifyResponse(status: Int, receipt: Receipt?)
    /// A notification V2 (`notify`), and the merchant server's HTTP status for it.
    // Indirect: a message is copied on every hop, and a notification is large.
    indirect case notification(ServerNotification)
    case notificationResponse(status: Int)
    /// Get Transaction History for one transaction id the server knows (`server-api`).
    case historyRequest(txn: String)
    indirect case historyResponse([SignedTransaction])
    /// HTTP 503: the merchant server is down (`server-outage on`).
    case unavailable
    /// The app tells the server its customer's `appTransactionId` (route `order`).
    case appTransactionReport(user: String, appTransactionId: String)
    /// Send Consumption Information, the server's answer to `CONSUMPTION_REQUEST`
    /// (route `server-api`).
    case consumptionInfo(ConsumptionInfo)
    /// The App Store Server API's error answer (`server-api-fail`, `server-api-outage`):
    /// `{"errorCode": code}` with that HTTP status.
    case apiError(status: Int, code: Int)
    /// Get All Subscription Statuses for one subscription, and its answer (`server-api`).
    case statusRequest(originalTransactionId: String)
    indirect case statusResponse(StatusAnswer)

    /// Realistic byte sizes: JSON bodies plus HTTP headers; receipts grow per entry.
    package var bytes: Int {
        let headers = 310
        switch self {
        case .orderRequest: return headers + 64
        case .orderResponse: return headers + 118
        case .rechargeRequest(let r): return headers + 160 + (r.receipt?.bytes ?? 0) + (r.signed?.bytes ?? 0)
        case .rechargeResponse(let answer, _):
            switch answer {
            case .credited(let ids), .alreadyCredited(let ids): return headers + 48 + 22 * ids.count
            case .refused(let w), .retryLater(let w): return headers + 40 + w.utf8.count
            }
        case .verifyRequest(let receipt): return headers + 90 + (receipt?.bytes ?? 0)
        case .verifyResponse(_, let receipt): return headers + 520 + 260 * (receipt?.entries.count ?? 0)
        case .notification(let n): return headers + 40 + n.bytes
        case .notificationResponse, .unavailable: return headers
        case .appTransactionReport: return headers + 80
        case .consumptionInfo: return headers + 140
        case .apiError: return headers + 70
        case .historyRequest, .statusRequest: return headers + 60
        case .statusResponse(let a): return headers + 3_200 + a.transaction.bytes
        case .historyResponse(let list): return headers + 90 + list.reduce(0) { $0 + $1.bytes }
        }
    }
}

/// One message on the network.
package struct Message: Sendable, Hashable {
    package var id: Int
    /// Request and response of one exchange share this number.
    package var exchange: Int
    package var route: Route
    package var direction: Direction
    package var sender: Sender
    package var payload: Payload
    package var sentAt: VirtualTime
}
