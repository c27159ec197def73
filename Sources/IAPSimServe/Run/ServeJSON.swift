import Foundation
import IAPSimScenario

/// The small JSON the edge writes (request bodies) and reads (answers, the ledger).
package enum ServeJSON {
    package indirect enum Value: Sendable, Equatable {
        case string(String), number(Int64), null, object([(String, Value)])

        package static func == (a: Value, b: Value) -> Bool { a.text == b.text }

        package var text: String {
            switch self {
            case .string(let s): return ServeJSON.quote(s)
            case .number(let n): return String(n)
            case .null: return "null"
            case .object(let members):
                return "{" + members.map { ServeJSON.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
            }
        }
    }

    /// A JSON string literal (the export's own quoting: control characters escaped).
    package static func quote(_ s: String) -> String { JSONLinesExport.jsonString(s) }

    /// A JSON object's members, or nil when `text` is not one.
    package static func object(_ text: String) -> [String: Any]? {
        guard let data = text.data(using: .utf8),
            let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return nil }
        return value as? [String: Any]
    }

    /// A string or a whole number, as a string (`orderId`, `transactionId`); a number that
    /// is not exactly a 64-bit whole number (`1e300`, `2.5`) is none.
    package static func word(_ value: Any?) -> String? {
        if let s = value as? String { return s }
        return integer(value).map(String.init)
    }

    /// A whole number exactly as sent: `1e300`, `2.5`, `true` or a number past 64 bits is nil,
    /// never a wrapped or rounded value. A string of digits is read too.
    package static func integer(_ value: Any?) -> Int? {
        if let s = value as? String { return Int(s) }
        guard let n = value as? NSNumber else { return nil }
        if let exact = value as? Int { return exact }
        return Int(exactly: n.doubleValue)
    }

    /// A whole number within `-limit...limit`, else nil (every number a backend sends that the
    /// world adds up: sums stay far from overflow, docs/serve.md "Limits").
    package static func integer(_ value: Any?, within limit: Int) -> Int? {
        guard let n = integer(value), (-limit...limit).contains(n) else { return nil }
        return n
    }
}
