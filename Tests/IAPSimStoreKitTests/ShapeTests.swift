import Foundation
import Testing

@testable import IAPSimStoreKit

/// Every public symbol of `IAPSimStoreKit`, with the address of Apple's page it mirrors (its
/// name, type and optionality are Apple's) or `harness` (the simulator's own: `SimulatedStore`
/// and what it hands out). A public symbol added without a row, or a row whose symbol went,
/// fails `everyPublicSymbolMirrorsAnApplePageOrIsHarness`.
@Suite struct ShapeTests {
    /// Every row: the StoreKit mirrors (ShapeTests+AppleRows.swift, ShapeTests+TransactionRows.swift) and the harness
    /// (ShapeTests+HarnessRows.swift).
    static let rows: [String: String] = appleRows.merging(transactionRows) { _, _ in
        preconditionFailure("a symbol has a row in both tables")
    }.merging(harnessRows) { _, _ in preconditionFailure("a symbol has a row in both tables") }

    static var sources: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/IAPSimStoreKit").path
    }

    @Test func everyPublicSymbolMirrorsAnApplePageOrIsHarness() throws {
        let files = try #require(FileManager.default.subpaths(atPath: Self.sources))
            .filter { $0.hasSuffix(".swift") }.sorted().map { Self.sources + "/" + $0 }
        let found = Set(try PublicSymbols.list(files: files))
        #expect(found.count > 250, "the reading of the sources found \(found.count) public symbols")
        let unlisted = found.subtracting(Self.rows.keys).sorted()
        #expect(unlisted.isEmpty, "public symbols with neither Apple's page nor `harness`: \(unlisted)")
        let gone = Set(Self.rows.keys).subtracting(found).sorted()
        #expect(gone.isEmpty, "rows for symbols that are no longer public: \(gone)")
        for (symbol, page) in Self.rows {
            #expect(
                page == "harness" || page.hasPrefix("https://developer.apple.com/documentation/storekit/"),
                "\(symbol): \(page)")
        }
        // StoreKit has no `jwsRepresentation` on `Transaction`: it is the verification result's.
        #expect(!found.contains("Transaction.jwsRepresentation"))
    }

    @Test func theReadingSeesEachKindOfPublicDeclaration() {
        let text = """
            public struct Shelf: Sendable {
                public let id: String
                let hidden: Int
                public static func books(for ids: [String], in place: Int = 0) async -> [Shelf] { [] }
                public init(rawValue: Int) { hidden = rawValue; id = "" }
                public enum Kind {
                    case paper, cloth(Int)
                }
                func local() { switch 1 { case 1: break; default: break } }
            }
            extension Shelf where Self: Sendable {
                public var label: String { "" }
            }
            """
        #expect(
            PublicSymbols.symbols(in: text) == [
                "Shelf", "Shelf.id", "Shelf.books(for:in:)", "Shelf.init(rawValue:)", "Shelf.Kind", "Shelf.Kind.paper",
                "Shelf.Kind.cloth", "Shelf[Self: Sendable].label",
            ])
    }

    /// The shapes code written against StoreKit relies on, checked by the compiler.
    @Test func theShapesAreStoreKits() {
        let _: KeyPath<Transaction, Transaction.RevocationReason?> = \.revocationReason
        let _: KeyPath<Transaction, AppStore.Environment> = \.environment
        let _: KeyPath<Transaction, Transaction.OwnershipType> = \.ownershipType
        let _: KeyPath<Transaction, Transaction.Reason> = \.reason
        let _: KeyPath<Transaction, Transaction.Offer?> = \.offer
        let _: KeyPath<Transaction, String?> = \.subscriptionGroupID
        let _: KeyPath<Transaction, Date?> = \.revocationDate
        let _: KeyPath<Product.SubscriptionInfo, Product.SubscriptionPeriod> = \.subscriptionPeriod
        let _: KeyPath<Product.SubscriptionInfo, Product.SubscriptionOffer?> = \.introductoryOffer
        let _: KeyPath<Product.SubscriptionInfo.Status, VerificationResult<Product.SubscriptionInfo.RenewalInfo>> =
            \.renewalInfo
        let _: KeyPath<VerificationResult<Transaction>, String> = \.jwsRepresentation
        let _: KeyPath<AppTransaction, AppStore.Environment> = \.environment
        let _: () async throws -> Void = AppStore.sync
        let _: (String) async -> Bool = Product.SubscriptionInfo.isEligibleForIntroOffer(for:)
        #expect(Transaction.Reason.renewal.rawValue == "RENEWAL" && AppStore.Environment.sandbox.rawValue == "Sandbox")
    }
}
