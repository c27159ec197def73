import IAPSimCore
import IAPSimScenario
import Testing

/// Xcode's `_failTransactionsEnabled` and `_storeKitErrors` read from a team's file: honoured
/// (the settings the world and the harness obey), listed, and refused where StoreKit has no
/// such API, error kind or case, at the line and column of the word.
@Suite struct StoreKitSettingsErrorsTests {
    /// A file with one product and `settings` (its members' text, from line 3 on).
    static func file(_ settings: String) -> String {
        "{\n  \"products\" : [ { \"displayPrice\" : \"0.99\", \"productID\" : \"gems\", \"type\" : \"Consumable\" } ],\n"
            + "  \"settings\" : {\n\(settings)\n  },\n  \"subscriptionGroups\" : [],\n"
            + "  \"version\" : { \"major\" : 3, \"minor\" : 0 }\n}\n"
    }

    static func read(_ settings: String) throws -> LoadedCatalog {
        try StoreKitFile.parse(bytes: Array(file(settings).utf8), file: "P.storekit")
    }

    @Test func failTransactionsFailsEveryPurchaseAndIsModelled() throws {
        let loaded = try Self.read(#"    "_failTransactionsEnabled" : true"#)
        #expect(loaded.catalog.settings.failTransactions)
        #expect(loaded.catalog.settings.purchaseFailure == .unknown)
        #expect(loaded.listed.contains("_failTransactionsEnabled on (purchases fail: SKError.unknown)"))
        #expect(loaded.notModelled.isEmpty, "\(loaded.notModelled)")
        let off = try Self.read(#"    "_failTransactionsEnabled" : false"#)
        #expect(off.catalog.settings.purchaseFailure == nil)
    }

    @Test func eachEnabledAPIGetsItsChosenError() throws {
        let loaded = try Self.read(
            """
                "_storeKitErrors" : [
                  { "current" : { "index" : 2, "type" : "generic" }, "enabled" : true, "name" : "Purchase" },
                  { "current" : { "index" : 4, "type" : "verification" }, "enabled" : true, "name" : "Verification" },
                  { "current" : null, "enabled" : true, "name" : "Load Products" },
                  { "current" : { "index" : 1, "type" : "refundRequest" }, "enabled" : true, "name" : "Refund Request" },
                  { "current" : { "index" : 0, "type" : "generic" }, "enabled" : false, "name" : "App Store Sync" }
                ]
            """)
        let errors = loaded.catalog.settings.storeKitErrors
        #expect(errors[.purchase]?.name == "StoreKitError.networkError")
        #expect(errors[.verification]?.name == "VerificationResult.VerificationError.invalidSignature")
        #expect(errors[.loadProducts]?.name == "StoreKitError.unknown")
        #expect(errors[.refundRequest]?.name == "Transaction.RefundRequestError.failed")
        #expect(errors[.appStoreSync] == nil)
        #expect(loaded.catalog.settings.purchaseFailure == .network)
        #expect(
            loaded.listed.contains(
                "_storeKitErrors: 4 of 5 enabled (Load Products StoreKitError.unknown, Purchase StoreKitError.networkError, "
                    + "Refund Request Sheet Transaction.RefundRequestError.failed, "
                    + "Verification VerificationResult.VerificationError.invalidSignature)"), "\(loaded.listed)")
        // Verification and Load Products fail where they are called, in IAPSimStoreKit (the
        // simulated app of `run` calls neither): modelled; a sheet has no call anywhere.
        #expect(loaded.notModelled == ["Refund Request Sheet error"], "\(loaded.notModelled)")
    }

    @Test func anAPIStoreKitDoesNotHaveIsRefusedAtItsName() {
        let text = Self.file(
            #"    "_storeKitErrors" : [ { "current" : null, "enabled" : true, "name" : "Checkout" } ]"#)
        #expect(
            storekitRefusal(text)
                == "P.storekit:4:74: \"_storeKitErrors\" names \"Checkout\"; the APIs are \"Load Products\", \"Purchase\", "
                + "\"Verification\", \"App Store Sync\", \"Subscription Status\", \"App Transaction\", "
                + "\"Manage Subscriptions Sheet\", \"Refund Request Sheet\", \"Offer Code Redeem Sheet\"")
    }

    @Test func anErrorKindTheAPIHasNotIsRefusedAtItsType() {
        let text = Self.file(
            #"    "_storeKitErrors" : [ { "current" : { "index" : 0, "type" : "purchase" }, "enabled" : true, "name" : "Load Products" } ]"#
        )
        #expect(
            storekitRefusal(text)
                == "P.storekit:4:65: \"Load Products\" fails with \"generic\" errors, not \"purchase\"")
    }

    @Test func anIndexPastTheCasesIsRefusedWithTheCases() {
        let text = Self.file(
            #"    "_storeKitErrors" : [ { "current" : { "index" : 9, "type" : "refundRequest" }, "enabled" : true, "name" : "Refund Request Sheet" } ]"#
        )
        #expect(
            storekitRefusal(text)
                == "P.storekit:4:53: \"index\" of a \"refundRequest\" error must be 0 to 1 "
                + "(Transaction.RefundRequestError: 0 duplicateRequest, 1 failed)")
    }
}
