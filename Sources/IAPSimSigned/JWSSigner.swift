import Crypto
import Foundation

/// Compact JWS (ES256) as the App Store signs: `base64url(header).base64url(payload).
/// base64url(r||s)`, the header `{"alg":"ES256","x5c":[leaf, intermediate, root]}` with each
/// certificate as padded standard base64 of its DER.
package struct JWSSigner: Sendable {
    package let chain: SigningChain
    /// The encoded header: the same for every object this signer signs.
    private let encodedHeader: String
    /// SHA-256 of `encodedHeader.`, the signing input's first ~2.8 KB (three certificates):
    /// hashed once, each signature hashes only its payload after it.
    private let headerHash: SHA256

    package init(chain: SigningChain) {
        self.chain = chain
        let header = JSONText.members([
            ("alg", .string("ES256")),
            ("x5c", .array(chain.certificates.map { .string(Data($0).base64EncodedString()) })),
        ])
        encodedHeader = Self.base64URL(Array(header.text.utf8))
        var hash = SHA256()
        hash.update(data: Array((encodedHeader + ".").utf8))
        headerHash = hash
    }

    /// ES256 over `header.payload`: the SHA-256 digest of the signing input, signed
    /// (what `signature(for:)` of the whole input computes, without rehashing the header).
    package func sign(_ payload: JSONText) throws -> String {
        let encodedPayload = Self.base64URL(Array(payload.text.utf8))
        var hash = headerHash
        hash.update(data: Array(encodedPayload.utf8))
        let signature = try chain.leafKey.signature(for: hash.finalize())
        return encodedHeader + "." + encodedPayload + "." + Self.base64URL(Array(signature.rawRepresentation))
    }

    package func sign(_ transaction: TransactionPayload) throws -> String { try sign(transaction.json) }

    package func sign(_ notification: NotificationPayload) throws -> String { try sign(notification.json) }

    package func sign(_ renewalInfo: RenewalInfoPayload) throws -> String { try sign(renewalInfo.json) }

    /// RFC 7515 base64url: URL alphabet, no padding.
    /// Encoded straight into bytes (Foundation's base64 and then two replacements cost more
    /// than the signature itself).
    package static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Self.alphabet
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            if rest == 2 { out.append(alphabet[Int(n >> 6 & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
}
