import Crypto
import Foundation

/// A certificate chain root -> intermediate -> leaf shaped like the App Store's, and the
/// leaf's private key that signs JWS with it.
///
/// Keys come from fixed labels (the SHA-256 of a label is the P-256 private scalar), so the
/// keys are the same on every machine and in every run. The certificates are pinned: their DER
/// as first built (ECDSA signatures take fresh nonces, so a chain built twice differs in its
/// signature bytes). So `root.cer` written once keeps trusting what later runs sign, every
/// process signs with the same `x5c` header, and this library holds bytes, not an X.509
/// builder: a package that depends on `IAPSimStoreKit` builds no certificate code.
/// `ChainBuilder` in the tests makes the chains again from the labels and checks each pinned
/// certificate against it (same to-be-signed bytes, signed by the issuer's key).
package struct SigningChain: Sendable {
    /// DER of leaf, intermediate, root: the order of the JWS `x5c` header.
    package let certificates: [[UInt8]]
    package let leafKey: P256.Signing.PrivateKey

    package var root: [UInt8] { certificates[2] }

    /// The simulator's App Store: the chain a merchant server trusts through `root.cer`.
    package static func appStore() throws -> SigningChain {
        try builtAppStore.get()
    }

    /// The attacker's own chain: same names and markers as the App Store's, other keys, so
    /// that only the trust anchor tells them apart.
    package static func forger() throws -> SigningChain { try builtForger.get() }

    private static let builtAppStore = Result {
        try SigningChain(labeled: appStoreLabel, pinned: pinnedAppStore)
    }
    private static let builtForger = Result { try SigningChain(labeled: forgerLabel, pinned: pinnedForger) }

    static let appStoreLabel = "iapsim app store"
    static let forgerLabel = "iapsim forger"

    /// The App Store chain's DER (base64), leaf, intermediate, root, as first built.
    static let pinnedAppStore = [
        """
        MIICGjCCAcCgAwIBAgIBAzAKBggqhkjOPQQDAjBkMQswCQYDVQQGEwJVUzEjMCEGA1UECgwaaWFwc2ltIHNpbXVsYXRl\
        ZCBBcHAgU3RvcmUxMDAuBgNVBAMMJ2lhcHNpbSBXb3JsZHdpZGUgRGV2ZWxvcGVyIFJlbGF0aW9ucyBDQTAeFw0yNTAx\
        MDEwMDAwMDBaFw0zNjAxMDEwMDAwMDBaMFUxCzAJBgNVBAYTAlVTMSMwIQYDVQQKDBppYXBzaW0gc2ltdWxhdGVkIEFw\
        cCBTdG9yZTEhMB8GA1UEAwwYaWFwc2ltIEFwcCBTdG9yZSBTaWduaW5nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\
        TG9PaB1CBrbXQwemKUzZFxy/R4ydQ8D6/pWdVTY56tvY+8/aC/cJ056Q0s9RFOXddLQ3M0Ymy7qOHxzj2aLaGKNyMHAw\
        DAYDVR0TAQH/BAIwADAOBgNVHQ8BAf8EBAMCB4AwHQYDVR0OBBYEFLajZ7G4SVNQOP/p/SBnEJs8OKcpMB8GA1UdIwQY\
        MBaAFIktf8xrw0yaiSmmstJ1dtaf/07VMBAGCiqGSIb3Y2QGCwEEAgUAMAoGCCqGSM49BAMCA0gAMEUCIQDEyEhrkExE\
        Vr0+ZSjRsR5RbugKcYgG1jOJU1DXTNNRhwIgZ6Wjk+kz2EMh33QDnRT8t6ZX+wLPmnucShkCvI6k+Zg=
        """,
        """
        MIICEzCCAbmgAwIBAgIBAjAKBggqhkjOPQQDAjBLMQswCQYDVQQGEwJVUzEjMCEGA1UECgwaaWFwc2ltIHNpbXVsYXRl\
        ZCBBcHAgU3RvcmUxFzAVBgNVBAMMDmlhcHNpbSBSb290IENBMB4XDTI1MDEwMTAwMDAwMFoXDTM2MDEwMTAwMDAwMFow\
        ZDELMAkGA1UEBhMCVVMxIzAhBgNVBAoMGmlhcHNpbSBzaW11bGF0ZWQgQXBwIFN0b3JlMTAwLgYDVQQDDCdpYXBzaW0g\
        V29ybGR3aWRlIERldmVsb3BlciBSZWxhdGlvbnMgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAT9SrqjVdHV8paH\
        P3xkrGrtzB501HT3BlAmIxOayd9mGNe051IxSuK0B/kuPNIYGbfQR+QwgROzKB1hsjS5cqWto3UwczAPBgNVHRMBAf8E\
        BTADAQH/MA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4EFgQUiS1/zGvDTJqJKaay0nV21p//TtUwHwYDVR0jBBgwFoAU1cQJ\
        Hl5uKbKqz+lQfj2+vBZVJGAwEAYKKoZIhvdjZAYCAQQCBQAwCgYIKoZIzj0EAwIDSAAwRQIhAMKaf8POgF8YAWyuLTgv\
        hwIdZwTlOBKunLCg4ezeUqaIAiAi43XEhmNR2UiL8UrwA0ELIGEqWg5R1AIYdHXVoEIUWw==
        """,
        """
        MIIByDCCAW2gAwIBAgIBATAKBggqhkjOPQQDAjBLMQswCQYDVQQGEwJVUzEjMCEGA1UECgwaaWFwc2ltIHNpbXVsYXRl\
        ZCBBcHAgU3RvcmUxFzAVBgNVBAMMDmlhcHNpbSBSb290IENBMB4XDTI1MDEwMTAwMDAwMFoXDTM2MDEwMTAwMDAwMFow\
        SzELMAkGA1UEBhMCVVMxIzAhBgNVBAoMGmlhcHNpbSBzaW11bGF0ZWQgQXBwIFN0b3JlMRcwFQYDVQQDDA5pYXBzaW0g\
        Um9vdCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABI5KDL9+vpjqM0z4DGn+Yg3HwTVTVTMOtf+t1LHfzpGFzMH6\
        4ZXB6pxisosreXKsZaXY0SXriQAzJlzEySLbWOujQjBAMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0G\
        A1UdDgQWBBTVxAkeXm4psqrP6VB+Pb68FlUkYDAKBggqhkjOPQQDAgNJADBGAiEA+hG5uZoGo4p3QdktyDPigj/OXiab\
        WL+ezW1X+t3xU4gCIQD/FzD/Bp3szvqal5c89E8yjAsQ0e3USxO0E8aJIK50zw==
        """,
    ]

    /// The forger's chain's DER (base64), leaf, intermediate, root, as first built.
    static let pinnedForger = [
        """
        MIICGjCCAcCgAwIBAgIBAzAKBggqhkjOPQQDAjBkMQswCQYDVQQGEwJVUzEjMCEGA1UECgwaaWFwc2ltIHNpbXVsYXRl\
        ZCBBcHAgU3RvcmUxMDAuBgNVBAMMJ2lhcHNpbSBXb3JsZHdpZGUgRGV2ZWxvcGVyIFJlbGF0aW9ucyBDQTAeFw0yNTAx\
        MDEwMDAwMDBaFw0zNjAxMDEwMDAwMDBaMFUxCzAJBgNVBAYTAlVTMSMwIQYDVQQKDBppYXBzaW0gc2ltdWxhdGVkIEFw\
        cCBTdG9yZTEhMB8GA1UEAwwYaWFwc2ltIEFwcCBTdG9yZSBTaWduaW5nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\
        xv92CKi3j8RhGrht+DV9old05NI+75jBNPPapSNMh6dC9yjTXD0r/5YvaVSG/5yh1em23UEB/3PSg4Ts/UFX0aNyMHAw\
        DAYDVR0TAQH/BAIwADAOBgNVHQ8BAf8EBAMCB4AwHQYDVR0OBBYEFPd7b5M/hS1PecISZqk06d+d49pdMB8GA1UdIwQY\
        MBaAFODkGvW0YUdCfTNrG6xKmL7E832jMBAGCiqGSIb3Y2QGCwEEAgUAMAoGCCqGSM49BAMCA0gAMEUCIQCacJj5eMYB\
        Fiu0qMfttkTfZcReUGdWwSxSKDk/LQ7VEAIgSXE3hJV1EngGIDwQsxtWFHkN2uTEFfHWx0DGmODdfwg=
        """,
        """
        MIICFDCCAbmgAwIBAgIBAjAKBggqhkjOPQQDAjBLMQswCQYDVQQGEwJVUzEjMCEGA1UECgwaaWFwc2ltIHNpbXVsYXRl\
        ZCBBcHAgU3RvcmUxFzAVBgNVBAMMDmlhcHNpbSBSb290IENBMB4XDTI1MDEwMTAwMDAwMFoXDTM2MDEwMTAwMDAwMFow\
        ZDELMAkGA1UEBhMCVVMxIzAhBgNVBAoMGmlhcHNpbSBzaW11bGF0ZWQgQXBwIFN0b3JlMTAwLgYDVQQDDCdpYXBzaW0g\
        V29ybGR3aWRlIERldmVsb3BlciBSZWxhdGlvbnMgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARVVrQdYqx08Xcl\
        0aKBYiFONgzRlGKnUMiIdenN8chF5VbNj3fIn9691mQZyU9Pwf9izCZpxNK50rCAjRLsKT2Ho3UwczAPBgNVHRMBAf8E\
        BTADAQH/MA4GA1UdDwEB/wQEAwIBBjAdBgNVHQ4EFgQU4OQa9bRhR0J9M2sbrEqYvsTzfaMwHwYDVR0jBBgwFoAURMfv\
        6zo9x/DNHF/J/Az/xDDdKg4wEAYKKoZIhvdjZAYCAQQCBQAwCgYIKoZIzj0EAwIDSQAwRgIhAJl0sKk/tWU8bWqS0peO\
        oG72DlrgeLQ31eRjS9IZ32jpAiEA8yaFDDwYOJnmQFiPfp9eW/Bu/H9w0CVpaAQAm10ViEE=
        """,
        """
        MIIByDCCAW2gAwIBAgIBATAKBggqhkjOPQQDAjBLMQswCQYDVQQGEwJVUzEjMCEGA1UECgwaaWFwc2ltIHNpbXVsYXRl\
        ZCBBcHAgU3RvcmUxFzAVBgNVBAMMDmlhcHNpbSBSb290IENBMB4XDTI1MDEwMTAwMDAwMFoXDTM2MDEwMTAwMDAwMFow\
        SzELMAkGA1UEBhMCVVMxIzAhBgNVBAoMGmlhcHNpbSBzaW11bGF0ZWQgQXBwIFN0b3JlMRcwFQYDVQQDDA5pYXBzaW0g\
        Um9vdCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABBIQkvsNsNct4wd1RI2+uM9xZ7Y5sP2MywgtE7PtDMqtlDUo\
        5Lam6QHMvmKBcPQwrbi8urNsYvwb+VBZQqdEQzCjQjBAMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMB0G\
        A1UdDgQWBBREx+/rOj3H8M0cX8n8DP/EMN0qDjAKBggqhkjOPQQDAgNJADBGAiEArZWUmDso8Y6aNyILdu69FvAEJv45\
        N1XmtON4WmHY7awCIQC5awZcqSuDulJ92hbo2UJKdXjSWtR/DNAObIOLIf6+ug==
        """,
    ]

    private init(labeled label: String, pinned: [String]) throws {
        leafKey = try Self.key(label + " leaf")
        certificates = try pinned.map { base64 in
            guard let bytes = Data(base64Encoded: base64) else { throw PinnedChainError.notBase64(label) }
            return Array(bytes)
        }
    }

    /// The P-256 private key whose scalar is SHA-256(label).
    static func key(_ label: String) throws -> P256.Signing.PrivateKey {
        try P256.Signing.PrivateKey(rawRepresentation: Array(SHA256.hash(data: Array(label.utf8))))
    }
}

/// A pinned certificate that is not base64: a defect of this file, caught by its tests.
package enum PinnedChainError: Error, Sendable {
    case notBase64(String)
}
