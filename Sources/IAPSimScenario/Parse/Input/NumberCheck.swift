/// The one check of every number a person writes, in a file or a flag: decimal digits
/// (with a `-` where negatives are allowed) read without ever overflowing, then held to the
/// range the value may take. A number too large for any integer is out of range, not
/// malformed; the range is said in the same words everywhere (`rangeText`).
package enum NumberCheck {
    package enum Failure: Error, Equatable {
        /// Not written as a whole number at all.
        case notANumber
        /// A whole number outside the range.
        case outOfRange
    }

    /// A whole number in `range`. `-0` is 0.
    package static func integer(_ text: String, in range: ClosedRange<Int>) -> Result<Int, Failure> {
        let negative = text.hasPrefix("-")
        let digits = negative ? text.dropFirst() : Substring(text)
        guard let (magnitude, fits) = magnitude(digits) else { return .failure(.notANumber) }
        guard fits else { return .failure(.outOfRange) }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return .failure(.outOfRange) }
            let value = magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
            return range.contains(value) ? .success(value) : .failure(.outOfRange)
        }
        guard magnitude <= UInt64(Int.max), range.contains(Int(magnitude)) else { return .failure(.outOfRange) }
        return .success(Int(magnitude))
    }

    /// A whole number 0 or more in `range`, up to 64 bits.
    package static func unsigned(_ text: String, in range: ClosedRange<UInt64>) -> Result<UInt64, Failure> {
        if text.hasPrefix("-"), magnitude(text.dropFirst()) != nil {
            return text == "-0" && range.contains(0) ? .success(0) : .failure(.outOfRange)
        }
        guard let (value, fits) = magnitude(Substring(text)) else { return .failure(.notANumber) }
        return fits && range.contains(value) ? .success(value) : .failure(.outOfRange)
    }

    /// `from 1 to 10000000`, the words every refusal uses.
    package static func rangeText<T: BinaryInteger>(_ range: ClosedRange<T>) -> String {
        "from \(range.lowerBound) to \(range.upperBound)"
    }

    /// The value of ASCII digits (nil when `digits` is empty or holds anything else);
    /// `fits` is false when it does not fit 64 bits.
    private static func magnitude(_ digits: Substring) -> (value: UInt64, fits: Bool)? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        var fits = true
        for unit in digits.utf8 {
            guard unit >= 0x30 && unit <= 0x39 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(UInt64(unit - 0x30))
            fits = fits && !o1 && !o2
            value = plus
        }
        return (value, fits)
    }
}
