/// File names as the OS holds them: bytes, not necessarily UTF-8.
///
/// A name from the command line that is not valid UTF-8 is kept in a `String` with each
/// byte that is not part of a valid sequence stored as one scalar of a private-use range
/// (U+10FE80 to U+10FEFF for bytes 0x80 to 0xFF). `bytes` turns it back into the very bytes
/// given, for every call to the OS, and `VisibleText` shows such a byte as `\xNN`. A
/// valid UTF-8 name is the same string either way.
package enum FileName {
    static let rawBase: UInt32 = 0x10FE00

    /// The argument's bytes (a C string) as a `String` that gives them back.
    package static func fromArgument(_ cString: UnsafePointer<CChar>) -> String {
        var bytes: [UInt8] = []
        var p = cString
        while p.pointee != 0 {
            bytes.append(UInt8(bitPattern: p.pointee))
            p += 1
        }
        return fromBytes(bytes)
    }

    /// `bytes` as a `String` that gives them back (see the type's documentation).
    package static func fromBytes(_ bytes: [UInt8]) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var out = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                out.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] {
                    out.append(Unicode.Scalar(rawBase + UInt32(byte))!)
                }
                offset += length
            case .emptyInput:
                return String(out)
            }
        }
    }

    /// The bytes the OS knows the name by.
    package static func bytes(_ name: String) -> [UInt8] {
        guard name.utf8.contains(where: { $0 == 0xF4 }) else { return Array(name.utf8) }
        var out: [UInt8] = []
        for scalar in name.unicodeScalars {
            if let byte = rawByte(scalar) {
                out.append(byte)
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// Calls `body` with the name as the NUL-terminated bytes the OS knows it by.
    package static func withCString<R, E: Error>(
        _ name: String, _ body: (UnsafePointer<CChar>) throws(E) -> R
    ) throws(E) -> R {
        let bytes = self.bytes(name).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { buffer throws(E) -> R in try body(buffer.baseAddress!) }
    }

    /// The byte a scalar stands for, when it is one of the stored raw bytes.
    static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        (rawBase + 0x80...rawBase + 0xFF).contains(scalar.value) ? UInt8(scalar.value - rawBase) : nil
    }
}
