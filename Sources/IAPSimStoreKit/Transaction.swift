import Foundation
import IAPSimCore
import IAPSimServe

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
    /// When Apple refunded it, if it did.
    public let revocationDate: Date?
    /// For a subscription: when the period it paid for ends.
    public let expirationDate: Date?
    /// For a subscription: true when a higher level replaced it.
    public let isUpgraded: Bool
    /// Always 1.
    public let purchasedQuantity: Int
    /// The signed transaction your server checks: send this, never a decoded field.
    public let jwsRepresentation: String

    let txn: String

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
        expirationDate = s.expiresDate.map(Self.date)
        isUpgraded = s.subscription?.isUpgraded ?? false
        purchasedQuantity = 1
        jwsRepresentation = jws
    }

    static func date(_ virtual: VirtualTime) -> Date {
        Date(timeIntervalSince1970: Double(APISigner.unix(virtual)) / 1000)
    }

    /// Tells the App Store your app has delivered what was bought: the transaction leaves
    /// `Transaction.unfinished` and is not emitted at launch again. Call it only once your
    /// server has answered.
    public func finish() async {
        guard let store = SimulatedStore.current, store.noteCall() else { return }
        store.locked { if store.callerAlive { store.sim.drivenFinish(txn) } }
    }

    /// The transactions that happen outside a purchase call (interrupted purchases, Ask to
    /// Buy approvals, refunds) and, once right after launch, the unfinished ones. Start
    /// iterating it when your app launches.
    public static var updates: Transactions { Transactions(source: .updates) }

    /// The transactions your app has not finished.
    public static var unfinished: Transactions { Transactions(source: .unfinished) }

    /// The latest transaction of each product the account is entitled to now (never a
    /// consumable, nor a refunded one).
    public static var currentEntitlements: Transactions { Transactions(source: .entitlements) }

    /// Every transaction of the account, consumables finished included, oldest first.
    public static var all: Transactions { Transactions(source: .all) }

    /// The latest transaction for `productID`, if any.
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
