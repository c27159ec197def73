import Foundation
import IAPSimCore

extension Product {
    /// An auto-renewable subscription's terms and its status for the account.
    public struct SubscriptionInfo: Sendable, Hashable {
        /// The subscription group.
        public let subscriptionGroupID: String
        /// The level within the group (1 is the highest).
        public let groupLevel: Int
        /// How long one period lasts.
        public let subscriptionPeriod: Product.SubscriptionPeriod
        /// The introductory offer (a `.storekit` file's `introductoryOffer`), nil without one;
        /// the simulated App Store applies it at the purchase of an eligible customer.
        public let introductoryOffer: Product.SubscriptionOffer?
        /// The promotional offers (a `.storekit` file's `adHocOffers`): applied to a purchase
        /// only with your server's signature (`PurchaseOption.promotionalOffer`).
        public let promotionalOffers: [Product.SubscriptionOffer]
        /// The win-back offers (a `.storekit` file's `winbackOffers`), eligible or not: the
        /// renewal info's `eligibleWinBackOfferIDs` says which the customer may redeem; buy one
        /// with `PurchaseOption.winBackOffer(_:)`.
        public let winBackOffers: [Product.SubscriptionOffer]
        let productID: String

        init(productID: String, terms: SubscriptionTerms, storefront: String = "USA", currency: String = "USD") {
            self.productID = productID
            subscriptionGroupID = terms.group
            groupLevel = terms.level
            subscriptionPeriod = Product.SubscriptionPeriod(terms.period)
            introductoryOffer = terms.intro.map {
                Product.SubscriptionOffer(
                    $0,
                    displayPrice: Product.displayPrice(
                        cents: $0.priceCents, storefront: storefront, currency: currency))
            }
            promotionalOffers = terms.promotional.map {
                Product.SubscriptionOffer(
                    $0,
                    displayPrice: Product.displayPrice(
                        cents: $0.priceCents, storefront: storefront, currency: currency))
            }
            winBackOffers = terms.winBack.map {
                Product.SubscriptionOffer(
                    $0.offer,
                    displayPrice: Product.displayPrice(
                        cents: $0.offer.priceCents, storefront: storefront, currency: currency))
            }
        }

        /// Whether the account may still get an introductory offer in this group: true until
        /// it subscribes to any product of the group (Apple's rule).
        public var isEligibleForIntroOffer: Bool {
            get async { await Self.isEligibleForIntroOffer(for: subscriptionGroupID) }
        }

        /// Whether the account may still get an introductory offer in the group `groupID`.
        public static func isEligibleForIntroOffer(for groupID: String) async -> Bool {
            guard let store = SimulatedStore.current, store.noteCall() else { return false }
            return store.locked { store.sim.store.isEligibleForIntroOffer(group: groupID) }
        }

        /// The subscription's status in its group, one entry per subscription of the account.
        public var status: [Status] {
            get async throws {
                guard let store = SimulatedStore.current else { throw StoreKitError.unknown }
                guard store.noteCall() else { throw CancellationError() }
                if let configured = store.configuredError(.subscriptionStatus) { throw configured }
                return store.subscriptionStatus(group: subscriptionGroupID)
            }
        }

        /// StoreKit's renewal state.
        public struct RenewalState: RawRepresentable, Sendable, Hashable {
            /// Apple's number of the state (1 subscribed ... 5 revoked).
            public let rawValue: Int
            /// The state numbered `rawValue`.
            public init(rawValue: Int) { self.rawValue = rawValue }
            public static let subscribed = RenewalState(rawValue: 1)
            public static let expired = RenewalState(rawValue: 2)
            public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
            public static let inGracePeriod = RenewalState(rawValue: 4)
            public static let revoked = RenewalState(rawValue: 5)
        }

        /// One subscription's state, its latest transaction and its renewal info.
        public struct Status: Sendable {
            /// Subscribed, expired, in billing retry, in grace, revoked.
            public let state: RenewalState
            /// The subscription's latest transaction.
            public let transaction: VerificationResult<Transaction>
            /// What the next renewal will be, signed by the App Store.
            public let renewalInfo: VerificationResult<RenewalInfo>
        }

        /// A subscription's renewal info as StoreKit decodes it (`JWSRenewalInfoDecodedPayload`).
        public struct RenewalInfo: Sendable, Hashable {
            /// The subscription's original transaction.
            public let originalTransactionID: UInt64
            /// The product of the current period.
            public let currentProductID: String
            /// Whether it renews at the end of the period.
            public let willAutoRenew: Bool
            /// The product the next renewal will be (differs after a downgrade).
            public let autoRenewPreference: String?
            /// Why it expired, once it has (or is in billing retry: `.billingError`).
            public let expirationReason: ExpirationReason?
            /// Whether the App Store is retrying a failed renewal.
            public let isInBillingRetry: Bool
            /// While in the billing grace period: when it ends.
            public let gracePeriodExpirationDate: Date?
            /// When the next renewal is due (in the past once expired or revoked).
            public let renewalDate: Date?
            /// When the App Store signed it.
            public let signedDate: Date
            /// The environment it was signed in.
            public let environment: AppStore.Environment
            /// When the latest continuous run of the subscription began.
            public let recentSubscriptionStartDate: Date
            /// The token of the upcoming renewal (the first purchase's).
            public let appAccountToken: UUID?
            /// The price of the next renewal (the new price while a price increase applies to it).
            public let renewalPrice: Decimal?
            /// Whether a price increase applies to the next renewal, and the customer's answer.
            public let priceIncreaseStatus: PriceIncreaseStatus
            /// The win-back offers the customer may redeem now, best first (a lapsed
            /// subscription only; none in billing grace or billing retry).
            public let eligibleWinBackOfferIDs: [String]
            /// The JWS it was decoded from: `VerificationResult.jwsRepresentation`.
            let jws: String

            init(_ r: IAPSimCore.RenewalInfo, jws: String) {
                originalTransactionID = UInt64(r.originalTransactionId) ?? 0
                currentProductID = r.productId
                willAutoRenew = r.autoRenewStatus == 1
                autoRenewPreference = r.autoRenewProductId
                expirationReason = r.expirationIntent.map(ExpirationReason.init(rawValue:))
                isInBillingRetry = r.isInBillingRetryPeriod
                gracePeriodExpirationDate = r.gracePeriodExpiresDate.map(Transaction.date)
                renewalDate = Transaction.date(r.renewalDate)
                signedDate = Transaction.date(r.signedDate)
                environment = AppStore.Environment(rawValue: r.environment)
                recentSubscriptionStartDate = Transaction.date(r.recentSubscriptionStartDate)
                appAccountToken = r.appAccountToken.flatMap(UUID.init(uuidString:))
                renewalPrice = Decimal(r.renewalPrice) / 1000
                priceIncreaseStatus = PriceIncreaseStatus(r.priceIncreaseStatus)
                eligibleWinBackOfferIDs = r.eligibleWinBackOfferIds
                self.jws = jws
            }

            /// StoreKit's `RenewalInfo.PriceIncreaseStatus`: no increase pending, one the
            /// customer has not answered, or one agreed to (consented, or told of one that
            /// needs no consent).
            public enum PriceIncreaseStatus: Sendable, Hashable {
                case noIncreasePending, pending, agreed

                init(_ status: Int?) {
                    switch status {
                    case 0: self = .pending
                    case 1: self = .agreed
                    default: self = .noIncreasePending
                    }
                }
            }

            /// Why a subscription expired (StoreKit's `RenewalInfo.ExpirationReason`).
            public struct ExpirationReason: RawRepresentable, Sendable, Hashable {
                /// Apple's number of the reason.
                public let rawValue: Int
                /// The reason numbered `rawValue`.
                public init(rawValue: Int) { self.rawValue = rawValue }
                /// The customer turned auto-renew off.
                public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
                /// The renewal could not be charged.
                public static let billingError = ExpirationReason(rawValue: 2)
                /// The customer did not agree to a price increase.
                public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
                /// The product was no longer for sale.
                public static let productUnavailable = ExpirationReason(rawValue: 4)
                /// Another reason.
                public static let unknown = ExpirationReason(rawValue: 5)
            }
        }
    }

    /// A subscription's period (StoreKit's `Product.SubscriptionPeriod`).
    public struct SubscriptionPeriod: Sendable, Hashable {
        /// The unit: day, week, month or year.
        public let unit: Unit
        /// How many units.
        public let value: Int

        /// A unit of a subscription period.
        public enum Unit: Sendable, Hashable {
            case day, week, month, year
        }

        init(_ period: RenewalPeriod) {
            value = period.count
            switch period.unit {
            case .day: unit = .day
            case .week: unit = .week
            case .month: unit = .month
            case .year: unit = .year
            }
        }
    }

    /// A subscription offer (StoreKit's `Product.SubscriptionOffer`): the simulated store
    /// has introductory offers (free trial, pay as you go, pay up front).
    public struct SubscriptionOffer: Sendable, Hashable {
        /// The offer's id (nil for an introductory offer).
        public let id: String?
        /// Introductory, promotional or win-back.
        public let type: OfferType
        /// Its price in the storefront's currency.
        public let price: Decimal
        /// Its price as the sheet shows it.
        public let displayPrice: String
        /// The length of one of its periods.
        public let period: Product.SubscriptionPeriod
        /// How many periods it lasts.
        public let periodCount: Int
        /// How it is paid.
        public let paymentMode: PaymentMode

        init(_ offer: IntroductoryOffer, displayPrice: String) {
            id = offer.promotionalId
            switch offer.kind {
            case .introductory: type = .introductory
            case .promotional: type = .promotional
            case .winBack: type = .winBack
            case .code: type = OfferType(rawValue: "code")
            }
            price = Decimal(offer.priceCents) / 100
            self.displayPrice = displayPrice
            period = Product.SubscriptionPeriod(offer.period)
            periodCount = offer.periodCount
            switch offer.paymentMode {
            case .freeTrial: paymentMode = .freeTrial
            case .payAsYouGo: paymentMode = .payAsYouGo
            case .payUpFront: paymentMode = .payUpFront
            }
        }

        /// The kind of an offer (StoreKit's `Product.SubscriptionOffer.OfferType`).
        public struct OfferType: RawRepresentable, Sendable, Hashable {
            /// Apple's name of the type.
            public let rawValue: String
            /// The type named `rawValue`.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// An introductory offer.
            public static let introductory = OfferType(rawValue: "introductory")
            /// A promotional offer.
            public static let promotional = OfferType(rawValue: "promotional")
            /// A win-back offer.
            public static let winBack = OfferType(rawValue: "winBack")
        }

        /// How an offer is paid (StoreKit's `Product.SubscriptionOffer.PaymentMode`).
        public struct PaymentMode: RawRepresentable, Sendable, Hashable {
            /// Apple's name of the mode.
            public let rawValue: String
            /// The mode named `rawValue`.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Free for the offer's periods.
            public static let freeTrial = PaymentMode(rawValue: "freeTrial")
            /// A reduced price each period.
            public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
            /// A reduced price once, up front.
            public static let payUpFront = PaymentMode(rawValue: "payUpFront")
        }
    }
}

extension SimulatedStore {
    func subscriptionStatus(group: String) -> [Product.SubscriptionInfo.Status] {
        locked {
            sim.store.subscriptions.enumerated().compactMap { i, s in
                guard s.group == group, let v = verification(of: s.latestTransactionId) else { return nil }
                let r = sim.store.renewalInfo(i, at: sim.now)
                let jws = signing.sign(r)
                let info = Product.SubscriptionInfo.RenewalInfo(r, jws: jws)
                return Product.SubscriptionInfo.Status(
                    state: Product.SubscriptionInfo.RenewalState(rawValue: s.status.rawValue), transaction: v,
                    renewalInfo: signing.failure(of: jws, as: Product.SubscriptionInfo.RenewalInfo.self).map {
                        .unverified(info, $0)
                    } ?? .verified(info))
            }
        }
    }
}

/// The app's own signed record of its download (StoreKit 2's `AppTransaction`).
public struct AppTransaction: Sendable, Hashable {
    /// The customer's app transaction id (what the server can look history up by).
    public let appTransactionID: String
    /// `com.example.iapsim`.
    public let bundleID: String
    /// `1.0`.
    public let appVersion: String
    /// `1.0`.
    public let originalAppVersion: String
    /// `.production` or `.sandbox`, the world's.
    public let environment: AppStore.Environment

    /// The app transaction of the simulated install.
    public static var shared: VerificationResult<AppTransaction> {
        get async throws {
            guard let store = SimulatedStore.current else { throw StoreKitError.unknown }
            guard store.noteCall() else { throw CancellationError() }
            if let c = store.catalog.settings.storeKitErrors[.appTransaction], c.kind == .generic {
                throw SimulatedStore.thrown(c)
            }
            let environment = store.locked { store.environment }
            let app = AppTransaction(
                appTransactionID: IAPSimCore.AppStore.appTransactionId, bundleID: "com.example.iapsim",
                appVersion: "1.0", originalAppVersion: "1.0", environment: environment)
            if let failure = store.configuredVerificationError(.appTransaction, as: AppTransaction.self) {
                return .unverified(app, failure)
            }
            return .verified(app)
        }
    }
}
