import Foundation

/// A request's query string, read as Apple's clients send it: repeated keys kept in order,
/// `+` and percent escapes decoded, a bare `?` ignored, booleans case-insensitive.
package struct APIQuery: Sendable {
    package var pairs: [(key: String, value: String)] = []

    package init(_ query: String?) {
        for item in (query ?? "").split(separator: "&") where !item.isEmpty {
            let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = Self.decode(kv[0])
            guard !key.isEmpty else { continue }
            pairs.append((key, kv.count > 1 ? Self.decode(kv[1]) : ""))
        }
    }

    static func decode(_ text: Substring) -> String {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
    }

    package func all(_ key: String) -> [String] { pairs.filter { $0.key == key }.map(\.value) }
    package func first(_ key: String) -> String? { pairs.first { $0.key == key }?.value }

    /// A boolean parameter: `true`/`false` in any case; nil when absent; `.invalid` otherwise.
    package func bool(_ key: String) -> Bool?? {
        guard let text = first(key) else { return .some(nil) }
        switch text.lowercased() {
        case "true": return .some(true)
        case "false": return .some(false)
        default: return nil
        }
    }
}

/// History's `revision`: opaque to clients (standard base64, so it must travel
/// percent-encoded), it holds the sort key of the last record returned: the records after
/// it in the request's order come next, and a last page's revision used later returns what
/// changed since (a refund moves a transaction's key).
package struct HistoryRevision: Equatable, Sendable {
    package var modifiedAt: Int
    package var transactionId: String
    package var descending: Bool

    package var token: String {
        Data("iapsim-rev1:\(descending ? "D" : "A"):\(modifiedAt):\(transactionId)".utf8).base64EncodedString()
    }

    package init(modifiedAt: Int, transactionId: String, descending: Bool) {
        self.modifiedAt = modifiedAt
        self.transactionId = transactionId
        self.descending = descending
    }

    package init?(token: String) {
        guard let data = Data(base64Encoded: token), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "iapsim-rev1", parts[1] == "A" || parts[1] == "D",
            let modified = Int(parts[2]), !parts[3].isEmpty
        else { return nil }
        self.init(modifiedAt: modified, transactionId: String(parts[3]), descending: parts[1] == "D")
    }
}
