import Foundation
import Testing

/// `iapsim certs --out DIR`, run as a user runs it.
@Suite(.serialized) struct CertsCLITests {
    static func scratch(_ name: String) -> String {
        let path = CLI.temporaryFile(name)
        try? FileManager.default.removeItem(atPath: path)
        return path
    }

    /// What openssl reads in a DER certificate: its subject and public key.
    static func subjectAndKey(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["x509", "-inform", "DER", "-in", path, "-noout", "-subject", "-pubkey"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return text
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "openssl is not installed"))
    func writesTheSameRootEveryRunIntoANewDirectory() throws {
        let first = Self.scratch("certs-1"), second = Self.scratch("certs-2") + "/a/b"
        defer { for path in [first, Self.scratch("certs-2")] { try? FileManager.default.removeItem(atPath: path) } }
        for directory in [first, second] {
            let result = try CLI.run(["certs", "--out", directory])
            #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
        }
        let text = try Self.subjectAndKey(first + "/root.cer")
        #expect(
            text.hasPrefix(
                "subject=C = US, O = iapsim simulated App Store, CN = iapsim Root CA\n"
                    + "-----BEGIN PUBLIC KEY-----\n"))
        for name in ["root.cer", "api-key.p8", "api-key.json"] {
            let bytes = try [first, second].map { try Data(contentsOf: URL(fileURLWithPath: $0 + "/" + name)) }
            #expect(bytes[0] == bytes[1], "\(name) differs between runs")
        }
    }

    /// docs/server-api.md, "Keys": api-key.p8 is a PKCS#8 PEM P-256 key, api-key.json names its ids.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "openssl is not installed"))
    func writesTheAPIKeyAsPKCS8PEMWithItsIds() throws {
        let directory = Self.scratch("certs-key")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try CLI.run(["certs", "--out", directory]).status == 0)
        let pem = try String(contentsOfFile: directory + "/api-key.p8", encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n") && pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["pkey", "-in", directory + "/api-key.p8", "-noout", "-text"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("ASN1 OID: prime256v1"))
        let json = try Data(contentsOf: URL(fileURLWithPath: directory + "/api-key.json"))
        let ids = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
        #expect(ids.keys.sorted() == ["bundleId", "issuerId", "keyId"])
        #expect(ids["bundleId"] == "com.example.iapsim")
        #expect(ids["keyId"]?.count == 10)
        #expect(UUID(uuidString: ids["issuerId"] ?? "") != nil)
    }

    @Test func aDirectoryThatCannotBeMadeExitsTwoWithTheSystemsReason() throws {
        let file = Self.scratch("certs-file")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let result = try CLI.run(["certs", "--out", file + "/out"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: --out \(file)/out: \(file) is not a directory\n"))
    }

    @Test func outIsRequired() throws {
        let result = try CLI.run(["certs"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Missing expected argument '--out <dir>'"))
    }
}
