/// `iapsim --version`: `iapsim X.Y.Z`, and the short commit when the binary was built from a
/// git checkout (the build's `GitVersion` plugin writes `gitCommit`).
enum IAPSimVersion {
    static let number = "0.33.0"

    static var line: String {
        gitCommit.isEmpty ? "iapsim \(number)" : "iapsim \(number) (\(gitCommit))"
    }
}

#if IAPSIM_NO_GIT_VERSION
    /// Built as another package's dependency: the plugin does not run there (Package.swift).
    let gitCommit = ""
#endif
