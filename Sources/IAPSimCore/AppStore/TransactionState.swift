/// The states of an `SKPaymentTransaction`.
public enum TransactionState: String, Sendable, Hashable, CaseIterable {
    case purchasing, purchased, failed, restored, deferred
}
