extension PolicyKey {
    /// What the key decides, in one short line (the policy panel's help). A switch without
    /// `default`: a new key does not compile until it says what it is for.
    package var help: String {
        switch self {
        case .observer: return "when SKPaymentQueue.default().add(observer) runs"
        case .finish: return "when finishTransaction runs for a purchased transaction"
        case .finishFailed: return "whether failed transactions are finished"
        case .persist: return "where the pending receipt is kept before sending"
        case .persistWhen: return "saved before the first send, or only after the retries fail"
        case .retryImmediate: return "immediate retries after a failed send"
        case .retryInterval: return "periodic retry of pending receipts"
        case .retryMaxInterval: return "periodic retry backs off, doubling up to this"
        case .resendOn: return "moments that resend pending receipts"
        case .resendAs: return "a resend carries the buyer's uid, or whoever is logged in"
        case .receipt: return "the receipt read at purchase, or read again at each send"
        case .match: return "how a transaction is paired with an order"
        case .serverDedup: return "server remembers every credited transaction id"
        case .serverBindOrder: return "order bound to one transaction by its token"
        case .creditTo: return "whom the server credits"
        case .storekit: return "StoreKit 1 or 2; switches between runs or on restart"
        case .sweepUnfinished: return "Transaction.unfinished sent at launch and foreground"
        case .accountToken: return "purchase(options:) carries the order's appAccountToken"
        case .serverVerify: return "server checks the JWS itself, for the world's or the claimed environment"
        case .serverNotifications: return "server handles App Store Server Notifications V2"
        case .serverReconcile: return "server calls Get Transaction History every so often"
        case .serverClawback: return "a refund takes back all coins, the refunded share, or none"
        case .reportAppTransaction: return "the app sends its appTransactionId to the server at login"
        case .serverRefundReversed: return "REFUND_REVERSED gives the clawed-back coins back, or not"
        case .serverConsumptionAnswer: return "CONSUMPTION_REQUEST answered with consumption information"
        case .serverHistory: return "Get Transaction History v2, or v1 (no finished consumables)"
        case .serverHistoryPages: return "reconciliation reads every page, or only the first 20"
        }
    }
}
