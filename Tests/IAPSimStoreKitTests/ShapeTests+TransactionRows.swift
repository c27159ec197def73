/// `ShapeTests`' rows for `Transaction` and what hangs off it, each with the address of
/// Apple's page whose name, type and optionality it has.
extension ShapeTests {
    static let transactionRows: [String: String] = [
        "Transaction": "https://developer.apple.com/documentation/storekit/transaction",
        "Transaction.id": "https://developer.apple.com/documentation/storekit/transaction/id",
        "Transaction.originalID": "https://developer.apple.com/documentation/storekit/transaction/originalid",
        "Transaction.productID": "https://developer.apple.com/documentation/storekit/transaction/productid",
        "Transaction.productType": "https://developer.apple.com/documentation/storekit/transaction/producttype",
        "Transaction.purchaseDate": "https://developer.apple.com/documentation/storekit/transaction/purchasedate",
        "Transaction.originalPurchaseDate":
            "https://developer.apple.com/documentation/storekit/transaction/originalpurchasedate",
        "Transaction.signedDate": "https://developer.apple.com/documentation/storekit/transaction/signeddate",
        "Transaction.appAccountToken": "https://developer.apple.com/documentation/storekit/transaction/appaccounttoken",
        "Transaction.revocationDate": "https://developer.apple.com/documentation/storekit/transaction/revocationdate",
        "Transaction.revocationReason":
            "https://developer.apple.com/documentation/storekit/transaction/revocationreason-swift.property",
        "Transaction.expirationDate": "https://developer.apple.com/documentation/storekit/transaction/expirationdate",
        "Transaction.isUpgraded": "https://developer.apple.com/documentation/storekit/transaction/isupgraded",
        "Transaction.purchasedQuantity":
            "https://developer.apple.com/documentation/storekit/transaction/purchasedquantity",
        "Transaction.ownershipType":
            "https://developer.apple.com/documentation/storekit/transaction/ownershiptype-swift.property",
        "Transaction.reason": "https://developer.apple.com/documentation/storekit/transaction/reason-swift.property",
        "Transaction.offer": "https://developer.apple.com/documentation/storekit/transaction/offer-swift.property",
        "Transaction.subscriptionGroupID":
            "https://developer.apple.com/documentation/storekit/transaction/subscriptiongroupid",
        "Transaction.environment": "https://developer.apple.com/documentation/storekit/transaction/environment",
        "Transaction.RevocationReason":
            "https://developer.apple.com/documentation/storekit/transaction/revocationreason-swift.struct",
        "Transaction.RevocationReason.rawValue":
            "https://developer.apple.com/documentation/storekit/transaction/revocationreason-swift.struct/rawvalue",
        "Transaction.RevocationReason.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/transaction/revocationreason-swift.struct/init(rawvalue:)",
        "Transaction.RevocationReason.developerIssue":
            "https://developer.apple.com/documentation/storekit/transaction/revocationreason-swift.struct/developerissue",
        "Transaction.RevocationReason.other":
            "https://developer.apple.com/documentation/storekit/transaction/revocationreason-swift.struct/other",
        "Transaction.OwnershipType":
            "https://developer.apple.com/documentation/storekit/transaction/ownershiptype-swift.struct",
        "Transaction.OwnershipType.rawValue":
            "https://developer.apple.com/documentation/storekit/transaction/ownershiptype-swift.struct/rawvalue",
        "Transaction.OwnershipType.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/transaction/ownershiptype-swift.struct/init(rawvalue:)",
        "Transaction.OwnershipType.purchased":
            "https://developer.apple.com/documentation/storekit/transaction/ownershiptype-swift.struct/purchased",
        "Transaction.OwnershipType.familyShared":
            "https://developer.apple.com/documentation/storekit/transaction/ownershiptype-swift.struct/familyshared",
        "Transaction.Reason": "https://developer.apple.com/documentation/storekit/transaction/reason-swift.struct",
        "Transaction.Reason.rawValue":
            "https://developer.apple.com/documentation/storekit/transaction/reason-swift.struct/rawvalue",
        "Transaction.Reason.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/transaction/reason-swift.struct/init(rawvalue:)",
        "Transaction.Reason.purchase":
            "https://developer.apple.com/documentation/storekit/transaction/reason-swift.struct/purchase",
        "Transaction.Reason.renewal":
            "https://developer.apple.com/documentation/storekit/transaction/reason-swift.struct/renewal",
        "Transaction.Offer": "https://developer.apple.com/documentation/storekit/transaction/offer-swift.struct",
        "Transaction.Offer.id": "https://developer.apple.com/documentation/storekit/transaction/offer-swift.struct/id",
        "Transaction.Offer.type":
            "https://developer.apple.com/documentation/storekit/transaction/offer-swift.struct/type",
        "Transaction.Offer.paymentMode":
            "https://developer.apple.com/documentation/storekit/transaction/offer-swift.struct/paymentmode-swift.property",
        "Transaction.Offer.PaymentMode":
            "https://developer.apple.com/documentation/storekit/transaction/offer-swift.struct/paymentmode-swift.struct",
        "Transaction.Offer.PaymentMode.rawValue":
            "https://developer.apple.com/documentation/storekit/transaction/offer-swift.struct/paymentmode-swift.struct/rawvalue",
        "Transaction.Offer.PaymentMode.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/transaction/offer-swift.struct/paymentmode-swift.struct/init(rawvalue:)",
        "Transaction.Offer.PaymentMode.freeTrial":
            "https://developer.apple.com/documentation/storekit/transaction/offer-swift.struct/paymentmode-swift.struct/freetrial",
        "Transaction.Offer.PaymentMode.payAsYouGo":
            "https://developer.apple.com/documentation/storekit/transaction/offer-swift.struct/paymentmode-swift.struct/payasyougo",
        "Transaction.Offer.PaymentMode.payUpFront":
            "https://developer.apple.com/documentation/storekit/transaction/offer-swift.struct/paymentmode-swift.struct/payupfront",
        "Transaction.OfferType": "https://developer.apple.com/documentation/storekit/transaction/offertype",
        "Transaction.OfferType.rawValue":
            "https://developer.apple.com/documentation/storekit/transaction/offertype/rawvalue",
        "Transaction.OfferType.init(rawValue:)":
            "https://developer.apple.com/documentation/storekit/transaction/offertype/init(rawvalue:)",
        "Transaction.OfferType.introductory":
            "https://developer.apple.com/documentation/storekit/transaction/offertype/introductory",
        "Transaction.OfferType.promotional":
            "https://developer.apple.com/documentation/storekit/transaction/offertype/promotional",
        "Transaction.OfferType.code": "https://developer.apple.com/documentation/storekit/transaction/offertype/code",
        "Transaction.OfferType.winBack":
            "https://developer.apple.com/documentation/storekit/transaction/offertype/winback",
        "Transaction.finish()": "https://developer.apple.com/documentation/storekit/transaction/finish()",
        "Transaction.updates": "https://developer.apple.com/documentation/storekit/transaction/updates",
        "Transaction.unfinished": "https://developer.apple.com/documentation/storekit/transaction/unfinished",
        "Transaction.currentEntitlements":
            "https://developer.apple.com/documentation/storekit/transaction/currententitlements",
        "Transaction.all": "https://developer.apple.com/documentation/storekit/transaction/all",
        "Transaction.latest(for:)": "https://developer.apple.com/documentation/storekit/transaction/latest(for:)",
        "Transaction.currentEntitlement(for:)":
            "https://developer.apple.com/documentation/storekit/transaction/currententitlement(for:)",
        "Transaction.Transactions": "https://developer.apple.com/documentation/storekit/transaction/transactions",
        "Transaction.Transactions.Element":
            "https://developer.apple.com/documentation/storekit/transaction/transactions/element",
        "Transaction.Transactions.makeAsyncIterator()":
            "https://developer.apple.com/documentation/storekit/transaction/transactions/makeasynciterator()",
        "Transaction.Transactions.AsyncIterator":
            "https://developer.apple.com/documentation/storekit/transaction/transactions/asynciterator",
        "Transaction.Transactions.AsyncIterator.next()":
            "https://developer.apple.com/documentation/storekit/transaction/transactions/asynciterator/next()",
        "VerificationResult": "https://developer.apple.com/documentation/storekit/verificationresult",
        "VerificationResult.verified":
            "https://developer.apple.com/documentation/storekit/verificationresult/verified(_:)",
        "VerificationResult.unverified":
            "https://developer.apple.com/documentation/storekit/verificationresult/unverified(_:_:)",
        "VerificationResult.VerificationError":
            "https://developer.apple.com/documentation/storekit/verificationresult/verificationerror",
        "VerificationResult.VerificationError.revokedCertificate":
            "https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/revokedcertificate",
        "VerificationResult.VerificationError.invalidCertificateChain":
            "https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/invalidcertificatechain",
        "VerificationResult.VerificationError.invalidDeviceVerification":
            "https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/invaliddeviceverification",
        "VerificationResult.VerificationError.invalidEncoding":
            "https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/invalidencoding",
        "VerificationResult.VerificationError.invalidSignature":
            "https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/invalidsignature",
        "VerificationResult.VerificationError.missingRequiredProperties":
            "https://developer.apple.com/documentation/storekit/verificationresult/verificationerror/missingrequiredproperties",
        "VerificationResult.unsafePayloadValue":
            "https://developer.apple.com/documentation/storekit/verificationresult/unsafepayloadvalue",
        "VerificationResult.payloadValue":
            "https://developer.apple.com/documentation/storekit/verificationresult/payloadvalue",
        "VerificationResult[SignedType == Transaction].jwsRepresentation":
            "https://developer.apple.com/documentation/storekit/verificationresult/jwsrepresentation-21vgo",
        "VerificationResult[SignedType == Product.SubscriptionInfo.RenewalInfo].jwsRepresentation":
            "https://developer.apple.com/documentation/storekit/verificationresult/jwsrepresentation-178oj",
    ]
}
