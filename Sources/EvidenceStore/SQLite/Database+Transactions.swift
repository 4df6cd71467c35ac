import CSQLite

extension Database {
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        /// Takes the write lock at BEGIN, so a busy writer waits here (with the busy
        /// timeout) instead of failing later on a read-to-write upgrade.
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it
    /// throws and rethrows that first error. Inside another transaction it uses a
    /// savepoint, so an inner failure undoes only the inner work.
    public func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if !isAutocommit {
            return try inSavepoint(body)
        }
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        let value: T
        do {
            value = try body()
        } catch {
            rollbackIfOpen()
            throw error
        }
        do {
            try execute("COMMIT TRANSACTION")
        } catch {
            // A failed COMMIT (disk full, I/O error) may leave the transaction open.
            rollbackIfOpen()
            throw error
        }
        return value
    }

    private func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        let name = nextSavepointName()
        try execute("SAVEPOINT \(name)")
        let value: T
        do {
            value = try body()
        } catch {
            // ROLLBACK TO leaves the savepoint on the stack; RELEASE removes it.
            // SQLite may already have rolled the whole transaction back (SQLITE_FULL,
            // SQLITE_IOERR), in which case the savepoint is gone and so is the work.
            if !isAutocommit {
                try? execute("ROLLBACK TRANSACTION TO SAVEPOINT \(name)")
                try? execute("RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
        try execute("RELEASE SAVEPOINT \(name)")
        return value
    }

    /// Issues ROLLBACK only when a transaction is still open: SQLite ends it by
    /// itself after some errors, and a second ROLLBACK would fail.
    private func rollbackIfOpen() {
        if !isAutocommit {
            try? execute("ROLLBACK TRANSACTION")
        }
    }
}
