#!/usr/bin/env python3
"""The JUnit baseline of the benchmark: what a 30-line script does with a
JUnit file. ElementTree reads it and sqlite3 keeps each test case's suite,
name, result, duration and message, in one transaction, in a WAL database
with synchronous=FULL, as evidence's store is.

    junit_baseline.py FILE.xml OUT.sqlite
"""
import sqlite3
import sys
import xml.etree.ElementTree as ElementTree


def main(path, out):
    db = sqlite3.connect(out)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE IF NOT EXISTS results (suite TEXT, name TEXT, result TEXT, duration REAL, message TEXT)")
    rows = []
    for suite in ElementTree.parse(path).getroot().iter("testsuite"):
        for case in suite.findall("testcase"):
            result, message = "pass", None
            for tag, outcome in (("failure", "fail"), ("error", "fail"), ("skipped", "skipped")):
                found = case.find(tag)
                if found is not None:
                    result, message = outcome, found.get("message") or (found.text or "").strip()
                    break
            rows.append((suite.get("name"), case.get("classname", "") + "/" + case.get("name", ""), result,
                         float(case.get("time") or 0), message))
    with db:
        db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?)", rows)
    db.close()


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(64)
    main(sys.argv[1], sys.argv[2])
