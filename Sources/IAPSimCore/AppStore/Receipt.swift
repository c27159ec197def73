/// One entry of the receipt's `in_app` list.
package struct ReceiptEntry: Sendable, Hashable {
    package var transactionId: String
    package var originalTransactionId: String
    package var productId: String
    package var purchaseDateMs: VirtualTime
    /// `applicationUsername` of the payment, present only when it was a UUID (Apple).
    package var appAccountToken: String?
}

/// A snapshot of the app receipt as the app read it at one moment. Cumulative and signed:
/// it keeps proving what it held at that moment, forever.
package struct Receipt: Sendable, Hashable {
    /// The serial the App Store gave this snapshot.
    package var serial: Int
    package var entries: [ReceiptEntry]
    /// The App Store's signature over serial and entries; verification recomputes it.
    package var signature: UInt64

    /// Realistic size of the base64 receipt the app sends: a fixed part (certificates,
    /// signature) plus each `in_app` entry.
    package var bytes: Int { 3_100 + 412 * entries.count }

    package func entry(for transactionId: String) -> ReceiptEntry? {
        entries.first { $0.transactionId == transactionId }
    }

    static func sign(serial: Int, entries: [ReceiptEntry]) -> UInt64 {
        // The hash of "receipt:SERIAL" then "|id,product,date,token" per entry, fed in pieces.
        var hash = FNV1a()
        hash.add("receipt:")
        hash.add(serial)
        // One-byte separators are fed as bytes: the same bytes, without a string each.
        for e in entries {
            hash.add(byte: UInt8(ascii: "|"))
            hash.add(e.transactionId)
            hash.add(byte: UInt8(ascii: ","))
            hash.add(e.productId)
            hash.add(byte: UInt8(ascii: ","))
            hash.add(e.purchaseDateMs)
            hash.add(byte: UInt8(ascii: ","))
            if let token = e.appAccountToken { hash.add(token) } else { hash.add(byte: UInt8(ascii: "-")) }
        }
        return hash.value
    }

    package var isAuthentic: Bool { signature == Receipt.sign(serial: serial, entries: entries) }
}

/// The status codes of `verifyReceipt` (Apple).
package enum VerifyStatus {
    package static let valid = 0
    package static let malformed = 21002
    package static let notAuthentic = 21003
    package static let unavailable = 21005
    package static let sandboxReceiptInProduction = 21007
    package static let notAuthorized = 21010

    /// Statuses worth asking again about: the App Store could not read or serve the
    /// receipt this time (Apple: 21002, 21005, 21100-21199).
    package static func isRetryable(_ status: Int) -> Bool {
        status == malformed || status == unavailable || (21_100...21_199).contains(status)
    }

    /// The statuses `store-status` accepts: 0 and the failures verification can answer.
    package static func canBeArmed(_ status: Int) -> Bool {
        [valid, malformed, notAuthentic, unavailable, sandboxReceiptInProduction, notAuthorized]
            .contains(status) || (21_100...21_199).contains(status)
    }

    package static let acceptedCodes = "0, 21002, 21003, 21005, 21007, 21010, 21100..21199"

    package static func words(_ status: Int) -> String {
        switch status {
        case valid: return "valid"
        case malformed: return "malformed receipt"
        case notAuthentic: return "receipt not authentic"
        case unavailable: return "App Store temporarily unavailable"
        case 21007: return "sandbox receipt sent to production"
        case 21008: return "production receipt sent to sandbox"
        case notAuthorized: return "receipt could not be authorized"
        case 21_100...21_199: return "App Store internal data access error"
        default: return "status \(status)"
        }
    }
}
