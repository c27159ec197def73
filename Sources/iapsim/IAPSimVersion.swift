/// `iapsim --version`: `iapsim X.Y.Z`, and the short commit when the binary was built from a
/// git checkout (the build's `GitVersion` plugin writes `gitCommit`).
enum IAPSimVersion {
    static let number = "0.33.0"

    static var line: String {
        gitCommit.isEmpty ? "iapsim \(number)" : "iapsim \(number) (\(gitCommit))"
    }
}
