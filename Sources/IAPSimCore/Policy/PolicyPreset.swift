/// A named policy preset: a column of the policy key table (`PolicyKeySpec.table`), where
/// every key's row gives its value under every preset.
package enum PolicyPreset: String, Sendable, Hashable, CaseIterable {
    case naive, hardened
    case localTable = "local-table"
    case retransmit
    case retryFile = "retry-file"
    case sk2Naive = "sk2-naive"
    case sk2Hardened = "sk2-hardened"

    /// Its column in the table's preset values.
    var column: Int { Self.allCases.firstIndex(of: self)! }

    package var policy: Policy { Self.policies[column] }

    /// What each preset is, in words (the docs' preset list).
    package var summary: String {
        switch self {
        case .naive: return "the code most apps start with: every failure mode shows"
        case .hardened:
            return "every fix of the app and its server at once (StoreKit 1); refunds need the server-side keys"
        case .localTable: return "a local table of transactions in a file; a server that deduplicates and binds"
        case .retransmit: return "the observer at launch; the request stored and resent at launch, network, purchase"
        case .retryFile: return "three immediate retries, then a file per order retried every 5 minutes"
        case .sk2Naive: return "StoreKit 2 written as the naive StoreKit 1 code"
        case .sk2Hardened: return "every StoreKit 2 and server-side fix at once"
        }
    }

    /// Every preset's policy, written once from the table.
    static let policies: [Policy] = allCases.map { preset in
        var policy = Policy()
        for spec in PolicyKeySpec.table {
            let applied = spec.write(&policy, spec.value(in: preset))
            precondition(applied, "preset \(preset.rawValue): \(spec.key.rawValue) refuses its own table value")
        }
        return policy
    }
}
