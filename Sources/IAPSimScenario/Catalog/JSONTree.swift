/// A JSON value read from a file, with where each value starts (1-based line and column,
/// columns counting Unicode scalars): what a StoreKit configuration file's errors point at.
/// Object members keep their order; a key written twice is refused by the reader.
package struct JSONNode: Sendable, Hashable {
    package indirect enum Value: Sendable, Hashable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        /// The number's text as written (`4.99`, `1`): prices are read from the text.
        case number(String)
        case bool(Bool)
        case null
    }

    package struct Member: Sendable, Hashable {
        package var key: String
        package var keyLine: Int
        package var keyColumn: Int
        package var value: JSONNode
    }

    package var value: Value
    package var line: Int
    package var column: Int

    /// The member `key` of an object, if this is one and has it.
    package subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// What the value is, as an error message names it: `a string`, `an object`, `null`.
    package var kind: String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

/// Why bytes are not JSON: where, and what was found instead of what.
package struct JSONSyntaxError: Error, Sendable, Hashable {
    package var line: Int
    package var column: Int
    package var problem: String
    /// The text is JSON (as far as read) past a bound of `FileLimits`, not a syntax error.
    package var isLimit = false
}
