/// The built-in catalog as an Xcode StoreKit configuration file: the text of the shipped
/// `scenarios/iapsim.storekit`, embedded so that the binary finds it from anywhere
/// (`StoreKitFileTests` checks that the two are the same, and that this text read with
/// `BuiltInStoreKit.grants` is `Catalog.standard`).
package enum BuiltInStoreKit {
    /// What the built-in consumables grant: a StoreKit file says nothing of coins.
    package static let grants: [(product: String, amount: Int, unit: String)] = [
        ("coins_100", 100, "coins"), ("coins_550", 550, "coins"),
    ]

    package static let text = #"""
        {
          "identifier" : "1A9C0E57",
          "nonRenewingSubscriptions" : [],
          "products" : [
            {
              "displayPrice" : "0.99",
              "familyShareable" : false,
              "internalID" : "6A5F0001",
              "localizations" : [
                {
                  "description" : "A small pile of coins",
                  "displayName" : "100 coins",
                  "locale" : "en_US"
                }
              ],
              "productID" : "coins_100",
              "referenceName" : "100 coins",
              "type" : "Consumable"
            },
            {
              "displayPrice" : "4.99",
              "familyShareable" : false,
              "internalID" : "6A5F0002",
              "localizations" : [
                {
                  "description" : "A chest of coins",
                  "displayName" : "550 coins",
                  "locale" : "en_US"
                }
              ],
              "productID" : "coins_550",
              "referenceName" : "550 coins",
              "type" : "Consumable"
            },
            {
              "displayPrice" : "2.99",
              "familyShareable" : false,
              "internalID" : "6A5F0003",
              "localizations" : [
                {
                  "description" : "Removes the ads, forever",
                  "displayName" : "No ads",
                  "locale" : "en_US"
                }
              ],
              "productID" : "no_ads",
              "referenceName" : "No ads",
              "type" : "NonConsumable"
            }
          ],
          "settings" : {
            "_applicationInternalID" : "6450000001",
            "_developerTeamID" : "IAPSIM0001",
            "_failTransactionsEnabled" : false,
            "_locale" : "en_US",
            "_storefront" : "USA",
            "_storeKitErrors" : []
          },
          "subscriptionGroups" : [
            {
              "id" : "pro",
              "localizations" : [],
              "name" : "Pro",
              "subscriptions" : [
                {
                  "adHocOffers" : [],
                  "codeOffers" : [],
                  "displayPrice" : "4.99",
                  "familyShareable" : true,
                  "groupNumber" : 2,
                  "internalID" : "6A5F0011",
                  "introductoryOffer" : null,
                  "localizations" : [
                    {
                      "description" : "Pro, renewed every month",
                      "displayName" : "Pro, monthly",
                      "locale" : "en_US"
                    }
                  ],
                  "productID" : "pro_monthly",
                  "recurringSubscriptionPeriod" : "P1M",
                  "referenceName" : "Pro, monthly",
                  "subscriptionGroupID" : "pro",
                  "type" : "RecurringSubscription"
                },
                {
                  "adHocOffers" : [],
                  "codeOffers" : [],
                  "displayPrice" : "9.99",
                  "familyShareable" : true,
                  "groupNumber" : 1,
                  "internalID" : "6A5F0012",
                  "introductoryOffer" : null,
                  "localizations" : [
                    {
                      "description" : "Plus (above Pro), renewed every month",
                      "displayName" : "Plus, monthly",
                      "locale" : "en_US"
                    }
                  ],
                  "productID" : "plus_monthly",
                  "recurringSubscriptionPeriod" : "P1M",
                  "referenceName" : "Plus, monthly",
                  "subscriptionGroupID" : "pro",
                  "type" : "RecurringSubscription"
                },
                {
                  "adHocOffers" : [],
                  "codeOffers" : [],
                  "displayPrice" : "49.99",
                  "familyShareable" : true,
                  "groupNumber" : 2,
                  "internalID" : "6A5F0013",
                  "introductoryOffer" : null,
                  "localizations" : [
                    {
                      "description" : "Pro, renewed every year",
                      "displayName" : "Pro, yearly",
                      "locale" : "en_US"
                    }
                  ],
                  "productID" : "pro_yearly",
                  "recurringSubscriptionPeriod" : "P1Y",
                  "referenceName" : "Pro, yearly",
                  "subscriptionGroupID" : "pro",
                  "type" : "RecurringSubscription"
                }
              ]
            }
          ],
          "version" : {
            "major" : 3,
            "minor" : 0
          }
        }
        """#
}
