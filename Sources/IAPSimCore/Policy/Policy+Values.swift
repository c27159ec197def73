/// Why a policy value was refused; the text names the key and lists what it accepts.
package struct PolicyValueError: Error, Sendable, Hashable, CustomStringConvertible {
    package var key: String
    package var value: String
    package var accepted: String
    package var description: String {
        "invalid value '\(value)' for policy key '\(key)'; accepted: \(accepted)"
    }
}

extension Policy {
    /// Reads a key's value as the text a scenario or the UI would write it.
    package func value(of key: PolicyKey) -> String {
        switch key {
        case .observer: return observer.rawValue
        case .finish: return finish.rawValue
        case .finishFailed: return String(finishFailed)
        case .persist: return persist.rawValue
        case .retryImmediate: return String(retryImmediate)
        case .retryInterval: return retryIntervalMs.map(DurationText.format) ?? "off"
        case .retryMaxInterval: return retryMaxIntervalMs.map(DurationText.format) ?? "off"
        case .resendOn:
            return resendOn.isEmpty ? "none" : resendOn.map(\.rawValue).joined(separator: ",")
        case .match: return match.rawValue
        case .serverDedup: return String(serverDedup)
        case .serverBindOrder: return String(serverBindOrder)
        case .creditTo: return creditTo.rawValue
        case .persistWhen: return persistWhen.rawValue
        case .resendAs: return resendAs.rawValue
        case .receipt: return receipt.rawValue
        case .storekit: return storekit.rawValue
        case .sweepUnfinished: return String(sweepUnfinished)
        case .accountToken: return String(accountToken)
        case .serverVerify: return serverVerify.rawValue
        case .serverNotifications: return String(serverNotifications)
        case .serverReconcile: return serverReconcileMs.map(DurationText.format) ?? "off"
        case .serverClawback: return serverClawback.rawValue
        case .reportAppTransaction: return String(reportAppTransaction)
        case .serverRefundReversed: return serverRefundReversed.rawValue
        case .serverConsumptionAnswer: return String(serverConsumptionAnswer)
        case .serverHistory: return serverHistory.rawValue
        case .serverHistoryPages: return serverHistoryPages.rawValue
        }
    }

    /// Sets one key from its text form. Throws a `PolicyValueError` listing what is accepted.
    package mutating func set(_ key: PolicyKey, to text: String) throws(PolicyValueError) {
        let fail = PolicyValueError(key: key.rawValue, value: text, accepted: key.acceptedValues)
        let v = text.trimmingSpaces()
        switch key {
        case .observer: observer = try Self.parse(v, fail)
        case .finish: finish = try Self.parse(v, fail)
        case .persist: persist = try Self.parse(v, fail)
        case .match: match = try Self.parse(v, fail)
        case .creditTo: creditTo = try Self.parse(v, fail)
        case .persistWhen: persistWhen = try Self.parse(v, fail)
        case .resendAs: resendAs = try Self.parse(v, fail)
        case .receipt: receipt = try Self.parse(v, fail)
        case .finishFailed: finishFailed = try Self.bool(v, fail)
        case .serverDedup: serverDedup = try Self.bool(v, fail)
        case .serverBindOrder: serverBindOrder = try Self.bool(v, fail)
        case .storekit: storekit = try Self.parse(v, fail)
        case .sweepUnfinished: sweepUnfinished = try Self.bool(v, fail)
        case .accountToken: accountToken = try Self.bool(v, fail)
        case .serverVerify: serverVerify = try Self.parse(v, fail)
        case .serverNotifications: serverNotifications = try Self.bool(v, fail)
        case .serverClawback: serverClawback = try Self.parse(v, fail)
        case .reportAppTransaction: reportAppTransaction = try Self.bool(v, fail)
        case .serverRefundReversed: serverRefundReversed = try Self.parse(v, fail)
        case .serverConsumptionAnswer: serverConsumptionAnswer = try Self.bool(v, fail)
        case .serverHistory: serverHistory = try Self.parse(v, fail)
        case .serverHistoryPages: serverHistoryPages = try Self.parse(v, fail)
        case .serverReconcile: serverReconcileMs = try Self.duration32(v, fail)
        case .retryMaxInterval: retryMaxIntervalMs = try Self.duration32(v, fail)
        case .retryImmediate:
            guard let n = Int(v), (0...10).contains(n) else { throw fail }
            retryImmediate = n
        case .retryInterval:
            if v == "off" { retryIntervalMs = nil; return }
            guard let ms = DurationText.parse(v), ms > 0 else { throw fail }
            retryIntervalMs = ms
        case .resendOn:
            resendOn = try Self.triggers(v, fail)
        }
    }

    /// The preset this policy equals, if any.
    package var matchingPreset: PolicyPreset? {
        PolicyPreset.allCases.first { $0.policy == self }
    }

    /// A short name for headers: the preset's name, or "custom".
    package var displayName: String { matchingPreset?.rawValue ?? "custom" }

    /// The keys on which this policy differs from `other`.
    package func differences(from other: Policy) -> [PolicyKey] {
        PolicyKey.allCases.filter { value(of: $0) != other.value(of: $0) }
    }

    static func parse<T: RawRepresentable>(_ v: String, _ fail: PolicyValueError)
        throws(PolicyValueError) -> T where T.RawValue == String
    {
        guard let parsed = T(rawValue: v) else { throw fail }
        return parsed
    }

    /// A positive duration that fits the 32 bits the policy keeps it in (49 days), or nil
    /// for `off`.
    static func duration32(_ v: String, _ fail: PolicyValueError) throws(PolicyValueError) -> VirtualTime? {
        if v == "off" { return nil }
        guard let ms = DurationText.parse(v), ms > 0, ms <= VirtualTime(UInt32.max) else { throw fail }
        return ms
    }

    static func bool(_ v: String, _ fail: PolicyValueError) throws(PolicyValueError) -> Bool {
        switch v {
        case "true": return true
        case "false": return false
        default: throw fail
        }
    }

    static func triggers(_ v: String, _ fail: PolicyValueError)
        throws(PolicyValueError) -> [ResendTrigger]
    {
        if v == "none" || v.isEmpty || v == "[]" { return [] }
        var body = Substring(v)
        if body.hasPrefix("[") && body.hasSuffix("]") { body = body.dropFirst().dropLast() }
        var out: [ResendTrigger] = []
        for part in body.split(separator: ",") {
            guard let t = ResendTrigger(rawValue: String(part).trimmingSpaces()) else { throw fail }
            if !out.contains(t) { out.append(t) }
        }
        return ResendTrigger.allCases.filter(out.contains)
    }
}
