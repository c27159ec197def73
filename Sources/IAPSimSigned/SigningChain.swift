import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate chain root -> intermediate -> leaf shaped like the App Store's, and the
/// leaf's private key that signs JWS with it.
///
/// Keys come from fixed labels (the SHA-256 of a label is the P-256 private scalar), so the
/// root's key and subject are the same on every machine and in every run: a `root.cer`
/// written once keeps trusting what later runs sign. ECDSA signatures take fresh nonces, so
/// a certificate built twice differs in its signature bytes; the App Store root is therefore
/// pinned (its DER as first built), which makes `root.cer` the same bytes everywhere.
package struct SigningChain: Sendable {
    /// DER of leaf, intermediate, root: the order of the JWS `x5c` header.
    package let certificates: [[UInt8]]
    package let leafKey: P256.Signing.PrivateKey

    package var root: [UInt8] { certificates[2] }

    /// The simulator's App Store: the chain a merchant server trusts through `root.cer`. Built
    /// once a process (the keys derive from fixed labels, so every build is the same chain):
    /// `iapsim serve` makes a signer for every world, and building the certificates each
    /// time cost more than the world's own work.
    package static func appStore() throws -> SigningChain {
        try builtAppStore.get()
    }

    /// The attacker's own chain: same names and markers as the App Store's, other keys, so
    /// that only the trust anchor tells them apart. Built once a process, as the App Store's.
    package static func forger() throws -> SigningChain { try builtForger.get() }

    private static let builtAppStore = Result {
        try SigningChain(labeled: "iapsim app store", pinnedRoot: pinnedAppStoreRoot)
    }
    private static let builtForger = Result { try SigningChain(labeled: "iapsim forger", pinnedRoot: nil) }

    /// The App Store root's DER (base64) as first built. Used only while it is exactly the root
    /// built now (same to-be-signed bytes, valid signature by the root key); after a change to
    /// the root's names or extensions a test fails and prints the new value to pin.
    static let pinnedAppStoreRoot = """
        MIIByDCCAW2gAwIBAgIBATAKBggqhkjOPQQDAjBLMQswCQYDVQQGEwJVUzEjMCEGA1UECgwaaWFwc2ltIHNpbXVsYXRl\
        ZCBBcHAgU3RvcmUxFzAVBgNVBAMMDmlhcHNpbSBSb290IENBMB4XDTI1MDEwMTAwMDAwMFoXDTM2MDEwMTAwMDAwMFow\
        SzELMAkGA1UEBhMCVVMxIzAhBgNVBAoMGmlhcHNpbSBzaW11bGF0ZWQgQXBwIFN0b3JlMRcwFQYDVQQDDA5pYXBzaW0g\
        Um9vdCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABI5KDL9+vpjqM0z4DGn+Yg3HwTVTVTMOtf+t1LHfzpGFzMH6\
        4ZXB6pxisosreXKsZaXY0SXriQAzJlzEySLbWOujQjBAMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0G\
        A1UdDgQWBBTVxAkeXm4psqrP6VB+Pb68FlUkYDAKBggqhkjOPQQDAgNJADBGAiEA+hG5uZoGo4p3QdktyDPigj/OXiab\
        WL+ezW1X+t3xU4gCIQD/FzD/Bp3szvqal5c89E8yjAsQ0e3USxO0E8aJIK50zw==
        """

    /// Apple's marker extension on the WWDR intermediate.
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// Apple's marker extension on the App Store receipt-signing leaf.
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    static let notValidBefore = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
    static let notValidAfter = Date(timeIntervalSince1970: 2_082_758_400)  // 2036-01-01T00:00:00Z

    private init(labeled label: String, pinnedRoot: String?) throws {
        let rootKey = try Self.key(label + " root")
        let intermediateKey = try Self.key(label + " intermediate")
        leafKey = try Self.key(label + " leaf")
        let rootName = try Self.name("iapsim Root CA")
        let intermediateName = try Self.name("iapsim Worldwide Developer Relations CA")
        let leafName = try Self.name("iapsim App Store Signing")

        let root = try Self.certificate(
            serial: 1, key: rootKey.publicKey, subject: rootName, issuer: rootName,
            extensions: Self.authorityExtensions(rootKey.publicKey, issuer: nil, marker: nil),
            signer: rootKey)
        let intermediate = try Self.certificate(
            serial: 2, key: intermediateKey.publicKey, subject: intermediateName, issuer: rootName,
            extensions: Self.authorityExtensions(
                intermediateKey.publicKey, issuer: rootKey.publicKey,
                marker: Self.intermediateMarker),
            signer: rootKey)
        let leaf = try Self.certificate(
            serial: 3, key: leafKey.publicKey, subject: leafName, issuer: intermediateName,
            extensions: Self.leafExtensions(leafKey.publicKey, issuer: intermediateKey.publicKey),
            signer: intermediateKey)
        certificates = try [
            Self.der(leaf), Self.der(intermediate),
            Self.pinned(pinnedRoot, standingFor: root) ?? Self.der(root),
        ]
    }

    /// The pinned DER when it is `root` but for the signature's nonce, else nil.
    static func pinned(_ base64: String?, standingFor root: Certificate) throws -> [UInt8]? {
        guard let base64, let bytes = Data(base64Encoded: base64) else { return nil }
        let pinned = try Certificate(derEncoded: Array(bytes))
        guard pinned.tbsCertificateBytes == root.tbsCertificateBytes,
            root.publicKey.isValidSignature(pinned.signature, for: pinned)
        else { return nil }
        return Array(bytes)
    }

    /// The P-256 private key whose scalar is SHA-256(label).
    static func key(_ label: String) throws -> P256.Signing.PrivateKey {
        try P256.Signing.PrivateKey(rawRepresentation: Array(SHA256.hash(data: Array(label.utf8))))
    }

    private static func name(_ commonName: String) throws -> DistinguishedName {
        try DistinguishedName {
            CountryName("US")
            OrganizationName("iapsim simulated App Store")
            CommonName(commonName)
        }
    }

    /// A CA: critical basicConstraints CA:TRUE, keyUsage keyCertSign, its key identifier, and
    /// (below the root) the issuer's key identifier and Apple's marker.
    private static func authorityExtensions(
        _ key: P256.Signing.PublicKey, issuer: P256.Signing.PublicKey?, marker: ASN1ObjectIdentifier?
    ) throws -> Certificate.Extensions {
        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            SubjectKeyIdentifier(hash: Certificate.PublicKey(key))
        }
        if let issuer { try extensions.append(authorityKeyIdentifier(issuer)) }
        if let marker { try extensions.append(markerExtension(marker)) }
        return extensions
    }

    /// The signing leaf: not a CA, digitalSignature only, Apple's leaf marker.
    private static func leafExtensions(
        _ key: P256.Signing.PublicKey, issuer: P256.Signing.PublicKey
    ) throws -> Certificate.Extensions {
        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            SubjectKeyIdentifier(hash: Certificate.PublicKey(key))
        }
        try extensions.append(authorityKeyIdentifier(issuer))
        try extensions.append(markerExtension(leafMarker))
        return extensions
    }

    private static func authorityKeyIdentifier(_ issuer: P256.Signing.PublicKey) throws -> Certificate.Extension {
        let issuerIdentifier = SubjectKeyIdentifier(hash: Certificate.PublicKey(issuer)).keyIdentifier
        return try Certificate.Extension(AuthorityKeyIdentifier(keyIdentifier: issuerIdentifier), critical: false)
    }

    /// Apple's marker extensions hold an ASN.1 NULL.
    private static func markerExtension(_ oid: ASN1ObjectIdentifier) -> Certificate.Extension {
        Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
    }

    private static func certificate(
        serial: Int, key: P256.Signing.PublicKey, subject: DistinguishedName, issuer: DistinguishedName,
        extensions: Certificate.Extensions, signer: P256.Signing.PrivateKey
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(serial),
            publicKey: Certificate.PublicKey(key),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter,
            issuer: issuer, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: Certificate.PrivateKey(signer))
    }

    private static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
