#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the files the UI asks for: a new `BASE-N.yaml` in the working directory, never
/// overwriting one that exists, and never left half-written: the text goes to a temporary
/// file first, which is then linked under the new name (`link` fails if the name exists,
/// where `rename` would replace it).
enum SessionFile {
    struct Failure: Error {
        var reason: String
    }

    /// The path written (relative to the working directory), or why not.
    static func write(baseName: String, contents: String, ext: String = "yaml", limit: Int = 100_000) -> Result<
        String, Failure
    > {
        let temp: String
        switch writeTemporary(baseName: baseName, contents: contents) {
        case .success(let path): temp = path
        case .failure(let failure): return .failure(failure)
        }
        defer { unlink(temp) }
        for n in 1...limit {
            let path = "\(baseName)-\(n).\(ext)"
            if link(temp, path) == 0 { return .success(path) }
            if errno == EEXIST { continue }
            return .failure(Failure(reason: "\(path): \(osReason())"))
        }
        return .failure(Failure(reason: "\(baseName)-1.\(ext) to -\(limit).\(ext) all exist"))
    }

    /// `contents` in a new hidden file beside where the session goes, flushed to disk (a full
    /// disk may only say so then).
    private static func writeTemporary(baseName: String, contents: String) -> Result<String, Failure> {
        var template = Array(".\(baseName).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return .failure(Failure(reason: "\(baseName)-N.yaml: \(osReason())")) }
        let temp = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        let bytes = Array(contents.utf8)
        var offset = 0
        var failed: String?
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                failed = osReason()
                break
            }
            offset += n
        }
        if failed == nil && fsync(fd) != 0 { failed = osReason() }
        if close(fd) != 0 && failed == nil { failed = osReason() }
        if let failed {
            unlink(temp)
            return .failure(Failure(reason: "\(baseName)-N.yaml: \(failed)"))
        }
        return .success(temp)
    }

    private static func osReason() -> String { String(cString: strerror(errno)) }
}
