/// The tasks of your app that the store resumed and that have not waited on it again (nor
/// ended): while any is owed, virtual time stands still. A task is named where the store
/// knows it (a purchase call, a listener, a sleep, a user action); an answer to a request
/// resumes a task it cannot name (`URLSession` hands it over on threads of its own).
struct Debts {
    var tasks: [Int] = []
    var anonymous = 0

    var count: Int { tasks.count + anonymous }

    mutating func owe(_ task: Int?) {
        if let task { tasks.append(task) } else { anonymous += 1 }
    }

    /// `task` (nil: a caller the store cannot name, a request) waits on the store again, or ended.
    /// A named task pays its own debt, or an unnamed one (it may be the task a request's
    /// answer resumed); a request pays an unnamed debt, else the oldest named one (the task
    /// that made it). A task that owed nothing (a task just started) pays nothing.
    mutating func paid(by task: Int?) {
        if let task, let k = tasks.firstIndex(of: task) {
            tasks.remove(at: k)
        } else if anonymous > 0 {
            anonymous -= 1
        } else if task == nil, !tasks.isEmpty {
            tasks.removeFirst()
        }
    }

    /// A user action's task starts: its debt, counted when it was made, gets its name.
    mutating func named(_ task: Int) {
        if anonymous > 0 { anonymous -= 1 }
        tasks.append(task)
    }
}

/// The calling task's identity while it runs.
func currentTaskID() -> Int? { withUnsafeCurrentTask { $0?.hashValue } }
