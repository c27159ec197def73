import Crypto
import Foundation

/// Compact JWS (ES256) as the App Store signs: `base64url(header).base64url(payload).
/// base64url(r||s)`, the header `{"alg":"ES256","x5c":[leaf, intermediate, root]}` with each
/// certificate as padded standard base64 of its DER.
package struct JWSSigner: Sendable {
    package let chain: SigningChain
    /// The encoded header: the same for every object this signer signs.
    private let encodedHeader: String

    package init(chain: SigningChain) {
        self.chain = chain
        let header = JSONText.members([
            ("alg", .string("ES256")),
            ("x5c", .array(chain.certificates.map { .string(Data($0).base64EncodedString()) })),
        ])
        encodedHeader = Self.base64URL(Array(header.text.utf8))
    }

    package func sign(_ payload: JSONText) throws -> String {
        let signingInput = encodedHeader + "." + Self.base64URL(Array(payload.text.utf8))
        let signature = try chain.leafKey.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Self.base64URL(Array(signature.rawRepresentation))
    }

    package func sign(_ transaction: TransactionPayload) throws -> String { try sign(transaction.json) }

    package func sign(_ notification: NotificationPayload) throws -> String { try sign(notification.json) }

    package func sign(_ renewalInfo: RenewalInfoPayload) throws -> String { try sign(renewalInfo.json) }

    /// RFC 7515 base64url: URL alphabet, no padding.
    package static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
