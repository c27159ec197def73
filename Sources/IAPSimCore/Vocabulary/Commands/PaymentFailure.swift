/// Why the App Store fails a payment, as `fail-next-payment REASON` names it.
package enum PaymentFailure: String, Sendable, Hashable, CaseIterable {
    case cancelled, network, invalid
    /// A failure StoreKit names no better (`SKError.unknown`): what Xcode's
    /// `_failTransactionsEnabled` fails every purchase with.
    case unknown

    /// The `SKError` code a real app would see.
    package var skError: String {
        switch self {
        case .cancelled: return "SKError.paymentCancelled"
        // SKErrorCloudServiceNetworkConnectionFailed belongs to Apple Music APIs: a
        // purchase that loses its connection fails with SKErrorUnknown.
        case .network: return "SKError.unknown"
        case .invalid: return "SKError.paymentInvalid"
        case .unknown: return "SKError.unknown"
        }
    }

    /// What StoreKit 2's `purchase()` returns or throws instead.
    package var storeKit2Error: String {
        switch self {
        case .cancelled: return "Product.PurchaseResult.userCancelled"
        case .network: return "StoreKitError.networkError"
        case .invalid: return "Product.PurchaseError.productUnavailable"
        case .unknown: return "StoreKitError.unknown"
        }
    }
}
