import ArgumentParser
import IAPSimScenario

/// A number flag as given, read by the one number check (`NumberCheck`) in `validate()`:
/// a value too large for any integer, a negative one (`--runs -1`, taken as the value, not
/// as a flag) or one that is no number at all is refused with the flag, the value and the
/// range, never by a crash or by the parser's guess at what was meant.
struct NumberFlag: ExpressibleByArgument, CustomStringConvertible, Sendable {
    var text: String

    init(_ text: String) { self.text = text }
    init?(argument: String) { text = argument }
    var description: String { text }

    /// The flag's value in `range`, or the refusal.
    func whole(_ flag: String, in range: ClosedRange<Int>) throws -> Int {
        switch NumberCheck.integer(text, in: range) {
        case .success(let value): return value
        case .failure(let failure): throw refusal(flag, NumberCheck.rangeText(range), failure)
        }
    }

    /// The flag's value (0 or more, up to 64 bits) in `range`, or the refusal.
    func unsigned(_ flag: String, in range: ClosedRange<UInt64> = 0...UInt64.max) throws -> UInt64 {
        switch NumberCheck.unsigned(text, in: range) {
        case .success(let value): return value
        case .failure(let failure): throw refusal(flag, NumberCheck.rangeText(range), failure)
        }
    }

    private func refusal(_ flag: String, _ range: String, _ failure: NumberCheck.Failure) -> ValidationError {
        switch failure {
        case .outOfRange: return ValidationError("\(flag) must be \(range), got \(text)")
        case .notANumber: return ValidationError("\(flag) must be a whole number \(range), got \(text)")
        }
    }
}

/// The ranges of the number flags, stated once.
enum FlagRange {
    static let runs = 1...10_000_000
    static let jobs = 1...256
    static let steps = 1...1_000
    static let skip = 0...Int.max
}
