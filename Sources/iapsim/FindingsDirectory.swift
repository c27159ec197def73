import IAPSimCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `explore --out DIR`: a directory that exists (or is created) and can be written, checked
/// before the runs start; after a run it holds that run's findings only.
enum FindingsDirectory {
    /// Creates `dir` and its parents if needed, and proves a file can be created in it.
    /// Returns the directories it created, parents first (`removeIfUnused` takes them back).
    static func prepare(_ dir: String) throws(OutputFiles.Failure) -> [String] {
        var created: [String] = []
        var path = dir.hasPrefix("/") ? "" : "."
        for part in dir.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o777) == 0 {
                created.append(path)
            } else if errno != EEXIST {
                removeIfUnused(created)
                throw failure(dir, "cannot create \(path): \(Output.osReason())")
            }
        }
        var info = stat()
        guard stat(dir, &info) == 0 else { throw failure(dir, Output.osReason()) }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw failure(dir, "it is not a directory; give a directory for the findings")
        }
        var template = Array("\(dir)/.iapsim-probe.XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw failure(dir, "cannot write in it: \(Output.osReason())") }
        close(fd)
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        return created
    }

    /// Removes the directories `prepare` created, if they are still empty (a run without
    /// findings leaves no directory behind).
    static func removeIfUnused(_ created: [String]) {
        for path in created.reversed() { rmdir(path) }
    }

    /// Removes the `TYPE.yaml` files an earlier run wrote for types this run did not find.
    /// Other files in the directory are left alone.
    static func removeStale(_ dir: String, keeping found: [AnomalyType]) {
        for type in AnomalyType.allCases where !found.contains(type) {
            unlink("\(dir)/\(type.rawValue).yaml")
        }
    }

    private static func failure(_ dir: String, _ reason: String) -> OutputFiles.Failure {
        OutputFiles.Failure(message: "\(dir): \(reason)")
    }
}
