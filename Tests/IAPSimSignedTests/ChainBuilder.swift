import Crypto
import Foundation
import SwiftASN1
import X509

@testable import IAPSimSigned

/// How the pinned chains of `SigningChain` were made, kept here so that a test can make them
/// again and compare: root -> intermediate -> leaf shaped like the App Store's, each key the
/// P-256 scalar SHA-256(label + role) (`SigningChain.key`). The library itself only holds the
/// DER bytes and the keys, so a package that depends on `IAPSimStoreKit` builds no X.509 code.
enum ChainBuilder {
    /// Apple's marker extension on the WWDR intermediate.
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// Apple's marker extension on the App Store receipt-signing leaf.
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    static let notValidBefore = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
    static let notValidAfter = Date(timeIntervalSince1970: 2_082_758_400)  // 2036-01-01T00:00:00Z

    /// Leaf, intermediate, root (the order of the JWS `x5c` header) for `label`, signed anew
    /// (ECDSA takes fresh nonces: the signature bytes differ from any earlier build).
    static func build(labeled label: String) throws -> [Certificate] {
        let rootKey = try SigningChain.key(label + " root")
        let intermediateKey = try SigningChain.key(label + " intermediate")
        let leafKey = try SigningChain.key(label + " leaf")
        let rootName = try name("iapsim Root CA")
        let intermediateName = try name("iapsim Worldwide Developer Relations CA")
        let leafName = try name("iapsim App Store Signing")

        let root = try certificate(
            serial: 1, key: rootKey.publicKey, subject: rootName, issuer: rootName,
            extensions: authorityExtensions(rootKey.publicKey, issuer: nil, marker: nil),
            signer: rootKey)
        let intermediate = try certificate(
            serial: 2, key: intermediateKey.publicKey, subject: intermediateName, issuer: rootName,
            extensions: authorityExtensions(
                intermediateKey.publicKey, issuer: rootKey.publicKey, marker: intermediateMarker),
            signer: rootKey)
        let leaf = try certificate(
            serial: 3, key: leafKey.publicKey, subject: leafName, issuer: intermediateName,
            extensions: leafExtensions(leafKey.publicKey, issuer: intermediateKey.publicKey),
            signer: intermediateKey)
        return [leaf, intermediate, root]
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
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
}
