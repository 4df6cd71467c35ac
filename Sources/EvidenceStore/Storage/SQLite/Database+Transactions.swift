import CSQLite

extension Database {
    enum TransactionKind: Sendable {
        case deferred
        /// Takes the write lock at BEGIN, so a busy writer waits here (with the busy
        /// timeout) instead of failing later on a read-to-write upgrade.
        case immediate
    }

    /// The one savepoint name: SQLite's RELEASE and ROLLBACK TO act on the most
    /// recent savepoint of a name, so nested savepoints can share it.
    private static let savepoint: StaticString = "SAVEPOINT evidence_savepoint"
    private static let releaseSavepoint: StaticString = "RELEASE SAVEPOINT evidence_savepoint"
    private static let rollbackToSavepoint: StaticString = "ROLLBACK TRANSACTION TO SAVEPOINT evidence_savepoint"

    /// Runs `body` in a transaction: commits when it returns, rolls back when it
    /// throws and rethrows that first error. Inside another transaction it uses a
    /// savepoint, so an inner failure undoes only the inner work.
    func inTransaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if !isAutocommit {
            return try inSavepoint(body)
        }
        switch kind {
        case .deferred: try execute(cached: "BEGIN DEFERRED TRANSACTION")
        case .immediate: try execute(cached: "BEGIN IMMEDIATE TRANSACTION")
        }
        let value: T
        do {
            value = try body()
        } catch {
            rollbackIfOpen()
            throw error
        }
        do {
            try execute(cached: "COMMIT TRANSACTION")
        } catch {
            // A failed COMMIT (disk full, I/O error) may leave the transaction open.
            rollbackIfOpen()
            throw error
        }
        return value
    }

    private func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        try execute(cached: Self.savepoint)
        let value: T
        do {
            value = try body()
        } catch {
            // ROLLBACK TO leaves the savepoint on the stack; RELEASE removes it.
            // SQLite may already have rolled the whole transaction back (SQLITE_FULL,
            // SQLITE_IOERR), in which case the savepoint is gone and so is the work.
            if !isAutocommit {
                try? execute(cached: Self.rollbackToSavepoint)
                try? execute(cached: Self.releaseSavepoint)
            }
            throw error
        }
        try execute(cached: Self.releaseSavepoint)
        return value
    }

    /// Issues ROLLBACK only when a transaction is still open: SQLite ends it by
    /// itself after some errors, and a second ROLLBACK would fail.
    func rollbackIfOpen() {
        if !isAutocommit {
            try? execute(cached: "ROLLBACK TRANSACTION")
        }
    }
}
