/// Where a payload writes its members, in order, leaving out a `nil` value (absent, not
/// null, as `JSONText.members` does): a `JSONText` tree (`JSONTreeMembers`, the payload's
/// `json`) or the same text straight as bytes (`JSONByteMembers`, what is signed). Each
/// payload lists its members once, for both.
package protocol JSONMembers {
    mutating func add(_ key: StaticString, _ value: String?)
    mutating func add(_ key: StaticString, _ value: Int64?)
    mutating func add(_ key: StaticString, _ value: Bool?)
    /// A member whose value is an array of strings.
    mutating func add(_ key: StaticString, strings: [String]?)
    /// A member whose value is an object of the members `object` adds.
    mutating func add(_ key: StaticString, object: (inout Self) -> Void)
}

/// A payload that lists its members once: its `json` and its `jsonBytes` (what is signed)
/// are the same text.
package protocol JSONPayload {
    func members(into m: inout some JSONMembers)
    /// The bytes reserved for `jsonBytes`.
    var jsonCapacity: Int { get }
}

extension JSONPayload {
    package var jsonCapacity: Int { 1024 }

    /// The payload as JSON, keys always in the order of `members`.
    package var json: JSONText {
        var tree = JSONTreeMembers()
        members(into: &tree)
        return tree.json
    }

    /// `json.bytes`, written straight (what is signed).
    package var jsonBytes: [UInt8] {
        var bytes = JSONByteMembers(capacity: jsonCapacity)
        members(into: &bytes)
        return bytes.bytes
    }
}

/// The members as a `JSONText` object.
package struct JSONTreeMembers: JSONMembers {
    private var members: [(key: String, value: JSONText)] = []

    package init() {}

    package var json: JSONText { .object(members) }

    package mutating func add(_ key: StaticString, _ value: String?) { add(key, value.map(JSONText.string)) }
    package mutating func add(_ key: StaticString, _ value: Int64?) { add(key, value.map(JSONText.integer)) }
    package mutating func add(_ key: StaticString, _ value: Bool?) { add(key, value.map(JSONText.bool)) }
    package mutating func add(_ key: StaticString, strings: [String]?) {
        add(key, strings.map { .array($0.map(JSONText.string)) })
    }

    package mutating func add(_ key: StaticString, object: (inout Self) -> Void) {
        var inner = Self()
        object(&inner)
        add(key, inner.json)
    }

    private mutating func add(_ key: StaticString, _ value: JSONText?) {
        if let value { members.append((key: key.description, value: value)) }
    }
}

/// The members as the bytes `JSONText.bytes` writes for their object (keys are ASCII names:
/// quoted as they are), with no tree and no string between.
package struct JSONByteMembers: JSONMembers {
    private var out: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    package init(capacity: Int = 1024) { out.reserveCapacity(capacity) }

    /// The object's text, closed.
    package var bytes: [UInt8] { out + [UInt8(ascii: "}")] }

    package mutating func add(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        JSONText.quote(value, to: &out)
    }

    package mutating func add(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        out.append(contentsOf: String(value).utf8)
    }

    package mutating func add(_ key: StaticString, _ value: Bool?) {
        guard let value else { return }
        self.key(key)
        out.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    package mutating func add(_ key: StaticString, strings: [String]?) {
        guard let strings else { return }
        self.key(key)
        out.append(UInt8(ascii: "["))
        for (n, s) in strings.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.quote(s, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    package mutating func add(_ key: StaticString, object: (inout Self) -> Void) {
        self.key(key)
        out.append(UInt8(ascii: "{"))
        first = true
        object(&self)
        out.append(UInt8(ascii: "}"))
        first = false
    }

    /// `,"key":` (no comma before the object's first member).
    private mutating func key(_ key: StaticString) {
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { out.append(contentsOf: $0) }
        out.append(contentsOf: "\":".utf8)
    }
}
