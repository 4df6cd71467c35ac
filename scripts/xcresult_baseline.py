#!/usr/bin/env python3
"""The xcresult baseline of the benchmark: what a 30-line script does with the
JSON of `xcresulttool get test-results tests`. json reads it and sqlite3 keeps
a row for each result, as evidence does: each device a test case ran on and
each repetition of it (a retry that passed does not hide the failure before
it), with its suite, name, result, duration and failure messages, in one
transaction, in a WAL database with synchronous=FULL, as evidence's store is.

    xcresult_baseline.py FILE.json OUT.sqlite
"""
import json
import sqlite3
import sys

RESULTS = {"Passed": "pass", "Failed": "fail", "Skipped": "skipped", "Expected Failure": "fail"}


def children(node, kind):
    return [child for child in node.get("children") or [] if child.get("nodeType") == kind]


def walk(node, suite, rows):
    if node.get("nodeType") == "Test Case":
        name = node.get("nodeIdentifier") or suite + "/" + node.get("name", "")
        for ran in children(node, "Device") or [node]:
            for attempt in children(ran, "Repetition") or [ran]:
                messages = [child.get("name", "") for child in children(attempt, "Failure Message")]
                rows.append((suite, name, RESULTS.get(attempt.get("result"), "inconclusive"),
                             attempt.get("durationInSeconds", node.get("durationInSeconds")), "\n".join(messages) or None))
        return
    if node.get("nodeType") == "Test Suite":
        suite = node.get("name", "")
    for child in node.get("children") or []:
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
