import IAPSimCore
import IAPSimCurses
import IAPSimScenario
import IAPSimSigned

/// `run`'s exports (`--log`, `--diagram`, `--signed`), written as the run goes into staged
/// files (`OutputFiles`): what is kept between records is the diagram's messages still on
/// the wire, never the run.
struct RunExports {
    private var log: StagedFile?
    /// The log's lines of one batch of records, written as one chunk (its capacity kept).
    private let logLines = JSONLineWriter()
    private var diagram: StagedFile?
    private var diagramStream = MermaidExport.Stream()
    private var signed: (writer: SignedDataWriter, file: StagedFile)?
    /// The replays' answers, written on each anomaly's line of the log.
    private let whatIf: WhatIfReport?

    /// What `--signed DIR` writes in DIR.
    static let signedFiles = ["root.cer", "signed.jsonl"]

    /// Opens the staged files (and creates the `--signed` directory) in `files`.
    init(
        log: String?, diagram: String?, signed: String?, environment: String, whatIf: WhatIfReport? = nil,
        files: inout OutputFiles
    ) throws {
        self.whatIf = whatIf
        if let log { self.log = try files.open(log) }
        if let diagram {
            let file = try files.open(diagram)
            try file.write(MermaidExport.Stream.header.map { $0 + "\n" }.joined())
            self.diagram = file
        }
        if let signed {
            try files.makeDirectory(signed, flag: "--signed")
            let writer = try SignedDataWriter(environment: environment)
            try files.stage(bytes: writer.rootCertificate, to: Self.path(signed, "root.cer"))
            self.signed = (writer, try files.open(Self.path(signed, "signed.jsonl")))
        }
    }

    static func path(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Whether any export was asked for (the run must then collect every entry).
    var any: Bool { log != nil || diagram != nil || signed != nil }

    /// The log's and `signed.jsonl`'s lines are handed to their files 64 KB at a time (a batch
    /// of records is a few lines: an array and a write each cost more than the lines).
    static let batch = 1 << 16

    /// Writes what `records` add to each export.
    mutating func add(_ records: [RunRecord]) throws {
        if let log {
            JSONLinesExport.write(records, whatIf: whatIf, to: logLines)
            if logLines.bytes.count >= Self.batch { try writeLog(log) }
        }
        if let diagram {
            var lines: [String] = []
            for record in records { diagramStream.add(record, to: &lines) }
            for line in lines { try diagram.write(line + "\n") }
        }
        try writeSigned(records)
    }

    /// Writes the lines still held and what the diagram still held (messages still on the
    /// wire at the end).
    mutating func finish() throws {
        if let log { try writeLog(log) }
        if let signed { try signed.file.write(bytes: signed.writer.takeJSONLineBytes()) }
        guard let diagram else { return }
        var lines: [String] = []
        diagramStream.finish(to: &lines)
        for line in lines { try diagram.write(line + "\n") }
    }

    private func writeLog(_ log: StagedFile) throws {
        try log.write(bytes: Array(logLines.bytes))
        logLines.removeAll()
    }

    private func writeSigned(_ records: [RunRecord]) throws {
        if let signed {
            try records.withUnsafeBufferPointer { records in
                for k in records.indices {
                    guard case .entry(let entry) = records[k] else { continue }
                    try SignedExport.sign(entry, with: signed.writer)
                }
            }
            if signed.writer.heldByteCount >= Self.batch {
                try signed.file.write(bytes: signed.writer.takeJSONLineBytes())
            }
        }
    }
}
