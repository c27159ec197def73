/// One entry of the receipt's `in_app` list.
///
/// An entry read from the store holds the transaction itself (one reference to its shared
/// fields, copied only if the store changes the transaction later), so that the snapshots
/// of a receipt that lists many transactions share what they list instead of each holding
/// a copy of every entry. Equal and hashed by the five fields a receipt shows.
package struct ReceiptEntry: Sendable, Hashable {
    private enum Source: Sendable {
        case store(StoreTransaction)
        case values(Shared<Values>)
    }

    private struct Values: Sendable, Hashable {
        var transactionId: String
        var originalTransactionId: String
        var productId: String
        var purchaseDateMs: VirtualTime
        var appAccountToken: String?
    }

    private var source: Source

    package init(
        transactionId: String, originalTransactionId: String, productId: String, purchaseDateMs: VirtualTime,
        appAccountToken: String?
    ) {
        source = .values(
            Shared(
                Values(
                    transactionId: transactionId, originalTransactionId: originalTransactionId,
                    productId: productId, purchaseDateMs: purchaseDateMs, appAccountToken: appAccountToken)))
    }

    /// The entry of a store transaction as it is now.
    init(_ transaction: StoreTransaction) { source = .store(transaction) }

    package var transactionId: String {
        get {
            switch source {
            case .store(let t): return t.id
            case .values(let v): return v.value.transactionId
            }
        }
        set { change { $0.transactionId = newValue } }
    }

    package var originalTransactionId: String {
        get {
            switch source {
            case .store(let t): return t.originalId ?? t.id
            case .values(let v): return v.value.originalTransactionId
            }
        }
        set { change { $0.originalTransactionId = newValue } }
    }

    package var productId: String {
        get {
            switch source {
            case .store(let t): return t.productId
            case .values(let v): return v.value.productId
            }
        }
        set { change { $0.productId = newValue } }
    }

    package var purchaseDateMs: VirtualTime {
        get {
            switch source {
            case .store(let t): return t.chargedAt ?? t.createdAt
            case .values(let v): return v.value.purchaseDateMs
            }
        }
        set { change { $0.purchaseDateMs = newValue } }
    }

    /// `applicationUsername` of the payment, present only when it was a UUID (Apple).
    package var appAccountToken: String? {
        get {
            switch source {
            case .store(let t): return t.appAccountToken
            case .values(let v): return v.value.appAccountToken
            }
        }
        set { change { $0.appAccountToken = newValue } }
    }

    /// A changed entry (a forged one) holds its own values.
    private mutating func change(_ edit: (inout Values) -> Void) {
        var values = Values(
            transactionId: transactionId, originalTransactionId: originalTransactionId, productId: productId,
            purchaseDateMs: purchaseDateMs, appAccountToken: appAccountToken)
        edit(&values)
        source = .values(Shared(values))
    }

    package static func == (a: ReceiptEntry, b: ReceiptEntry) -> Bool {
        a.transactionId == b.transactionId && a.originalTransactionId == b.originalTransactionId
            && a.productId == b.productId && a.purchaseDateMs == b.purchaseDateMs
            && a.appAccountToken == b.appAccountToken
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(transactionId)
        hasher.combine(originalTransactionId)
        hasher.combine(productId)
        hasher.combine(purchaseDateMs)
        hasher.combine(appAccountToken)
    }
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

    var isAuthentic: Bool { signature == Receipt.sign(serial: serial, entries: entries) }
}

/// The status codes of `verifyReceipt` (Apple's status table: 21000 to 21010 and
/// 21100..21199).
package enum VerifyStatus {
    package static let valid = 0
    package static let malformed = 21002
    static let notAuthentic = 21003
    package static let unavailable = 21005
    static let sandboxReceiptInProduction = 21007
    static let internalDataAccess = 21009
    static let notAuthorized = 21010

    /// Every status `verifyReceipt` can answer besides 0 (Apple), in order.
    package static let failures = [21_000, 21_002, 21_003, 21_004, 21_005, 21_006, 21_007, 21_008, 21_009, 21_010]

    /// Statuses worth asking again about: the App Store could not read or serve the
    /// receipt this time (Apple: 21002, 21005, 21009, 21100-21199).
    static func isRetryable(_ status: Int) -> Bool {
        status == malformed || status == unavailable || status == internalDataAccess
            || (21_100...21_199).contains(status)
    }

    /// The statuses `store-status` accepts: 0 and every failure verification can answer.
    static func canBeArmed(_ status: Int) -> Bool {
        status == valid || failures.contains(status) || (21_100...21_199).contains(status)
    }

    package static let acceptedCodes =
        "0, 21000, 21002, 21003, 21004, 21005, 21006, 21007, 21008, 21009, 21010, 21100..21199"

    package static func words(_ status: Int) -> String {
        switch status {
        case valid: return "valid"
        case 21_000: return "request not an HTTP POST, or its body unreadable"
        case malformed: return "malformed receipt"
        case notAuthentic: return "receipt not authentic"
        case 21_004: return "shared secret does not match"
        case unavailable: return "App Store temporarily unavailable"
        case 21_006: return "subscription expired (receipt valid)"
        case 21007: return "sandbox receipt sent to production"
        case 21008: return "production receipt sent to sandbox"
        case internalDataAccess: return "internal data access error, try again later"
        case notAuthorized: return "receipt could not be authorized"
        case 21_100...21_199: return "App Store internal data access error"
        default: return "status \(status)"
        }
    }
}
