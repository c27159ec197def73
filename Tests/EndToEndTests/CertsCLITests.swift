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
        let bytes = try [first, second].map { try Data(contentsOf: URL(fileURLWithPath: $0 + "/root.cer")) }
        #expect(bytes[0] == bytes[1])
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
