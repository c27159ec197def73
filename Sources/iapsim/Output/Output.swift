import ArgumentParser
import IAPSimScenario

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The executable's only ways out: standard output, standard error, and files it was asked
/// to write (`OutputFiles`). Every line has its control characters made visible
/// (`VisibleText`), whatever it holds.
enum Output {
    /// Standard output could not be written (closed, full, a reader gone): the command
    /// ends with one line on standard error and status 2, never a crash and never 0.
    struct StandardOutputFailed: Error {
        var reason: String
        var message: String { "iapsim: cannot write to standard output: \(reason)" }
    }

    /// Writes `lines` to standard output, each ended by a newline.
    static func print(_ lines: [String]) throws(StandardOutputFailed) {
        guard !lines.isEmpty else { return }
        // One buffer of bytes, filled line by line: a printed run writes millions of lines.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(lines.count) { $0 + $1.utf8.count })
        for line in lines {
            bytes.append(contentsOf: VisibleText.escaped(line).utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        if let reason = writeAll(STDOUT_FILENO, bytes) {
            throw StandardOutputFailed(reason: reason)
        }
    }

    /// One line to standard error; a failure there has nowhere left to be told.
    static func error(_ line: String) {
        raw(VisibleText.escaped(line) + "\n")
    }

    /// Bytes to standard error as they are (the live progress line's own `\r` and `ESC[K`).
    static func raw(_ text: String) {
        _ = writeAll(STDERR_FILENO, Array(text.utf8))
    }

    /// Writes every byte to `fd`; the OS's reason when it cannot.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> String? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return osReason()
            }
            offset += n
        }
        return nil
    }

    /// The OS's words for the last error (`No space left on device`).
    static func osReason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
}
