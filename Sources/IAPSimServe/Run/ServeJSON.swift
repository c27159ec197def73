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

    /// A string or a whole number, as a string (`orderId`, `transactionId`).
    package static func word(_ value: Any?) -> String? {
        if let s = value as? String { return s }
        if let n = value as? Int { return String(n) }
        if let n = value as? NSNumber, n.doubleValue == n.doubleValue.rounded() { return String(n.int64Value) }
        return nil
    }

    package static func integer(_ value: Any?) -> Int? {
        if let n = value as? Int { return n }
        if let n = value as? NSNumber { return n.intValue }
        if let s = value as? String { return Int(s) }
        return nil
    }
}
