/// `ShapeTests`' rows for the symbols that mirror StoreKit: each with the address of Apple's
/// page whose name, type and optionality it has.
extension ShapeTests {
    static let appleRows: [String: String] = [
        "AppStore": "https://developer.apple.com/documentation/storekit/appstore",
        "AppStore.Environment": "https://developer.apple.com/documentation/storekit/appstore/environment",
        "AppStore.Environment.rawValue":
            "https://developer.apple.com/documentation/storekit/appstore/environment/rawvalue",
        "AppStore.Environment.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/appstore/environment/init(rawvalue:)",
        "AppStore.Environment.production":
            "https://developer.apple.com/documentation/storekit/appstore/environment/production",
        "AppStore.Environment.sandbox":
            "https://developer.apple.com/documentation/storekit/appstore/environment/sandbox",
        "AppStore.Environment.xcode": "https://developer.apple.com/documentation/storekit/appstore/environment/xcode",
        "AppStore.sync()": "https://developer.apple.com/documentation/storekit/appstore/sync()",
        "AppStore.presentOfferCodeRedeemSheet(in:)":
            "https://developer.apple.com/documentation/storekit/appstore/presentoffercoderedeemsheet(in:)",
        "Product": "https://developer.apple.com/documentation/storekit/product",
        "Product.id": "https://developer.apple.com/documentation/storekit/product/id",
        "Product.type": "https://developer.apple.com/documentation/storekit/product/type",
        "Product.displayName": "https://developer.apple.com/documentation/storekit/product/displayname",
        "Product.description": "https://developer.apple.com/documentation/storekit/product/description",
        "Product.price": "https://developer.apple.com/documentation/storekit/product/price",
        "Product.displayPrice": "https://developer.apple.com/documentation/storekit/product/displayprice",
        "Product.subscription": "https://developer.apple.com/documentation/storekit/product/subscription",
        "Product.isFamilyShareable": "https://developer.apple.com/documentation/storekit/product/isfamilyshareable",
        "Product.products(for:)": "https://developer.apple.com/documentation/storekit/product/products(for:)",
        "Product.purchase(options:)": "https://developer.apple.com/documentation/storekit/product/purchase(options:)",
        "Product.purchase(confirmIn:options:)":
            "https://developer.apple.com/documentation/storekit/product/purchase(confirmin:options:)-6dj6y",
        "Product.PurchaseResult": "https://developer.apple.com/documentation/storekit/product/purchaseresult",
        "Product.PurchaseResult.success":
            "https://developer.apple.com/documentation/storekit/product/purchaseresult/success(_:)",
        "Product.PurchaseResult.userCancelled":
            "https://developer.apple.com/documentation/storekit/product/purchaseresult/usercancelled",
        "Product.PurchaseResult.pending":
            "https://developer.apple.com/documentation/storekit/product/purchaseresult/pending",
        "Product.PurchaseOption": "https://developer.apple.com/documentation/storekit/product/purchaseoption",
        "Product.PurchaseOption.appAccountToken(_:)":
            "https://developer.apple.com/documentation/storekit/product/purchaseoption/appaccounttoken(_:)",
        "Product.PurchaseError": "https://developer.apple.com/documentation/storekit/product/purchaseerror",
        "Product.PurchaseError.invalidQuantity":
            "https://developer.apple.com/documentation/storekit/product/purchaseerror/invalidquantity",
        "Product.PurchaseError.productUnavailable":
            "https://developer.apple.com/documentation/storekit/product/purchaseerror/productunavailable",
        "Product.PurchaseError.purchaseNotAllowed":
            "https://developer.apple.com/documentation/storekit/product/purchaseerror/purchasenotallowed",
        "Product.PurchaseError.ineligibleForOffer":
            "https://developer.apple.com/documentation/storekit/product/purchaseerror/ineligibleforoffer",
        "Product.PurchaseError.invalidOfferIdentifier":
            "https://developer.apple.com/documentation/storekit/product/purchaseerror/invalidofferidentifier",
        "Product.PurchaseError.invalidOfferPrice":
            "https://developer.apple.com/documentation/storekit/product/purchaseerror/invalidofferprice",
        "Product.PurchaseError.invalidOfferSignature":
            "https://developer.apple.com/documentation/storekit/product/purchaseerror/invalidoffersignature",
        "Product.PurchaseError.missingOfferParameters":
            "https://developer.apple.com/documentation/storekit/product/purchaseerror/missingofferparameters",
        "Product.ProductType": "https://developer.apple.com/documentation/storekit/product/producttype",
        "Product.ProductType.rawValue":
            "https://developer.apple.com/documentation/storekit/product/producttype/rawvalue",
        "Product.ProductType.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/product/producttype/init(rawvalue:)",
        "Product.ProductType.consumable":
            "https://developer.apple.com/documentation/storekit/product/producttype/consumable",
        "Product.ProductType.nonConsumable":
            "https://developer.apple.com/documentation/storekit/product/producttype/nonconsumable",
        "Product.ProductType.nonRenewable":
            "https://developer.apple.com/documentation/storekit/product/producttype/nonrenewable",
        "Product.ProductType.autoRenewable":
            "https://developer.apple.com/documentation/storekit/product/producttype/autorenewable",
        "StoreKitError": "https://developer.apple.com/documentation/storekit/storekiterror",
        "StoreKitError.unknown": "https://developer.apple.com/documentation/storekit/storekiterror/unknown",
        "StoreKitError.userCancelled": "https://developer.apple.com/documentation/storekit/storekiterror/usercancelled",
        "StoreKitError.networkError":
            "https://developer.apple.com/documentation/storekit/storekiterror/networkerror(_:)",
        "StoreKitError.systemError": "https://developer.apple.com/documentation/storekit/storekiterror/systemerror(_:)",
        "StoreKitError.notAvailableInStorefront":
            "https://developer.apple.com/documentation/storekit/storekiterror/notavailableinstorefront",
        "StoreKitError.notEntitled": "https://developer.apple.com/documentation/storekit/storekiterror/notentitled",
        "StoreKitError.unsupported": "https://developer.apple.com/documentation/storekit/storekiterror/unsupported",
        "SimulatedStoreError": "https://developer.apple.com/documentation/storekit/simulatedstoreerror",
        "SimulatedStoreError.badCommand":
            "https://developer.apple.com/documentation/storekit/simulatedstoreerror/badcommand",
        "SimulatedStoreError.refused": "https://developer.apple.com/documentation/storekit/simulatedstoreerror/refused",
        "SimulatedStoreError.buyIsTheAppsJob":
            "https://developer.apple.com/documentation/storekit/simulatedstoreerror/buyistheappsjob",
        "SimulatedStoreError.noApp": "https://developer.apple.com/documentation/storekit/simulatedstoreerror/noapp",
        "SimulatedStoreError.badCatalog":
            "https://developer.apple.com/documentation/storekit/simulatedstoreerror/badcatalog",
        "SimulatedStoreError.badRoutes":
            "https://developer.apple.com/documentation/storekit/simulatedstoreerror/badroutes",
        "SimulatedStoreError.badBackend":
            "https://developer.apple.com/documentation/storekit/simulatedstoreerror/badbackend",
        "SimulatedStoreError.description":
            "https://developer.apple.com/documentation/storekit/simulatedstoreerror/description",
        "Product.SubscriptionInfo": "https://developer.apple.com/documentation/storekit/product/subscriptioninfo",
        "Product.SubscriptionInfo.subscriptionGroupID":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/subscriptiongroupid",
        "Product.SubscriptionInfo.groupLevel":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/grouplevel",
        "Product.SubscriptionInfo.subscriptionPeriod":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/subscriptionperiod",
        "Product.SubscriptionInfo.introductoryOffer":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/introductoryoffer",
        "Product.SubscriptionOffer.Signature":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/signature",
        "Product.SubscriptionOffer.Signature.keyID":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/signature/keyid",
        "Product.SubscriptionOffer.Signature.nonce":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/signature/nonce",
        "Product.SubscriptionOffer.Signature.timestamp":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/signature/timestamp",
        "Product.SubscriptionOffer.Signature.signature":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/signature/signature",
        "Product.SubscriptionOffer.Signature.init(keyID:nonce:timestamp:signature:)":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/signature/init(keyid:nonce:timestamp:signature:)",
        "Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)":
            "https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(offerid:keyid:nonce:signature:timestamp:)",
        "Product.PurchaseOption.promotionalOffer(offerID:signature:)":
            "https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(offerid:signature:)",
        "Product.PurchaseOption.promotionalOffer(_:compactJWS:)":
            "https://developer.apple.com/documentation/storekit/product/purchaseoption/promotionaloffer(_:compactjws:)",
        "Product.SubscriptionInfo.promotionalOffers":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/promotionaloffers",
        "Product.SubscriptionInfo.winBackOffers":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/winbackoffers",
        "Product.PurchaseOption.winBackOffer(_:)":
            "https://developer.apple.com/documentation/storekit/product/purchaseoption/winbackoffer(_:)",
        "Product.SubscriptionInfo.RenewalInfo.eligibleWinBackOfferIDs":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/eligiblewinbackofferids",
        "Product.SubscriptionInfo.isEligibleForIntroOffer":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/iseligibleforintrooffer",
        "Product.SubscriptionInfo.isEligibleForIntroOffer(for:)":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/iseligibleforintrooffer(for:)",
        "Product.SubscriptionInfo.status":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.property",
        "Product.SubscriptionInfo.RenewalState":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate",
        "Product.SubscriptionInfo.RenewalState.rawValue":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/rawvalue",
        "Product.SubscriptionInfo.RenewalState.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/init(rawvalue:)",
        "Product.SubscriptionInfo.RenewalState.subscribed":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/subscribed",
        "Product.SubscriptionInfo.RenewalState.expired":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/expired",
        "Product.SubscriptionInfo.RenewalState.inBillingRetryPeriod":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/inbillingretryperiod",
        "Product.SubscriptionInfo.RenewalState.inGracePeriod":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/ingraceperiod",
        "Product.SubscriptionInfo.RenewalState.revoked":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate/revoked",
        "Product.SubscriptionInfo.Status":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct",
        "Product.SubscriptionInfo.Status.state":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct/state",
        "Product.SubscriptionInfo.Status.transaction":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct/transaction",
        "Product.SubscriptionInfo.Status.renewalInfo":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct/renewalinfo",
        "Product.SubscriptionInfo.RenewalInfo":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo",
        "Product.SubscriptionInfo.RenewalInfo.originalTransactionID":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/originaltransactionid",
        "Product.SubscriptionInfo.RenewalInfo.currentProductID":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/currentproductid",
        "Product.SubscriptionInfo.RenewalInfo.willAutoRenew":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/willautorenew",
        "Product.SubscriptionInfo.RenewalInfo.autoRenewPreference":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/autorenewpreference",
        "Product.SubscriptionInfo.RenewalInfo.expirationReason":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/expirationreason-swift.property",
        "Product.SubscriptionInfo.RenewalInfo.isInBillingRetry":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/isinbillingretry",
        "Product.SubscriptionInfo.RenewalInfo.gracePeriodExpirationDate":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/graceperiodexpirationdate",
        "Product.SubscriptionInfo.RenewalInfo.renewalDate":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/renewaldate",
        "Product.SubscriptionInfo.RenewalInfo.signedDate":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/signeddate",
        "Product.SubscriptionInfo.RenewalInfo.environment":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/environment",
        "Product.SubscriptionInfo.RenewalInfo.recentSubscriptionStartDate":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/recentsubscriptionstartdate",
        "Product.SubscriptionInfo.RenewalInfo.appAccountToken":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/appaccounttoken",
        "Product.SubscriptionInfo.RenewalInfo.renewalPrice":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/renewalprice",
        "Product.SubscriptionInfo.RenewalInfo.priceIncreaseStatus":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/priceincreasestatus-swift.property",
        "Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/priceincreasestatus-swift.enum",
        "Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.noIncreasePending":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/priceincreasestatus-swift.enum/noincreasepending",
        "Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.pending":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/priceincreasestatus-swift.enum/pending",
        "Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus.agreed":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/priceincreasestatus-swift.enum/agreed",
        "Message":
            "https://developer.apple.com/documentation/storekit/message",
        "Message.reason":
            "https://developer.apple.com/documentation/storekit/message/reason-swift.property",
        "Message.Reason":
            "https://developer.apple.com/documentation/storekit/message/reason-swift.struct",
        "Message.Reason.rawValue":
            "https://developer.apple.com/documentation/storekit/message/reason-swift.struct/rawvalue",
        "Message.Reason.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/message/reason-swift.struct/init(rawvalue:)",
        "Message.Reason.priceIncreaseConsent":
            "https://developer.apple.com/documentation/storekit/message/reason-swift.struct/priceincreaseconsent",
        "Message.Reason.billingIssue":
            "https://developer.apple.com/documentation/storekit/message/reason-swift.struct/billingissue",
        "Message.Reason.generic":
            "https://developer.apple.com/documentation/storekit/message/reason-swift.struct/generic",
        "Message.messages":
            "https://developer.apple.com/documentation/storekit/message/messages-swift.type.property",
        "Message.Messages":
            "https://developer.apple.com/documentation/storekit/message/messages-swift.struct",
        "Message.Messages.Element":
            "https://developer.apple.com/documentation/storekit/message/messages-swift.struct/element",
        "Message.Messages.makeAsyncIterator()":
            "https://developer.apple.com/documentation/storekit/message/messages-swift.struct/makeasynciterator()",
        "Message.Messages.AsyncIterator":
            "https://developer.apple.com/documentation/storekit/message/messages-swift.struct/asynciterator",
        "Message.Messages.AsyncIterator.next()":
            "https://developer.apple.com/documentation/storekit/message/messages-swift.struct/asynciterator/next()",
        "Product.SubscriptionInfo.RenewalInfo.ExpirationReason":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/expirationreason-swift.struct",
        "Product.SubscriptionInfo.RenewalInfo.ExpirationReason.rawValue":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/expirationreason-swift.struct/rawvalue",
        "Product.SubscriptionInfo.RenewalInfo.ExpirationReason.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/expirationreason-swift.struct/init(rawvalue:)",
        "Product.SubscriptionInfo.RenewalInfo.ExpirationReason.autoRenewDisabled":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/expirationreason-swift.struct/autorenewdisabled",
        "Product.SubscriptionInfo.RenewalInfo.ExpirationReason.billingError":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/expirationreason-swift.struct/billingerror",
        "Product.SubscriptionInfo.RenewalInfo.ExpirationReason.didNotConsentToPriceIncrease":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/expirationreason-swift.struct/didnotconsenttopriceincrease",
        "Product.SubscriptionInfo.RenewalInfo.ExpirationReason.productUnavailable":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/expirationreason-swift.struct/productunavailable",
        "Product.SubscriptionInfo.RenewalInfo.ExpirationReason.unknown":
            "https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalinfo/expirationreason-swift.struct/unknown",
        "Product.SubscriptionPeriod": "https://developer.apple.com/documentation/storekit/product/subscriptionperiod",
        "Product.SubscriptionPeriod.unit":
            "https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.property",
        "Product.SubscriptionPeriod.value":
            "https://developer.apple.com/documentation/storekit/product/subscriptionperiod/value",
        "Product.SubscriptionPeriod.Unit":
            "https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum",
        "Product.SubscriptionPeriod.Unit.day":
            "https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum/day",
        "Product.SubscriptionPeriod.Unit.week":
            "https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum/week",
        "Product.SubscriptionPeriod.Unit.month":
            "https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum/month",
        "Product.SubscriptionPeriod.Unit.year":
            "https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum/year",
        "Product.SubscriptionOffer": "https://developer.apple.com/documentation/storekit/product/subscriptionoffer",
        "Product.SubscriptionOffer.id":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/id",
        "Product.SubscriptionOffer.type":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/type",
        "Product.SubscriptionOffer.price":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/price",
        "Product.SubscriptionOffer.displayPrice":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/displayprice",
        "Product.SubscriptionOffer.period":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/period",
        "Product.SubscriptionOffer.periodCount":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/periodcount",
        "Product.SubscriptionOffer.paymentMode":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.property",
        "Product.SubscriptionOffer.OfferType":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/offertype",
        "Product.SubscriptionOffer.OfferType.rawValue":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/offertype/rawvalue",
        "Product.SubscriptionOffer.OfferType.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/offertype/init(rawvalue:)",
        "Product.SubscriptionOffer.OfferType.introductory":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/offertype/introductory",
        "Product.SubscriptionOffer.OfferType.promotional":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/offertype/promotional",
        "Product.SubscriptionOffer.OfferType.winBack":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/offertype/winback",
        "Product.SubscriptionOffer.PaymentMode":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct",
        "Product.SubscriptionOffer.PaymentMode.rawValue":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct/rawvalue",
        "Product.SubscriptionOffer.PaymentMode.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct/init(rawvalue:)",
        "Product.SubscriptionOffer.PaymentMode.freeTrial":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct/freetrial",
        "Product.SubscriptionOffer.PaymentMode.payAsYouGo":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct/payasyougo",
        "Product.SubscriptionOffer.PaymentMode.payUpFront":
            "https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct/payupfront",
        "AppTransaction": "https://developer.apple.com/documentation/storekit/apptransaction",
        "AppTransaction.appTransactionID":
            "https://developer.apple.com/documentation/storekit/apptransaction/apptransactionid",
        "AppTransaction.bundleID": "https://developer.apple.com/documentation/storekit/apptransaction/bundleid",
        "AppTransaction.appVersion": "https://developer.apple.com/documentation/storekit/apptransaction/appversion",
        "AppTransaction.originalAppVersion":
            "https://developer.apple.com/documentation/storekit/apptransaction/originalappversion",
        "AppTransaction.environment": "https://developer.apple.com/documentation/storekit/apptransaction/environment",
        "AppTransaction.shared": "https://developer.apple.com/documentation/storekit/apptransaction/shared",
    ]
}
