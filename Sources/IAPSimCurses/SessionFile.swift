#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the files the UI asks for: a new `BASE-N.yaml` in the working directory, never
/// overwriting one that exists.
enum SessionFile {
    struct Failure: Error {
        var reason: String
    }

    /// The path written (relative to the working directory), or why not.
    static func write(baseName: String, contents: String, limit: Int = 100_000) -> Result<String, Failure> {
        for n in 1...limit {
            let path = "\(baseName)-\(n).yaml"
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            if fd < 0 {
                if errno == EEXIST { continue }
                return .failure(Failure(reason: "\(path): \(String(cString: strerror(errno)))"))
            }
            defer { close(fd) }
            let bytes = Array(contents.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    return .failure(Failure(reason: "\(path): \(String(cString: strerror(errno)))"))
                }
                offset += n
            }
            return .success(path)
        }
        return .failure(Failure(reason: "\(baseName)-1.yaml to -\(limit).yaml all exist"))
    }
}
