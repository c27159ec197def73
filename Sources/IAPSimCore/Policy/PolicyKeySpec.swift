/// One policy key and everything the program knows of it: its word, the worlds that read
/// it, its help, the values it accepts (in words, and as a picker's choices), every preset's
/// value, and how its value is read from and written to a `Policy`. The rows are
/// `PolicyKeySpec.table` (in `Policy.swift`, beside the values they store); the parser, the
/// policy panel, the presets, the docs and the tests read the table and know no key by name.
package struct PolicyKeySpec: Sendable {
    package let key: PolicyKey
    package let world: PolicyWorld
    /// What the key decides, in one short line.
    package let help: String
    /// What the key decides, in full, for the docs' key table (Markdown; never printed):
    /// `help` unless the row says more.
    package let doc: String
    /// What it accepts, in words fit for an error message.
    package let accepted: String
    /// The values a picker offers, in order (a sample for open-ended keys).
    package let choices: [String]
    /// Its value under each preset, as a scenario writes it.
    package let presets: PresetValues
    /// Copies the key's typed value from the second policy into the first: how a value read
    /// once (`PolicySetting`) is applied without being read again.
    let copy: @Sendable (inout Policy, Policy) -> Void
    let read: @Sendable (Policy) -> String
    /// Writes a value given as text; false when the text is not one the key accepts.
    let write: @Sendable (inout Policy, String) -> Bool
    /// Why a refused text is refused, when there is more to say than `accepted` (a duration
    /// too short or too long, with the range); nil otherwise.
    var refusal: @Sendable (String) -> String? = { _ in nil }
    /// Whether its values are amounts or places (retries, intervals, where receipts are kept,
    /// how much a refund claws back): every value but the weak preset's hardens
    /// (`hardening(in:)`); otherwise only the hardened preset's. `.graded()` on a row.
    var graded = false
    /// When a change made while the world runs takes effect, for a key whose new value a
    /// running world does not read at once (`Simulation.policyChangedLive`); nil: from the
    /// next moment the key is read. `.live("...")` on a row.
    package var liveEffect: String?
    /// The short help in StoreKit 2's words, where StoreKit 1's differ (`.storeKit2Help`).
    var helpStoreKit2: String?

    /// This row, its values graded (`graded`).
    func graded(_ yes: Bool = true) -> PolicyKeySpec {
        var row = self
        row.graded = yes
        return row
    }

    /// This row, with when a live change of it takes effect (`liveEffect`).
    /// This row with its short help in StoreKit 2's words (walkthrough 6: a StoreKit 2 world's
    /// policy panel said `SKPaymentQueue.default().add(observer)`).
    func storeKit2Help(_ words: String) -> PolicyKeySpec {
        var row = self
        row.helpStoreKit2 = words
        return row
    }

    func live(_ words: String) -> PolicyKeySpec {
        var row = self
        row.liveEffect = words
        return row
    }

    /// Its value under `preset`, as a scenario writes it.
    package func value(in preset: PolicyPreset) -> String { presets[preset] }

    /// A key whose values are the cases of `T` (`observer: launch | store-screen`).
    static func choice<T: RawRepresentable & CaseIterable & Sendable>(
        _ key: PolicyKey, _ path: WritableKeyPath<Policy, T> & Sendable, _ world: PolicyWorld, help: String,
        doc: String? = nil, presets: PresetValues
    ) -> PolicyKeySpec where T.RawValue == String {
        let values = T.allCases.map(\.rawValue)
        return PolicyKeySpec(
            key: key, world: world, help: help, doc: doc ?? help, accepted: values.joined(separator: ", "),
            choices: values,
            presets: presets, copy: { $0[keyPath: path] = $1[keyPath: path] }, read: { $0[keyPath: path].rawValue },
            write: { policy, text in
                guard let value = T(rawValue: text) else { return false }
                policy[keyPath: path] = value
                return true
            })
    }

    /// A key that is `true` or `false`.
    static func flag(
        _ key: PolicyKey, _ path: WritableKeyPath<Policy, Bool> & Sendable, _ world: PolicyWorld, help: String,
        doc: String? = nil, presets: PresetValues
    ) -> PolicyKeySpec {
        PolicyKeySpec(
            key: key, world: world, help: help, doc: doc ?? help, accepted: "true, false", choices: ["true", "false"],
            presets: presets, copy: { $0[keyPath: path] = $1[keyPath: path] }, read: { String($0[keyPath: path]) },
            write: { policy, text in
                guard text == "true" || text == "false" else { return false }
                policy[keyPath: path] = text == "true"
                return true
            })
    }

    /// A key that is an interval in `Policy.intervalRange` (at least a second: a retry or a
    /// reconciliation more often would only flood the world with requests; at most the
    /// longest duration a scenario can name), or `off` (nil).
    static func interval(
        _ key: PolicyKey, _ path: WritableKeyPath<Policy, VirtualTime?> & Sendable, _ world: PolicyWorld,
        help: String, doc: String? = nil, example: String, choices: [String], presets: PresetValues
    ) -> PolicyKeySpec {
        let range = Policy.intervalRange
        return PolicyKeySpec(
            key: key, world: world, help: help, doc: doc ?? help, accepted: "a duration such as \(example), or off",
            choices: choices,
            presets: presets, copy: { $0[keyPath: path] = $1[keyPath: path] },
            read: { $0[keyPath: path].map(DurationText.format) ?? "off" },
            write: { policy, text in
                if text == "off" {
                    policy[keyPath: path] = nil
                    return true
                }
                guard let ms = DurationText.parse(text), range.contains(ms) else { return false }
                policy[keyPath: path] = ms
                return true
            },
            refusal: { text in
                guard let ms = DurationText.parse(text) else { return nil }
                let words = "\(DurationText.format(range.lowerBound)) to \(DurationText.format(range.upperBound))"
                if ms < range.lowerBound {
                    return "\(words), or off; \(text) is too short: an interval under "
                        + "\(DurationText.format(range.lowerBound)) would send a request every few milliseconds"
                }
                if ms > range.upperBound {
                    return "\(words), or off; \(text) is too long (at most \(DurationText.format(range.upperBound)))"
                }
                return nil
            })
    }

    /// A key that is a whole number in `range`.
    static func count(
        _ key: PolicyKey, _ path: WritableKeyPath<Policy, Int> & Sendable, _ world: PolicyWorld, help: String,
        doc: String? = nil, range: ClosedRange<Int>, presets: PresetValues
    ) -> PolicyKeySpec {
        PolicyKeySpec(
            key: key, world: world, help: help, doc: doc ?? help,
            accepted: "a whole number from \(range.lowerBound) to \(range.upperBound)",
            choices: range.map(String.init), presets: presets, copy: { $0[keyPath: path] = $1[keyPath: path] },
            read: { String($0[keyPath: path]) },
            write: { policy, text in
                guard let n = Int(text), range.contains(n) else { return false }
                policy[keyPath: path] = n
                return true
            })
    }

    /// A key that is a set of `T`, written comma-separated (`none` for empty).
    static func list<T: RawRepresentable & CaseIterable & Sendable & Equatable>(
        _ key: PolicyKey, _ path: WritableKeyPath<Policy, [T]> & Sendable, _ world: PolicyWorld, help: String,
        doc: String? = nil, choices: [String], presets: PresetValues
    ) -> PolicyKeySpec where T.RawValue == String {
        PolicyKeySpec(
            key: key, world: world, help: help, doc: doc ?? help,
            accepted: "a list of " + T.allCases.map(\.rawValue).joined(separator: ", ")
                + " (comma-separated), or none",
            choices: choices, presets: presets, copy: { $0[keyPath: path] = $1[keyPath: path] },
            read: { policy in
                let values = policy[keyPath: path]
                return values.isEmpty ? "none" : values.map(\.rawValue).joined(separator: ",")
            },
            write: { policy, text in
                guard let values: [T] = Policy.list(text) else { return false }
                policy[keyPath: path] = values
                return true
            })
    }
}

/// A key's value under each preset, as a scenario writes it: the value most presets share
/// and, by name, the presets that differ (`.all("false", except: [.hardened: "true"])`), so
/// that a row says which preset differs rather than holding seven values by position.
package struct PresetValues: Sendable {
    private let values: [String]

    /// `value` under every preset but those in `except`, which have their own.
    static func all(_ value: String, except: [PolicyPreset: String] = [:]) -> PresetValues {
        PresetValues(values: PolicyPreset.allCases.map { except[$0] ?? value })
    }

    package subscript(preset: PolicyPreset) -> String { values[preset.column] }
}

extension PolicyKey {
    /// Its row of the table (the table lists the keys in `allCases` order; a test holds it so).
    package var spec: PolicyKeySpec { PolicyKeySpec.table[Self.allCases.firstIndex(of: self)!] }

    /// What the key decides, in one short line (the policy panel's help).
    package var help: String { spec.help }
    /// The short help in `world`'s words.
    package func help(in world: StoreKitWorld) -> String {
        world == .two ? spec.helpStoreKit2 ?? spec.help : spec.help
    }
    /// What the key accepts, in words fit for an error message.
    var acceptedValues: String { spec.accepted }
    /// The values a picker offers for this key, in order (a sample for open-ended keys).
    package var choices: [String] { spec.choices }
    /// The worlds that read it.
    package var world: PolicyWorld { spec.world }

    /// The keys a world reads, in table order. `storekit` itself is not among them: the
    /// world is chosen by preset, before a run.
    package static func keys(in world: StoreKitWorld) -> [PolicyKey] {
        PolicyKeySpec.table.filter { $0.world.reads(in: world) }.map(\.key)
    }

    /// The merchant server's side (notifications, reconciliation, clawback): read in both worlds.
    package static let serverSideKeys = PolicyKeySpec.table.filter { $0.world == .serverSide }.map(\.key)
}

/// Which worlds read a policy key.
package enum PolicyWorld: String, Sendable, Hashable, CaseIterable {
    case both = "StoreKit 1 and 2"
    case storeKit1 = "StoreKit 1"
    case storeKit2 = "StoreKit 2"
    /// The merchant server's side: read in both worlds; a StoreKit 1 panel lists these keys
    /// only once one is on.
    case serverSide = "server side (both)"
    /// `storekit` itself: it chooses the world, before a run.
    case choosesWorld = "chooses the world"

    func reads(in world: StoreKitWorld) -> Bool {
        switch self {
        case .both: return true
        case .storeKit1: return world == .one
        case .storeKit2, .serverSide: return world == .two
        case .choosesWorld: return false
        }
    }
}

extension PolicyKey {
    /// The one rule for which keys a world shows (the policy panel, the glossary,
    /// the what-if's candidates): the world's own keys and the server side's, in table order;
    /// in StoreKit 1 not the server-side keys only a subscription reads (subscriptions exist in
    /// StoreKit 2 only). `served`: under `iapsim serve` no `server-*` key, since the team's
    /// backend is the server and reads none of them.
    package static func shown(in world: StoreKitWorld, served: Bool = false) -> [PolicyKey] {
        PolicyKeySpec.table.lazy.map(\.key).filter { key in
            if served && key.rawValue.hasPrefix("server-") { return false }
            if key.world == .serverSide { return world == .two || !subscriptionServerKeys.contains(key) }
            return key.world.reads(in: world)
        }
    }

    /// The server-side keys only a subscription reads.
    package static let subscriptionServerKeys: [PolicyKey] = [
        .serverSubscriptionOrder, .serverGrace, .serverRevoke, .serverStatusPoll, .serverOfferSigning,
        .serverPriceIncrease,
    ]
}
