#!/usr/bin/env python3
"""The xcresult baseline of the benchmark: what a 30-line script does with the
JSON of `xcresulttool get test-results tests`. json reads it and sqlite3 keeps
each test case's suite, name, result, duration and message, in one
transaction, in a WAL database with synchronous=FULL, as evidence's store is.

    xcresult_baseline.py FILE.json OUT.sqlite
"""
import json
import sqlite3
import sys

RESULTS = {"Passed": "pass", "Failed": "fail", "Skipped": "skipped", "Expected Failure": "pass"}


def walk(node, suite, rows):
    if node.get("nodeType") == "Test Case":
        messages = [child.get("name", "") for child in node.get("children", []) if child.get("nodeType") == "Failure Message"]
        rows.append((suite, node.get("nodeIdentifier") or suite + "/" + node.get("name", ""),
                     RESULTS.get(node.get("result"), "inconclusive"), node.get("durationInSeconds"),
                     "\n".join(messages) or None))
        return
    if node.get("nodeType") == "Test Suite":
        suite = node.get("name", "")
    for child in node.get("children", []):
        walk(child, suite, rows)


def main(path, out):
    db = sqlite3.connect(out)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE IF NOT EXISTS results (suite TEXT, name TEXT, result TEXT, duration REAL, message TEXT)")
    rows = []
    with open(path, encoding="utf-8") as handle:
        for node in json.load(handle)["testNodes"]:
            walk(node, "", rows)
    with db:
        db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?)", rows)
    db.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(64)
    main(sys.argv[1], sys.argv[2])
