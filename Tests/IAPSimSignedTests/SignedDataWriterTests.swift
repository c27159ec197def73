import Foundation
import IAPSimSigned
import Testing
import X509

/// A fresh directory under the temporary folder for one test.
func scratchDirectory(_ name: String) -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("iapsim-signed-\(ProcessInfo.processInfo.processIdentifier)-\(name)").path
    try? FileManager.default.removeItem(atPath: path)
    return path
}

@Suite struct SignedDataWriterTests {
    @Test func writesTheRootAndOneLinePerSignedObjectInOrder() throws {
        let directory = scratchDirectory("writer") + "/nested/out"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try SignedDataWriter(directory: directory)
        let root = try Data(contentsOf: URL(fileURLWithPath: directory + "/root.cer"))
        #expect(try Certificate(derEncoded: Array(root)).subject == Certificate(derEncoded: Array(root)).issuer)

        let jws = try writer.transaction(Samples.consumable, at: 60_000)
        try writer.notification(
            .oneTimeCharge, uuid: "n-1", signedDate: Samples.t0 + 61_000,
            transaction: Samples.consumable, at: 61_000)
        try writer.forged(Samples.withToken, at: 62_000)
        try writer.finish()

        let text = try String(contentsOfFile: directory + "/signed.jsonl", encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        try #require(lines.count == 3 && text.hasSuffix("\n"))
        let env = #""environment":"Sandbox","#
        #expect(lines[0] == #"{"t":60000,"kind":"transaction","txn":"2000000001","# + env + #""jws":""# + jws + #""}"#)
        #expect(lines[1].hasPrefix(#"{"t":61000,"kind":"notification","txn":"2000000001","# + env + #""jws":""#))
        #expect(lines[2].hasPrefix(#"{"t":62000,"kind":"forged","txn":"2000000002","# + env + #""jws":""#))
    }

    @Test func aPathThroughAFileIsRefusedWithTheSystemsReason() throws {
        let file = scratchDirectory("file")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let error = try #require(throws: SignedDataError.self) { try SignedDataWriter(directory: file + "/out") }
        #expect(error.description == "cannot write \(file)/out: Not a directory")
        let plain = try #require(throws: SignedDataError.self) { try SignedDataWriter(directory: file) }
        #expect(plain.description == "cannot write \(file): Not a directory")
    }
}
