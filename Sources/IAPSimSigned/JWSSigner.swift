import Crypto
import Foundation

/// Compact JWS (ES256) as the App Store signs: `base64url(header).base64url(payload).
/// base64url(r||s)`, the header `{"alg":"ES256","x5c":[leaf, intermediate, root]}` with each
/// certificate as padded standard base64 of its DER.
package struct JWSSigner: Sendable {
    package let chain: SigningChain
    /// The encoded header and the dot after it: the same for every object this signer signs.
    private let encodedHeader: [UInt8]
    /// SHA-256 of `encodedHeader` (its dot included), the signing input's first ~2.8 KB (three certificates):
    /// hashed once, each signature hashes only its payload after it.
    private let headerHash: SHA256

    package init(chain: SigningChain) {
        self.chain = chain
        let header = JSONText.members([
            ("alg", .string("ES256")),
            ("x5c", .array(chain.certificates.map { .string(Data($0).base64EncodedString()) })),
        ])
        var encoded: [UInt8] = []
        Self.base64URL(header.bytes, into: &encoded)
        encoded.append(UInt8(ascii: "."))
        encodedHeader = encoded
        var hash = SHA256()
        hash.update(data: encoded)
        headerHash = hash
    }

    /// ES256 over `header.payload`: the SHA-256 digest of the signing input, signed
    /// (what `signature(for:)` of the whole input computes, without rehashing the header).
    /// The JWS is written as bytes into one array, made a string once.
    package func sign(_ payload: JSONText) throws -> String { try string(payload.bytes) }

    /// `sign(payload)` as UTF-8 bytes (what a line of `signed.jsonl` copies).
    package func signedBytes(_ payload: JSONText) throws -> [UInt8] { try signedBytes(json: payload.bytes) }

    /// The JWS of the payload whose JSON text is `json`, as UTF-8 bytes.
    package func signedBytes(json: [UInt8]) throws -> [UInt8] {
        var jws: [UInt8] = []
        jws.reserveCapacity(encodedHeader.count + (json.count + 2) / 3 * 4 + 88)
        jws.append(contentsOf: encodedHeader)
        let payloadStart = jws.count
        Self.base64URL(json, into: &jws)
        var hash = headerHash
        jws.withUnsafeBufferPointer {
            hash.update(bufferPointer: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0[payloadStart...])))
        }
        let signature = try chain.leafKey.signature(for: hash.finalize())
        jws.append(UInt8(ascii: "."))
        Self.base64URL(Array(signature.rawRepresentation), into: &jws)
        return jws
    }

    /// A transaction, a notification or a renewal info, signed from the bytes its members
    /// write (`JSONPayload.jsonBytes`).
    package func sign(_ payload: some JSONPayload) throws -> String { try string(payload.jsonBytes) }

    private func string(_ json: [UInt8]) throws -> String {
        String(decoding: try signedBytes(json: json), as: UTF8.self)
    }

    /// RFC 7515 base64url: URL alphabet, no padding.
    package static func base64URL(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        base64URL(bytes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `base64URL(bytes)` appended to `out`, encoded straight into its memory (Foundation's
    /// base64 and then two replacements cost more than the signature itself; an append per
    /// character costs a third of it): three bytes a turn, as two characters for each 12 bits
    /// (`pairs`).
    static func base64URL(_ bytes: [UInt8], into out: inout [UInt8]) {
        let full = bytes.count / 3
        let rest = bytes.count - full * 3
        let length = full * 4 + (rest == 0 ? 0 : rest + 1)
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: length))
        bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                pairs.withUnsafeBufferPointer { pairs in
                    guard let from = input.baseAddress, let to = output.baseAddress else { return }
                    let target = UnsafeMutableRawPointer(to + start)
                    for k in 0..<full {
                        let i = k &* 3
                        let n = Int(from[i]) &<< 16 | Int(from[i &+ 1]) &<< 8 | Int(from[i &+ 2])
                        target.storeBytes(of: pairs[n &>> 12], toByteOffset: k &* 4, as: UInt16.self)
                        target.storeBytes(of: pairs[n & 0xFFF], toByteOffset: k &* 4 &+ 2, as: UInt16.self)
                    }
                    guard rest > 0 else { return }
                    let i = full * 3
                    let n = UInt32(from[i]) << 16 | (rest == 2 ? UInt32(from[i + 1]) << 8 : 0)
                    let o = start + full * 4
                    output[o] = alphabet[Int(n >> 18 & 63)]
                    output[o + 1] = alphabet[Int(n >> 12 & 63)]
                    if rest == 2 { output[o + 2] = alphabet[Int(n >> 6 & 63)] }
                }
            }
        }
    }

    /// The two characters of each 12-bit value, as one `UInt16` whose bytes in memory are
    /// the two in order.
    static let pairs: [UInt16] = (0..<4096).map { n in
        UInt16(littleEndian: UInt16(alphabet[n >> 6]) | UInt16(alphabet[n & 63]) << 8)
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
