/// App Store storefronts: the `_storefront` of a StoreKit configuration file (ISO 3166
/// alpha-3), Apple's storefront id and the currency prices are in. A storefront not in the
/// table keeps the US id and currency, and the run's header says so.
enum Storefronts {
    static let table: [(code: String, id: String, currency: String)] = [
        ("USA", "143441", "USD"), ("FRA", "143442", "EUR"), ("DEU", "143443", "EUR"),
        ("GBR", "143444", "GBP"), ("AUT", "143445", "EUR"), ("BEL", "143446", "EUR"),
        ("FIN", "143447", "EUR"), ("GRC", "143448", "EUR"), ("IRL", "143449", "EUR"),
        ("ITA", "143450", "EUR"), ("LUX", "143451", "EUR"), ("NLD", "143452", "EUR"),
        ("PRT", "143453", "EUR"), ("ESP", "143454", "EUR"), ("CAN", "143455", "CAD"),
        ("SWE", "143456", "SEK"), ("NOR", "143457", "NOK"), ("DNK", "143458", "DKK"),
        ("CHE", "143459", "CHF"), ("AUS", "143460", "AUD"), ("NZL", "143461", "NZD"),
        ("JPN", "143462", "JPY"), ("HKG", "143463", "HKD"), ("SGP", "143464", "SGD"),
        ("CHN", "143465", "CNY"), ("KOR", "143466", "KRW"), ("IND", "143467", "INR"),
        ("MEX", "143468", "MXN"), ("RUS", "143469", "RUB"), ("TWN", "143470", "TWD"),
        ("ISR", "143491", "ILS"), ("SAU", "143479", "SAR"), ("TUR", "143480", "TRY"),
        ("ARE", "143481", "AED"), ("BRA", "143503", "BRL"), ("ZAF", "143472", "ZAR"),
        ("POL", "143478", "PLN"), ("THA", "143475", "THB"), ("IDN", "143476", "IDR"),
        ("VNM", "143471", "VND"), ("PHL", "143474", "PHP"), ("MYS", "143473", "MYR"),
    ]

    static func find(_ code: String) -> (code: String, id: String, currency: String)? {
        table.first { $0.code == code }
    }
}
