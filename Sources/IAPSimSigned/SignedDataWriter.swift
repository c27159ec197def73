#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a run's signed data into a directory: `root.cer` (the DER trust anchor) and
/// `signed.jsonl`, one line per signed object in run order:
/// `{"t":ms,"kind":"transaction"|"renewal"|"notification"|"forged","txn":"...","environment":"...","jws":"..."}`,
/// `t` in virtual milliseconds (0 is 2026-01-01T00:00:00Z). A `renewal` line is a
/// subscription's renewal info; its `txn` is the subscription's `originalTransactionId`.
///
/// Signing happens here and only here, when bytes are asked for.
package final class SignedDataWriter {
    package enum Kind: String, Sendable { case transaction, renewal, notification, forged }

    /// Where `finish` writes; nil for a writer whose caller writes the files itself.
    package let directory: String?
    private let appStore: JWSSigner
    private var forger: JWSSigner?
    /// The lines signed and not yet taken, each with its newline, written as bytes.
    private var lines: [UInt8] = []
    /// The environment of the run (`Production`, `Sandbox`): every line names it, so that a
    /// verifier is built for the run's environment, whatever a forged object claims.
    private let environment: String

    /// Creates the directory (and its parents) and writes `root.cer` at once, so that a bad
    /// directory is reported before the run.
    package init(directory: String, environment: String = SignedDataDefaults.environment) throws {
        self.directory = directory
        self.environment = environment
        appStore = JWSSigner(chain: try SigningChain.appStore())
        try SignedDataFiles.writeRoot(appStore.chain, into: directory)
    }

    /// A writer that writes nothing: its caller takes `rootCertificate` and `jsonLines` (to
    /// write them all or none, with other outputs).
    package init(environment: String = SignedDataDefaults.environment) throws {
        directory = nil
        self.environment = environment
        appStore = JWSSigner(chain: try SigningChain.appStore())
    }

    /// `root.cer`: the DER of the App Store chain's root.
    package var rootCertificate: [UInt8] { appStore.chain.root }

    /// `signed.jsonl`: every object signed so far, one line each.
    package var jsonLines: String { String(decoding: lines, as: UTF8.self) }

    /// The lines signed since the last call, and forgets them: a long run's lines are
    /// written as they come rather than held.
    package func takeJSONLines() -> String { String(decoding: takeJSONLineBytes(), as: UTF8.self) }

    /// How many bytes of lines are held (signed and not yet taken).
    package var heldByteCount: Int { lines.count }

    /// `takeJSONLines()` as UTF-8 bytes.
    package func takeJSONLineBytes() -> [UInt8] {
        defer { lines.removeAll(keepingCapacity: true) }
        return lines
    }

    /// A transaction the App Store signed (a purchase result, `Transaction.updates`, history).
    @discardableResult
    package func transaction(_ payload: TransactionPayload, at t: Int64) throws -> String {
        let jws = try appStore.signedBytes(json: payload.jsonBytes)
        append(t: t, kind: .transaction, txn: payload.transactionId, jws: jws)
        return String(decoding: jws, as: UTF8.self)
    }

    /// A subscription's renewal info the App Store signed (with a subscription transaction,
    /// the Server API's statuses).
    @discardableResult
    package func renewalInfo(_ payload: RenewalInfoPayload, at t: Int64) throws -> String {
        let jws = try appStore.signedBytes(json: payload.jsonBytes)
        append(t: t, kind: .renewal, txn: payload.originalTransactionId, jws: jws)
        return String(decoding: jws, as: UTF8.self)
    }

    /// A V2 notification about `transaction`: its `signedTransactionInfo` is signed first, and
    /// a subscription's `signedRenewalInfo` (with its `subtype` and `status`) next.
    @discardableResult
    package func notification(
        _ type: NotificationPayload.NotificationType, subtype: NotificationPayload.Subtype? = nil, uuid: String,
        signedDate: Int64, transaction: TransactionPayload, renewalInfo: RenewalInfoPayload? = nil,
        status: NotificationPayload.SubscriptionStatus? = nil, consumptionRequestReason: String? = nil, at t: Int64
    ) throws -> String {
        var payload = NotificationPayload(
            notificationType: type, subtype: subtype, notificationUUID: uuid, signedDate: signedDate,
            signedTransactionInfo: try appStore.sign(transaction),
            signedRenewalInfo: try renewalInfo.map { try appStore.sign($0) }, status: status,
            environment: environment)
        payload.consumptionRequestReason = consumptionRequestReason
        let jws = try appStore.signedBytes(json: payload.jsonBytes)
        append(t: t, kind: .notification, txn: transaction.transactionId, jws: jws)
        return String(decoding: jws, as: UTF8.self)
    }

    /// A transaction JWS the attacker made with a chain of their own.
    @discardableResult
    package func forged(_ payload: TransactionPayload, at t: Int64) throws -> String {
        let signer = try forger ?? JWSSigner(chain: SigningChain.forger())
        forger = signer
        let jws = try signer.signedBytes(json: payload.jsonBytes)
        append(t: t, kind: .forged, txn: payload.transactionId, jws: jws)
        return String(decoding: jws, as: UTF8.self)
    }

    /// Writes `signed.jsonl` with every object signed so far.
    package func finish() throws {
        guard let directory else { return }
        try SignedDataFiles.store(Array(jsonLines.utf8), at: directory + "/signed.jsonl")
    }

    /// The line `JSONText.members([("t", …), ("kind", …), ("txn", …), ("environment", …),
    /// ("jws", …)]).text` writes (`SignedDataWriterTests` holds the two equal), written into
    /// `lines`: the JWS (base64url and dots, which JSON never escapes) copied as it is.
    private func append(t: Int64, kind: Kind, txn: String, jws: [UInt8]) {
        lines.append(contentsOf: #"{"t":"#.utf8)
        lines.append(contentsOf: String(t).utf8)
        lines.append(contentsOf: #","kind":""#.utf8)
        lines.append(contentsOf: kind.rawValue.utf8)
        lines.append(contentsOf: #"","txn":"#.utf8)
        JSONText.quote(txn, to: &lines)
        lines.append(contentsOf: #","environment":"#.utf8)
        JSONText.quote(environment, to: &lines)
        lines.append(contentsOf: #","jws":""#.utf8)
        lines.append(contentsOf: jws)
        lines.append(contentsOf: "\"}\n".utf8)
    }
}

/// A file could not be written; `cause` is the operating system's reason.
package struct SignedDataError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let cause: String
    package var description: String { "cannot write \(path): \(cause)" }
}

/// The files of signed data, written with the OS's own error for a bad path.
package enum SignedDataFiles {
    /// Creates `directory` and its parents and writes `directory/root.cer` (DER).
    package static func writeRoot(_ chain: SigningChain, into directory: String) throws {
        try makeDirectory(directory)
        try store(chain.root, at: directory + "/root.cer")
    }

    /// `mkdir -p`: each missing component is created; one that exists must be a directory.
    package static func makeDirectory(_ path: String) throws {
        var parent = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            let current = parent + component
            parent = current + "/"
            if mkdir(current, 0o755) == 0 { continue }
            let error = errno
            var status = stat()
            guard stat(current, &status) == 0 else { throw failure(path, error) }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw failure(path, ENOTDIR) }
        }
    }

    static func store(_ bytes: [UInt8], at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure(path, errno) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw failure(path, errno) }
            offset += written
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> SignedDataError {
        SignedDataError(path: path, cause: String(cString: strerror(code)))
    }
}
