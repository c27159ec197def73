import IAPSimCore
import IAPSimScenario
import Testing

/// One test per kind of refused StoreKit file, each asserting the whole one-line message:
/// `FILE:LINE:COLUMN: what, and what is accepted`.
@Suite struct StoreKitErrorTests {
    /// A valid file around `products` (line 2 on) and `subscriptionGroups`.
    static func file(products: String = "", groups: String = "", version: String = "3") -> String {
        "{\n  \"products\" : [\(products)],\n  \"subscriptionGroups\" : [\(groups)],\n"
            + "  \"version\" : { \"major\" : \(version), \"minor\" : 0 }\n}\n"
    }

    static func product(_ id: String = "gems", price: String = "\"0.99\"", type: String = "Consumable") -> String {
        "{ \"displayPrice\" : \(price), \"productID\" : \"\(id)\", \"type\" : \"\(type)\" }"
    }

    @Test func aGoodFileIsRead() {
        #expect(storekitRefusal(Self.file(products: Self.product())) == nil)
    }

    @Test func notJSON() {
        #expect(
            storekitRefusal("{\n  \"products\" : [,]\n}")
                == "P.storekit:2:17: not JSON: ',' where a value was expected: an object, an array, a string, "
                + "a number, true, false or null; a StoreKit configuration file is the JSON Xcode writes")
        #expect(
            storekitRefusal("products:\n  - gems\n")
                == "P.storekit:1:1: not JSON: 'p' where a value was expected: an object, an array, a string, "
                + "a number, true, false or null; a StoreKit configuration file is the JSON Xcode writes")
        #expect(storekitRefusal("")?.hasPrefix("P.storekit:1:1: not JSON: the file is empty") == true)
        #expect(
            storekitRefusal("{\"a\" : 1, \"a\" : 2}")?.hasPrefix(
                "P.storekit:1:11: not JSON: the key \"a\" is written twice") == true)
    }

    @Test func unknownVersion() {
        #expect(
            storekitRefusal(Self.file(products: Self.product(), version: "9"))
                == "P.storekit:4:27: unknown version 9; accepted: 1, 2, 3, 4, 5")
        #expect(
            storekitRefusal("{ \"products\" : [] }")
                == "P.storekit:1:1: no \"version\"; Xcode writes \"version\" : { \"major\" : 3, \"minor\" : 0 } "
                + "(accepted: 1, 2, 3, 4, 5)")
    }

    @Test func productWithoutProductID() {
        #expect(
            storekitRefusal(Self.file(products: "{ \"displayPrice\" : \"0.99\", \"type\" : \"Consumable\" }"))
                == "P.storekit:2:17: a product without \"productID\"; every product needs one "
                + "(a string such as \"com.example.gems_100\")")
    }

    @Test func priceThatIsNotAPrice() {
        for bad in ["\"abc\"", "\"-1\"", "\"1.999\"", "\"1,99\"", "true", "\"\""] {
            let message = storekitRefusal(Self.file(products: Self.product(price: bad)))
            #expect(
                message?.hasPrefix("P.storekit:2:36: the price of \"gems\" is ") == true
                    && message?.contains(
                        ", not a price; a price is a decimal such as \"0.99\" or \"1500\", at most two decimals")
                        == true,
                "\(bad): \(message ?? "read")")
        }
    }

    @Test func twoProductsWithOneId() {
        #expect(
            storekitRefusal(Self.file(products: Self.product() + ", " + Self.product()))
                == "P.storekit:2:132: two products with the id \"gems\" (the first at P.storekit:2:58); "
                + "each product id is unique")
    }

    @Test func subscriptionWhoseGroupIsMissing() {
        let sub =
            "{ \"id\" : \"g1\", \"subscriptions\" : [ { \"displayPrice\" : \"1.99\", \"groupNumber\" : 1, "
            + "\"productID\" : \"pass\", \"recurringSubscriptionPeriod\" : \"P1W\", "
            + "\"subscriptionGroupID\" : \"g2\", \"type\" : \"RecurringSubscription\" } ] }"
        #expect(
            storekitRefusal(Self.file(groups: sub))
                == "P.storekit:3:193: the subscription \"pass\" names the group \"g2\", which the file does not have; "
                + "its \"subscriptionGroupID\" must be the \"id\" of a group of \"subscriptionGroups\" (\"g1\")")
        let badPeriod = sub.replacingOccurrences(of: "P1W", with: "P1D").replacingOccurrences(of: "g2", with: "g1")
        #expect(
            storekitRefusal(Self.file(groups: badPeriod))
                == "P.storekit:3:162: the period of \"pass\" is \"P1D\"; accepted: P1W, P1M, P2M, P3M, P6M, P1Y")
    }

    @Test func unknownTypeAndEmptyCatalog() {
        #expect(
            storekitRefusal(Self.file(products: Self.product(type: "Subscription")))
                == "P.storekit:2:75: a product of \"products\" with type \"Subscription\"; accepted: \"Consumable\", "
                + "\"NonConsumable\"")
        #expect(
            storekitRefusal(Self.file())
                == "P.storekit:1:1: the file sells no product; a catalog needs at least one in \"products\", "
                + "\"nonRenewingSubscriptions\" or \"subscriptionGroups\"")
    }

    @Test func sizesAreBounded() {
        let many = (0...StoreKitFile.maxProducts).map { Self.product("p\($0)") }.joined(separator: ",")
        #expect(storekitRefusal(Self.file(products: many)) == "P.storekit:2:16: 2001 products; the limit is 2000")
        let deep = String(repeating: "[", count: 1_001) + String(repeating: "]", count: 1_001)
        #expect(
            storekitRefusal(deep)
                == "P.storekit:1:1001: too large for a StoreKit configuration file: values nested deeper than "
                + "1,000 levels; the limit is 1,000")
    }

    @Test func grantsAreCheckedAgainstTheCatalog() {
        let head = "format: 1\ntitle: t\n"
        #expect(
            refusal(head + "grants: {no_ads: 5 coins}\nsteps: []\n")
                == "s.yaml:3:10: grants: 'no_ads' is non-consumable; only a consumable grants an amount")
        #expect(
            refusal(head + "grants: {coins_100: lots}\nsteps: []\n")
                == "s.yaml:3:21: grants: 'coins_100' grants 'lots'; a grant is a whole number from 1 to 1000000 "
                + "and a unit, such as `100 coins` or `5 gems`")
        #expect(
            refusal(head + "storekit: nowhere.storekit\nsteps: []\n")
                == "s.yaml:3:11: cannot read the StoreKit file nowhere.storekit: no such file")
    }
}
