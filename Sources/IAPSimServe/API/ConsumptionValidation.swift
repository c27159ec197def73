import Foundation
import IAPSimCore

/// Send Consumption Information's body (`ConsumptionRequest`), checked as the App Store
/// checks it. Apple's rules: `customerConsented` other than `true` is 400
/// `InvalidCustomerConsentedError` (…/appstoreserverapi/consumptionrequest);
/// `sampleContentProvided` and `deliveryStatus` are required (app-store-server-library
/// `models/ConsumptionRequest.py`), an unknown `deliveryStatus` is
/// `InvalidDeliveryStatusError`; `GRANT_PRORATED` needs a `consumptionPercentage` above 0
/// for a one-time product, and an auto-renewable subscription takes none
/// (…/appstoreserverapi/consumptionpercentage, …/refundpreference). The codes are those of
/// the library's `APIError`; Apple's library names no code for the two percentage rules, so
/// those answer 4000000 (`GeneralBadRequest`), the simulator's choice.
enum ConsumptionValidation {
    static let invalidCustomerConsented = 4_000_035
    static let invalidDeliveryStatus = 4_000_036
    static let invalidSampleContentProvided = 4_000_041
    static let generalBadRequest = 4_000_000

    /// Apple's `DeliveryStatus` and `RefundPreference` values.
    static let deliveryStatuses: Set<String> = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE",
        "UNDELIVERED_OTHER",
    ]
    static let refundPreferences: Set<String> = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]

    /// A JSON value of the body, as far as the rules need to tell them apart.
    enum Field: Decodable, Equatable {
        case bool(Bool), int(Int), string(String), null, other

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() {
                self = .null
            } else if let b = try? c.decode(Bool.self) {
                self = .bool(b)
            } else if let n = try? c.decode(Int.self) {
                self = .int(n)
            } else if let t = try? c.decode(String.self) {
                self = .string(t)
            } else {
                self = .other
            }
        }
    }

    /// The 400 Apple answers to `body`, or nil when it accepts it.
    static func refusal(_ body: String, subscription: Bool) -> APIAnswer? {
        guard let object = try? JSONDecoder().decode([String: Field].self, from: Data(body.utf8)) else {
            return APIAnswer.error(400, generalBadRequest, "Bad request.")
        }
        guard object["customerConsented"] == .bool(true) else {
            return bad(
                invalidCustomerConsented,
                "The customer consented field is invalid or doesn't indicate that the customer consented.")
        }
        guard case .bool = object["sampleContentProvided"] else {
            return bad(invalidSampleContentProvided, "The sample content provided field is invalid.")
        }
        guard case .string(let delivery) = object["deliveryStatus"], deliveryStatuses.contains(delivery) else {
            return bad(invalidDeliveryStatus, "The delivery status field is invalid.")
        }
        var preference: String?
        switch object["refundPreference"] {
        case nil, .null?: break
        case .string(let p)? where refundPreferences.contains(p): preference = p
        default: return bad(generalBadRequest, "The refund preference field is invalid.")
        }
        return percentageRefusal(object["consumptionPercentage"], preference: preference, subscription: subscription)
    }

    /// The rules of `consumptionPercentage`.
    static func percentageRefusal(_ field: Field?, preference: String?, subscription: Bool) -> APIAnswer? {
        var percentage: Int?
        switch field {
        case nil, .null?: break
        case .int(let n)? where (0...100_000).contains(n): percentage = n
        default: return bad(generalBadRequest, "The consumption percentage field is invalid.")
        }
        if subscription, percentage != nil {
            return bad(
                generalBadRequest,
                "The consumption percentage field is unsupported for auto-renewable subscription transactions.")
        }
        if !subscription, preference == "GRANT_PRORATED", (percentage ?? 0) <= 0 {
            return bad(generalBadRequest, "GRANT_PRORATED needs a consumptionPercentage greater than 0.")
        }
        return nil
    }

    static func bad(_ code: Int, _ message: String) -> APIAnswer {
        APIAnswer.error(400, code, "Invalid request. " + message)
    }
}
