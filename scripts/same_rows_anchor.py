#!/usr/bin/env python3
"""The rows an import writes, for the sqlite3 shell to .import (scripts/bench.sh).

    scripts/same_rows_anchor.py STORE FOLDER

Reads a store that `evidence import` filled and writes into FOLDER, for each
table the import wrote rows to: the table with its columns (generated ones
left out), its primary key, its UNIQUE constraints and its indexes, without
CHECKs, foreign keys or triggers (schema.sql); its rows as CSV (TABLE.csv);
and import.sql, which loads every CSV in one transaction. The latest decisive
result of each claim and environment is loaded as rows, not worked out.
"""
import csv
import os
import sqlite3
import sys

TABLES = [
    "claims", "claim_statements", "claim_sources", "claim_subjects", "claim_capabilities", "claim_expectations",
    "label_history", "sources", "capabilities", "environments", "runs", "results", "measurements",
    "exchanged_records", "latest_decisive_results",
]


def main(store, folder):
    db = sqlite3.connect(store)
    os.makedirs(folder, exist_ok=True)
    schema = ["PRAGMA journal_mode = WAL;", "PRAGMA synchronous = FULL;"]
    load = [".mode csv", "BEGIN;"]
    for table in TABLES:
        columns = list(db.execute(f'PRAGMA table_xinfo("{table}")'))
        stored = [c for c in columns if c[6] == 0]  # hidden 0: not a generated column
        generated = {c[1] for c in columns if c[6] != 0}
        key = [c[1] for c in sorted(stored, key=lambda c: c[5]) if c[5]]
        # An INTEGER primary key of one column is the rowid, as in the store.
        rowid = len(key) == 1 and any(c[1] == key[0] and c[2].upper() == "INTEGER" for c in stored)
        definitions = [f'"{c[1]}" {c[2]}' + (" PRIMARY KEY" if rowid and c[1] == key[0] else "") for c in stored]
        if key and not rowid:
            definitions.append("PRIMARY KEY (" + ", ".join(f'"{k}"' for k in key) + ")")
        schema.append(f'CREATE TABLE "{table}" ({", ".join(definitions)});')
        for number, name, _, origin, _ in db.execute(f'PRAGMA index_list("{table}")'):
            indexed = [r[2] for r in db.execute(f'PRAGMA index_info("{name}")')]
            if origin == "pk" or any(c is None or c in generated for c in indexed):
                continue
            sql = db.execute("SELECT sql FROM sqlite_schema WHERE name = ?", (name,)).fetchone()[0]
            if sql is None:  # a UNIQUE constraint's own index, which has no SQL of its own
                sql = f'CREATE UNIQUE INDEX "{table}_unique_{number}" ON "{table}" ({", ".join(indexed)})'
            schema.append(sql + ";")
        path = os.path.join(folder, table + ".csv")
        with open(path, "w", newline="") as out:
            writer = csv.writer(out)
            names = ", ".join(f'"{c[1]}"' for c in stored)
            for row in db.execute(f'SELECT {names} FROM "{table}"'):
                writer.writerow(["" if value is None else value for value in row])
        load.append(f'.import "{os.path.abspath(path)}" "{table}"')
    load.append("COMMIT;")
    with open(os.path.join(folder, "schema.sql"), "w") as out:
        out.write("\n".join(schema) + "\n")
    with open(os.path.join(folder, "import.sql"), "w") as out:
        out.write("\n".join(load) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
