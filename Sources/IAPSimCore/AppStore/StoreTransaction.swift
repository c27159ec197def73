/// One `SKPaymentTransaction` as the App Store keeps it. Its fields live in one
/// copy-on-write box: every lookup hands out a copy, which is one reference.
package struct StoreTransaction: Sendable, Hashable, Identifiable {
    private var fields: Shared<Values>

    init(
        id: String, productId: String, state: TransactionState, applicationUsername: String?,
        finished: Bool, createdAt: VirtualTime, chargedAt: VirtualTime?, originalId: String?,
        outcome: PlannedOutcome, failure: PaymentFailure?, refundedAt: VirtualTime? = nil
    ) {
        fields = Shared(
            Values(
                id: id, productId: productId, state: state, applicationUsername: applicationUsername,
                appAccountToken: StoreTransaction.accountToken(applicationUsername), finished: finished,
                createdAt: createdAt, chargedAt: chargedAt, originalId: originalId, outcome: outcome,
                failure: failure, refundedAt: refundedAt))
    }

    package var id: String { fields.value.id }
    package var productId: String { fields.value.productId }
    package var state: TransactionState {
        get { fields.value.state }
        set { fields.value.state = newValue }
    }
    package var applicationUsername: String? {
        get { fields.value.applicationUsername }
        set {
            fields.value.applicationUsername = newValue
            fields.value.appAccountToken = StoreTransaction.accountToken(newValue)
        }
    }
    /// What the receipt shows as `app_account_token`: the username when it is a UUID (Apple),
    /// a subscription's token for its renewals, or what Set App Account Token set. Kept beside
    /// the username because every receipt read needs it.
    package var appAccountToken: String? { fields.value.appAccountToken }

    /// Gives it `token`, whatever its username says (a renewal carries the subscription's
    /// token; Set App Account Token replaces it). The App Store's token index must be told.
    mutating func setAppAccountToken(_ token: String?) { fields.value.appAccountToken = token }
    package var finished: Bool {
        get { fields.value.finished }
        set { fields.value.finished = newValue }
    }
    package var createdAt: VirtualTime { fields.value.createdAt }
    package var chargedAt: VirtualTime? {
        get { fields.value.chargedAt }
        set { fields.value.chargedAt = newValue }
    }
    /// For a non-consumable bought again: the transaction that first bought it (Apple's
    /// `original_transaction_id`); nil when this transaction is its own original.
    var originalId: String? {
        get { fields.value.originalId }
        set { fields.value.originalId = newValue }
    }
    /// A fault armed for this payment when it was added.
    var outcome: PlannedOutcome { fields.value.outcome }
    package var failure: PaymentFailure? {
        get { fields.value.failure }
        set { fields.value.failure = newValue }
    }
    /// When Apple refunded it (`refund`): its `revocationDate`.
    package var refundedAt: VirtualTime? {
        get { fields.value.refundedAt }
        set { fields.value.refundedAt = newValue }
    }
    /// The refunded share in percent (`refund ... percent N`), while refunded.
    var refundPercent: Int {
        get { fields.value.refundPercent }
        set { fields.value.refundPercent = newValue }
    }

    /// A subscription transaction's period, `webOrderLineItemId` and reason.
    package var subscription: SubscriptionFields? {
        get { fields.value.subscription }
        set { fields.value.subscription = newValue }
    }

    /// The fields, compared and hashed as one.
    struct Values: Hashable, Sendable {
        var id: String
        var productId: String
        var state: TransactionState
        var applicationUsername: String?
        var appAccountToken: String?
        var finished: Bool
        var createdAt: VirtualTime
        var chargedAt: VirtualTime?
        var originalId: String?
        var outcome: PlannedOutcome
        var failure: PaymentFailure?
        var refundedAt: VirtualTime?
        var refundPercent = 0
        var subscription: SubscriptionFields?
    }
}

extension StoreTransaction {
    /// How a missing transaction id is shown and sent.
    static let noIdentifier = "(none)"

    /// `SKPaymentTransaction.transactionIdentifier`: a failed transaction has none (Apple),
    /// so it can never be credited; it still sits in the queue until finished. The
    /// simulator keeps `id` as its own key for it.
    package var transactionIdentifier: String? { state == .failed ? nil : id }

    static func accountToken(_ username: String?) -> String? {
        username.flatMap { isUUID($0) ? $0 : nil }
    }
}
