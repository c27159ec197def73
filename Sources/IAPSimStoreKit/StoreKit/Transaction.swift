import Foundation
import IAPSimApplePayload
import IAPSimCore

/// A transaction as StoreKit 2 shows it to your app: what the simulated App Store signed.
public struct Transaction: Sendable, Hashable, Identifiable {
    /// The transaction's id.
    public let id: UInt64
    /// The id of the transaction that first bought this product (itself for most).
    public let originalID: UInt64
    /// The product bought.
    public let productID: String
    /// The product's kind.
    public let productType: Product.ProductType
    /// When the App Store charged it.
    public let purchaseDate: Date
    /// When the original transaction was charged.
    public let originalPurchaseDate: Date
    /// When the App Store signed this copy: a new one at every delivery.
    public let signedDate: Date
    /// The token your app passed to `purchase(options: [.appAccountToken(_:)])`, if any.
    public let appAccountToken: UUID?
    /// When Apple refunded or revoked it, if it did.
    public let revocationDate: Date?
    /// Why Apple refunded it, while refunded (the simulated App Store says `.other`).
    public let revocationReason: RevocationReason?
    /// For a subscription: when the period it paid for ends.
    public let expirationDate: Date?
    /// For a subscription: true when a higher level replaced it.
    public let isUpgraded: Bool
    /// Always 1.
    public let purchasedQuantity: Int
    /// `.purchased` for the purchaser's own, `.familyShared` for a family member's transaction of
    /// a purchase shared through Family Sharing (the payload's `inAppOwnershipType`).
    public let ownershipType: OwnershipType
    /// A purchase or a subscription's renewal.
    public let reason: Reason
    /// The offer the transaction used (an introductory offer's period), nil for the full price.
    public let offer: Offer?
    /// For a subscription: its group.
    public let subscriptionGroupID: String?
    /// The environment the App Store signed it in.
    public let environment: AppStore.Environment

    let txn: String
    /// The JWS it was decoded from: `VerificationResult.jwsRepresentation`.
    let jws: String

    init(_ s: SignedTransaction, jws: String) {
        txn = s.transactionId
        id = UInt64(s.transactionId) ?? 0
        originalID = UInt64(s.originalTransactionId) ?? 0
        productID = s.productId
        productType = Product.ProductType(s.type)
        purchaseDate = Self.date(s.purchaseDate)
        originalPurchaseDate = Self.date(s.originalPurchaseDate)
        signedDate = Self.date(s.signedDate)
        appAccountToken = s.appAccountToken.flatMap(UUID.init(uuidString:))
        revocationDate = s.revocationDate.map(Self.date)
        revocationReason = s.revocationReason.map(RevocationReason.init(rawValue:))
        expirationDate = s.expiresDate.map(Self.date)
        isUpgraded = s.subscription?.isUpgraded ?? false
        purchasedQuantity = 1
        ownershipType = OwnershipType(rawValue: s.inAppOwnershipType)
        reason = s.subscription?.reason == .renewal ? .renewal : .purchase
        offer = s.subscription?.offer.map {
            Offer(
                id: $0.identifier, type: OfferType(rawValue: $0.type),
                paymentMode: Offer.PaymentMode(rawValue: $0.paymentMode.rawValue))
        }
        subscriptionGroupID = s.subscription?.group
        environment = AppStore.Environment(rawValue: s.environment)
        self.jws = jws
    }

    /// Why Apple refunded a transaction (StoreKit's `Transaction.RevocationReason`).
    public struct RevocationReason: RawRepresentable, Sendable, Hashable {
        /// Apple's number of the reason.
        public let rawValue: Int
        /// The reason numbered `rawValue`.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// An issue of the app.
        public static let developerIssue = RevocationReason(rawValue: 1)
        /// Another reason.
        public static let other = RevocationReason(rawValue: 0)
    }

    /// Who owns a transaction (StoreKit's `Transaction.OwnershipType`).
    public struct OwnershipType: RawRepresentable, Sendable, Hashable {
        /// Apple's name of the type.
        public let rawValue: String
        /// The type named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The account bought it.
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        /// A family member bought it and shares it.
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    }

    /// Why a transaction exists (StoreKit's `Transaction.Reason`).
    public struct Reason: RawRepresentable, Sendable, Hashable {
        /// Apple's name of the reason.
        public let rawValue: String
        /// The reason named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The customer bought it.
        public static let purchase = Reason(rawValue: "PURCHASE")
        /// A subscription renewed.
        public static let renewal = Reason(rawValue: "RENEWAL")
    }

    /// A subscription offer a transaction used (StoreKit's `Transaction.Offer`).
    public struct Offer: Sendable, Hashable {
        /// The offer's id (nil for an introductory offer).
        public let id: String?
        /// Introductory, promotional, offer code or win-back.
        public let type: OfferType
        /// How the customer pays for it.
        public let paymentMode: PaymentMode?

        /// How an offer is paid (StoreKit's `Transaction.Offer.PaymentMode`).
        public struct PaymentMode: RawRepresentable, Sendable, Hashable {
            /// Apple's name of the mode.
            public let rawValue: String
            /// The mode named `rawValue`.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Free for the offer's period.
            public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
            /// A reduced price each period.
            public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
            /// A reduced price once, up front.
            public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")
        }
    }

    /// The kind of a subscription offer (StoreKit's `Transaction.OfferType`).
    public struct OfferType: RawRepresentable, Sendable, Hashable {
        /// Apple's number of the type.
        public let rawValue: Int
        /// The type numbered `rawValue`.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// An introductory offer.
        public static let introductory = OfferType(rawValue: 1)
        /// A promotional offer.
        public static let promotional = OfferType(rawValue: 2)
        /// An offer code.
        public static let code = OfferType(rawValue: 3)
        /// A win-back offer.
        public static let winBack = OfferType(rawValue: 4)
    }

    static func date(_ virtual: VirtualTime) -> Date {
        Date(timeIntervalSince1970: Double(ApplePayload.unix(virtual)) / 1000)
    }

    /// Tells the App Store your app has delivered what was bought: the transaction leaves
    /// `Transaction.unfinished` and is not emitted at launch again. Call it only once your
    /// server has answered.
    public func finish() async {
        guard let store = SimulatedStore.current, store.noteCall() else { return }
        store.locked { if store.callerAlive { store.sim.drivenFinish(txn) } }
    }

    /// The transactions that happen outside a purchase call (interrupted purchases, Ask to
    /// Buy approvals, renewals and plan changes, refunds and revocations: the revoked
    /// transaction, its `revocationDate` set) and, once right after launch, the unfinished ones. Start
    /// iterating it when your app launches.
    public static var updates: Transactions { Transactions(source: .updates) }

    /// The transactions your app has not finished.
    public static var unfinished: Transactions { Transactions(source: .unfinished) }

    /// What the account is entitled to now: the latest transaction of each subscription
    /// subscribed or in its grace period, each non-consumable owned, each non-renewing
    /// subscription; never a consumable, a revoked, an upgraded-away or a superseded one.
    public static var currentEntitlements: Transactions { Transactions(source: .entitlements) }

    /// Every transaction of the account, oldest first; a finished consumable only when refunded
    /// (or with `SimulatedStore.includeConsumableInAppPurchaseHistory`, StoreKit's
    /// `SKIncludeConsumableInAppPurchaseHistory`).
    public static var all: Transactions { Transactions(source: .all) }

    /// The latest transaction for `productID` among `Transaction.all`'s, if any.
    public static func latest(for productID: String) async -> VerificationResult<Transaction>? {
        guard let store = SimulatedStore.current, store.noteCall() else { return nil }
        return store.snapshot(.all).last { $0.unsafePayloadValue.productID == productID }
    }

    /// The current entitlement for `productID`, if any.
    public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
        guard let store = SimulatedStore.current, store.noteCall() else { return nil }
        return store.snapshot(.entitlements).last { $0.unsafePayloadValue.productID == productID }
    }

    /// An asynchronous sequence of transactions (StoreKit's `Transaction.Transactions`).
    public struct Transactions: AsyncSequence, Sendable {
        /// Each transaction, signed anew for this delivery.
        public typealias Element = VerificationResult<Transaction>
        enum Source: Sendable { case updates, unfinished, entitlements, all }
        let source: Source

        /// An iterator over the store of the calling task.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(source: source, store: SimulatedStore.current)
        }

        /// Iterates the transactions; `updates` waits for the next one (nil once the app's
        /// process died), the lists end.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let source: Source
            let store: SimulatedStore?
            var listener: Int?
            var items: [VerificationResult<Transaction>]?

            init(source: Source, store: SimulatedStore?) {
                self.source = source
                self.store = store
            }

            /// The next transaction, or nil at the end.
            public mutating func next() async -> VerificationResult<Transaction>? {
                guard let store else { return nil }
                if source == .updates {
                    if listener == nil {
                        guard let id = store.listen() else { return nil }
                        listener = id
                    }
                    return await store.nextUpdate(listener: listener!)
                }
                if items == nil {
                    guard store.noteCall() else { return nil }
                    items = store.snapshot(source)
                }
                guard items!.isEmpty else { return items!.removeFirst() }
                // The end of a list: the loop over it ends, and with it (most often) its task.
                store.locked { store.blocked(currentTaskID()) }
                return nil
            }
        }
    }
}
