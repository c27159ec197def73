/// The states of an `SKPaymentTransaction`.
package enum TransactionState: String, Sendable, Hashable, CaseIterable {
    case purchasing, purchased, failed, restored, deferred
}
