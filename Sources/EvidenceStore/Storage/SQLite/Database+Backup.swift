import CSQLite

extension Database {
    /// Copies the whole database into `destination` through SQLite's online
    /// backup API. One step copies every page while holding a read transaction
    /// on the source, so the copy is one consistent moment even while other
    /// connections write (in WAL mode they are not blocked).
    func backup(into destination: Database) throws {
        let source = try connection
        let target = try destination.connection
        guard let backup = sqlite3_backup_init(target, "main", source, "main") else {
            throw DatabaseError(connection: target)
        }
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, -1)
            if code == SQLITE_BUSY || code == SQLITE_LOCKED {
                sqlite3_sleep(50)
            }
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        let finish = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finish == SQLITE_OK else {
            throw DatabaseError(connection: target)
        }
    }
}
