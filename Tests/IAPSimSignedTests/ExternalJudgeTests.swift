import Foundation
import IAPSimSigned
import Testing

/// Runs a program and captures its output.
struct Program {
    let status: Int32, stdout: String, stderr: String

    static func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> Program {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Program(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

enum Judges {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The python of the venv holding Apple's app-store-server-library: IAPSIM_APPLE_PYTHON,
    /// else the one tools/apple-venv.sh makes, when it exists.
    static let applePython: String? = {
        if let path = ProcessInfo.processInfo.environment["IAPSIM_APPLE_PYTHON"] { return path }
        let local = repository + "/.venv-apple/bin/python"
        return FileManager.default.isExecutableFile(atPath: local) ? local : nil
    }()

    static let openssl: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static func verify(_ directory: String, expect: String? = nil) throws -> Program {
        let python = try #require(applePython)
        let script = repository + "/tools/verify_signed.py"
        return try Program.run(python, [script, directory] + (expect.map { ["--expect", $0] } ?? []))
    }
}

/// Expected decoded fields as JSON lines for the verifier's --expect.
enum Expectations {
    static func transaction(_ payload: TransactionPayload) -> String { payload.json.text }

    static func notification(
        _ type: NotificationPayload.NotificationType, uuid: String, signedDate: Int64,
        transaction: TransactionPayload
    ) -> String {
        JSONText.members([
            ("notificationType", .string(type.rawValue)), ("notificationUUID", .string(uuid)),
            ("version", .string("2.0")), ("signedDate", .integer(signedDate)),
            ("data", .members([("bundleId", .string("com.example.iapsim")), ("environment", .string("Sandbox"))])),
            ("transaction", transaction.json),
        ]).text
    }
}

@Suite(.serialized) struct ExternalJudgeTests {
    /// A run's worth of signed data: three transactions, two notifications, one forgery.
    static func writeSample(into directory: String) throws -> [String] {
        let writer = try SignedDataWriter(directory: directory)
        var expected: [String] = []
        for (t, payload) in [(60_000, Samples.consumable), (120_000, Samples.withToken), (180_000, Samples.refunded)] {
            try writer.transaction(payload, at: Int64(t))
            expected.append(Expectations.transaction(payload))
        }
        try writer.notification(
            .oneTimeCharge, uuid: "11111111-2222-3333-4444-555555555555",
            signedDate: Samples.t0 + 61_000, transaction: Samples.consumable, at: 61_000)
        expected.append(
            Expectations.notification(
                .oneTimeCharge, uuid: "11111111-2222-3333-4444-555555555555",
                signedDate: Samples.t0 + 61_000, transaction: Samples.consumable))
        try writer.notification(
            .refund, uuid: "66666666-7777-8888-9999-000000000000",
            signedDate: Samples.t0 + 7_200_000, transaction: Samples.refunded, at: 7_200_000)
        expected.append(
            Expectations.notification(
                .refund, uuid: "66666666-7777-8888-9999-000000000000",
                signedDate: Samples.t0 + 7_200_000, transaction: Samples.refunded))
        try writer.forged(Samples.withToken, at: 240_000)
        expected.append("{}")
        try writer.finish()
        return expected
    }

    static func writeExpectations(_ lines: [String], to path: String) throws {
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test(
        .enabled(
            if: Judges.applePython != nil,
            "Apple's library is not installed: set IAPSIM_APPLE_PYTHON or run tools/apple-venv.sh"))
    func applesLibraryVerifiesEverySignedObjectAndRefusesTheForgery() throws {
        let directory = scratchDirectory("apple")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let expected = try Self.writeSample(into: directory)
        try Self.writeExpectations(expected, to: directory + "/expect.jsonl")
        let result = try Judges.verify(directory, expect: directory + "/expect.jsonl")
        print("verify_signed.py (\(try #require(Judges.applePython))):\n" + result.stdout, terminator: "")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n6 passed, 0 failed\n"), "\(result.stdout)")
        #expect(result.stdout.contains("ok      6 forged 2000000002"))
    }

    @Test(
        .enabled(
            if: Judges.applePython != nil,
            "Apple's library is not installed: set IAPSIM_APPLE_PYTHON or run tools/apple-venv.sh"))
    func theJudgeFailsAWrongFieldAndAForgeryPassedOffAsATransaction() throws {
        let directory = scratchDirectory("apple-wrong")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var expected = try Self.writeSample(into: directory)
        expected[0] = #"{"price":1990,"type":"Consumable"}"#
        try Self.writeExpectations(expected, to: directory + "/expect.jsonl")
        let signed = directory + "/signed.jsonl"
        let text = try String(contentsOfFile: signed, encoding: .utf8)
        try Data(text.replacingOccurrences(of: #""kind":"forged""#, with: #""kind":"transaction""#).utf8)
            .write(to: URL(fileURLWithPath: signed))
        let result = try Judges.verify(directory, expect: directory + "/expect.jsonl")
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL    1 transaction 2000000001: price: expected 1990, decoded 990"))
        #expect(
            result.stdout.contains(
                "FAIL    6 transaction 2000000002: refused by Apple's verifier: "
                    + "VERIFICATION_FAILURE"))
        #expect(result.stdout.hasSuffix("\n4 passed, 2 failed\n"), "\(result.stdout)")
    }

    @Test(
        .enabled(
            if: Judges.applePython != nil,
            "Apple's library is not installed: set IAPSIM_APPLE_PYTHON or run tools/apple-venv.sh"))
    func aRootWrittenByAnotherBuildTrustsThisBuildsSignatures() throws {
        let earlier = scratchDirectory("apple-earlier"), later = scratchDirectory("apple-later")
        defer { for path in [earlier, later] { try? FileManager.default.removeItem(atPath: path) } }
        _ = try SignedDataWriter(directory: earlier)
        _ = try Self.writeSample(into: later)
        try FileManager.default.removeItem(atPath: later + "/root.cer")
        try FileManager.default.copyItem(atPath: earlier + "/root.cer", toPath: later + "/root.cer")
        let result = try Judges.verify(later)
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test(.enabled(if: Judges.openssl != nil, "openssl is not installed"))
    func opensslAcceptsTheChainUnderX509StrictAndRefusesTheForgersLeaf() throws {
        let directory = scratchDirectory("openssl")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let chain = try SigningChain.appStore(), forger = try SigningChain.forger()
        let files = [
            "leaf": chain.certificates[0], "inter": chain.certificates[1], "root": chain.root,
            "forged-leaf": forger.certificates[0], "forged-inter": forger.certificates[1],
        ]
        for (name, der) in files {
            let pem =
                "-----BEGIN CERTIFICATE-----\n"
                + Data(der).base64EncodedString(options: .lineLength64Characters)
                + "\n-----END CERTIFICATE-----\n"
            try Data(pem.utf8).write(to: URL(fileURLWithPath: "\(directory)/\(name).pem"))
        }
        let openssl = try #require(Judges.openssl)
        let good = try Program.run(
            openssl,
            [
                "verify", "-x509_strict", "-attime", "1767225600",
                "-CAfile", "root.pem", "-untrusted", "inter.pem", "leaf.pem",
            ],
            in: directory)
        #expect(good.status == 0 && good.stdout == "leaf.pem: OK\n", "\(good.stdout)\(good.stderr)")
        let forged = try Program.run(
            openssl,
            [
                "verify", "-x509_strict", "-attime", "1767225600",
                "-CAfile", "root.pem", "-untrusted", "forged-inter.pem",
                "forged-leaf.pem",
            ], in: directory)
        #expect(forged.status != 0)
    }
}
