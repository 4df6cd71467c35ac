#!/usr/bin/env python3
"""Synthetic data for scripts/bench.sh.

Writes, for one size, a store in evidence's text format (docs/text-format.md),
the same result rows as CSV for the sqlite3 anchor, and a JUnit XML file.

    bench_data.py store  OUT CLAIMS RESULTS    # OUT/export/, OUT/results.csv
    bench_data.py junit  FILE TESTS            # a JUnit file with TESTS cases
    bench_data.py xcresult FILE TESTS          # `xcresulttool get test-results tests` JSON
    bench_data.py xcresult-fixtures FILE TESTS # the same, each case one of the real fixtures' cases

Deterministic: the same arguments give the same bytes.
"""
import json
import os
import random
import sys

KINDS = ["newsroom", "doc", "hig", "video", "tech-talk", "specs", "release-notes", "article", "other"]
POSTURES = ["closed", "open", "open-wide", "book", "portrait", "landscape"]
ENVIRONMENTS = [
    {"kind": "simulator", "model": "iPhone Duo", "os_name": "iOS", "os_version": "27.1", "os_build": "23B74",
     "tool_name": "Xcode", "tool_version": "27.1", "tool_build": "27A9275"},
    {"kind": "simulator", "model": "iPhone Duo", "os_name": "iOS", "os_version": "27.2", "os_build": "23C5027f",
     "tool_name": "Xcode", "tool_version": "27.2 beta", "tool_build": "27B5012a"},
    {"kind": "device", "model": "iPhone Duo", "os_name": "iOS", "os_version": "27.1", "os_build": "23B85",
     "tool_name": "Xcode", "tool_version": "27.1", "tool_build": "27A9275"},
    {"kind": "simulator", "model": "iPhone 18 Pro Max", "os_name": "iOS", "os_version": "27.1", "os_build": "23B74",
     "tool_name": "Xcode", "tool_version": "27.1", "tool_build": "27A9275"},
    {"kind": "simulator", "model": "iPad Pro 13", "os_name": "iPadOS", "os_version": "27.1", "os_build": "23B74",
     "tool_name": "Xcode", "tool_version": "27.1", "tool_build": "27A9275"},
]


def dumps(record):
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_store(out, claims, results, documents=None):
    rng = random.Random(claims * 1_000_003 + results)
    export = os.path.join(out, "export")
    os.makedirs(export, exist_ok=True)
    documents = documents or max(1, claims // 1000)
    sources = max(10, claims // 50)
    runs = max(1, results // 200)

    def lines(name, records):
        with open(os.path.join(export, name), "w", encoding="utf-8") as handle:
            for record in records:
                handle.write(dumps(record) + "\n")

    with open(os.path.join(export, "format.json"), "w") as handle:
        handle.write('{"format":"evidence-store","version":1}\n')
    source_urls = ["https://developer.example.com/page/%05d" % n for n in range(sources)]
    lines("sources.jsonl", (
        {"url": url, "title": "Page %d" % n, "publisher": "Publisher %d" % (n % 7), "kind": KINDS[n % len(KINDS)],
         "updated": "2026-10-%02d" % (n % 28 + 1)}
        for n, url in enumerate(source_urls)))
    lines("capabilities.jsonl", [
        {"name": "standby", "description": "StandBy"},
        {"name": "app-extension", "description": "App extensions"},
    ])
    keys = ["claim.%06d" % n for n in range(claims)]
    labels = ["measured", "unverified", "not-published", "sourced"]

    def claim(n):
        record = {"key": keys[n], "document": "document-%02d" % (n % documents), "area": "Area %d" % (n % 12),
                  "label": labels[n % 4]}
        if n % 4 == 2:
            record["as_of"] = "2026-10-20"
        record["statement"] = "Synthetic claim %d: the side column makes room for the island." % n
        cited = sorted({(source_urls[(n * 7) % sources], "?time=%d" % (n % 300) if n % 3 == 0 else ""),
                        (source_urls[(n * 13 + 1) % sources], "")})
        record["sources"] = [dict([("url", url)] + ([("locator", locator)] if locator else [])) for url, locator in cited]
        if n % 10 == 0:
            record["needs"] = ["app-extension", "standby"] if n % 20 == 0 else ["standby"]
        return record

    lines("claims.jsonl", (claim(n) for n in range(claims)))
    lines("environment_lacks.jsonl", [
        {"kind": "simulator", "model": "iPhone Duo", "capability": "app-extension", "source": source_urls[0]},
        {"kind": "simulator", "model": "iPhone Duo", "capability": "standby", "source": source_urls[0],
         "note": "StandBy is unavailable."},
    ])
    lines("ingested_files.jsonl", [])
    run_records = []
    for n in range(runs):
        # Every run in the past year, so that none is refused as a future date.
        day = "2025-%02d-%02d" % (n * 12 // runs + 1, n % 28 + 1)
        run_records.append({"uuid": "00000000-0000-4000-8000-%012d" % n, "started_at": day + "T09:00:00Z",
                            "environment": ENVIRONMENTS[n % len(ENVIRONMENTS)], "tester": "qa-%d" % (n % 5)})
    run_records.sort(key=lambda r: (r["started_at"], r["uuid"]))
    lines("runs.jsonl", run_records)
    run_ids = {record["uuid"]: index + 1 for index, record in enumerate(run_records)}
    index_of_environment = {record["uuid"]: ENVIRONMENTS.index(record["environment"]) for record in run_records}

    # So that every derived state occurs: a claim in twenty is never tested
    # (untested), one never although it needs StandBy (needs-device), one only
    # on the older iPhone Duo simulator (stale), one only on the newer simulator
    # (verified-in-simulator); the rest anywhere.
    def pick_claim(environment):
        while True:
            claim_index = rng.randrange(claims)
            kind = claim_index % 20
            if kind in (7, 10):
                continue
            if kind == 3 and environment != 0:
                continue
            if kind == 13 and environment != 1:
                continue
            return claim_index
    with open(os.path.join(export, "results.jsonl"), "w", encoding="utf-8") as handle, \
            open(os.path.join(out, "results.csv"), "w", encoding="utf-8") as csv:
        csv.write("run_id,claim_id,result,posture,note,checked_at,test_id,duration,message\n")
        for index, run in enumerate(run_records):
            count = results // runs + (1 if index < results % runs else 0)
            environment = index_of_environment[run["uuid"]]
            for n in range(count):
                claim_index = pick_claim(environment)
                roll = rng.random()
                outcome = "fail" if roll < 0.05 else "blocked" if roll < 0.07 else "pass"
                record = {"run": run["uuid"], "n": n + 1, "claim": keys[claim_index], "result": outcome}
                posture = POSTURES[rng.randrange(len(POSTURES))] if rng.random() < 0.6 else None
                if posture:
                    record["posture"] = posture
                checked = run["started_at"][:11] + "%02d:%02d:%02dZ" % (9 + n // 3600 % 14, n // 60 % 60, n % 60)
                record["checked_at"] = checked
                note = "Observation %d of run %d" % (n, index) if rng.random() < 0.3 else ""
                if note:
                    record["note"] = note
                measurements = [
                    {"name": "status-bar clock y" if m == 0 else "metric %d" % m, "value": 87 + rng.randrange(100),
                     "unit": "pt", "baseline": 87}
                    for m in range(rng.randrange(4))]
                if measurements:
                    record["measurements"] = measurements
                handle.write(dumps(record) + "\n")
                csv.write("%d,%d,%s,%s,%s,%s,,,\n" % (run_ids[run["uuid"]], claim_index + 1, outcome, posture or "",
                                                      note, checked))
    lines("label_history.jsonl", [])
    checklists = sorted({"document-%02d" % (n % documents) for n in range(claims)})
    lines("checklists.jsonl", ({"document": d, "title": d + ": Checklist"} for d in checklists))

    def items():
        for d_index, document in enumerate(checklists):
            members = [keys[n] for n in range(d_index, claims, documents)]
            for position in range(1, 51):
                linked = sorted({members[(position * 3 + k) % len(members)] for k in range(3)})
                yield {"checklist": document, "position": position, "key": "%s.item-%02d" % (document, position),
                       "text": "Item %d of %s." % (position, document), "claims": linked}

    lines("checklist_items.jsonl", items())
    lines("test_mappings.jsonl", ({"pattern": "App.Suite%dTests/*" % n, "claim": keys[n]} for n in range(min(claims, 20))))


def write_junit(path, tests):
    rng = random.Random(tests)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="%d">\n' % tests)
        suites = max(1, tests // 1000)
        for s in range(suites):
            handle.write('  <testsuite name="Suite%d" tests="%d">\n' % (s, tests // suites))
            for c in range(tests // suites):
                roll = rng.random()
                name = 'classname="App.Suite%dTests" name="testCase%d()" time="0.%03d"' % (s, c, c % 1000)
                if roll < 0.02:
                    handle.write('    <testcase %s>\n      <failure message="XCTAssertEqual failed: (&quot;%d&quot;) is not equal to (&quot;x&quot;)">Stack line 1\nline 2</failure>\n    </testcase>\n' % (name, c))
                elif roll < 0.04:
                    handle.write('    <testcase %s><skipped message="not on this device"/></testcase>\n' % name)
                else:
                    handle.write('    <testcase %s/>\n' % name)
            handle.write('    <properties><property name="device" value="iPhone Duo (27.1)"/></properties>\n')
            handle.write('  </testsuite>\n')
        handle.write('</testsuites>\n')


def write_pretty(handle, value, indent=0):
    """JSON as xcresulttool writes it: two-space indents, " : ", sorted keys."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        handle.write("{\n")
        keys = sorted(value)
        for n, key in enumerate(keys):
            handle.write("%s%s : " % (pad, json.dumps(key)))
            write_pretty(handle, value[key], indent + 1)
            handle.write(",\n" if n + 1 < len(keys) else "\n")
        handle.write("  " * indent + "}")
    elif isinstance(value, list):
        handle.write("[\n")
        for n, item in enumerate(value):
            handle.write(pad)
            write_pretty(handle, item, indent + 1)
            handle.write(",\n" if n + 1 < len(value) else "\n")
        handle.write("  " * indent + "]")
    else:
        handle.write(json.dumps(value, ensure_ascii=False))


def write_xcresult(path, tests):
    """The shape of ../shared/fixtures/apple/xcresult-tests-*.json: a test plan,
    a bundle, suites of 1,000 cases; 2% fail with a message, 2% are skipped, 1%
    passed after a retry (three repetitions under the case)."""
    rng = random.Random(tests)
    url = "test://com.apple.xcode/App/AppTests"
    suites = []
    per_suite = max(1, min(tests, 1000))
    for s in range(max(1, tests // per_suite)):
        cases = []
        for c in range(per_suite):
            roll = rng.random()
            seconds = (c % 1000) / 1000 + 0.0001234
            case = {"duration": ("%.3fs" % seconds).replace(".", ","), "durationInSeconds": seconds,
                    "name": "testCase%d()" % c, "nodeIdentifier": "Suite%dTests/testCase%d()" % (s, c),
                    "nodeIdentifierURL": "%s/Suite%dTests/testCase%d" % (url, s, c), "nodeType": "Test Case",
                    "result": "Passed"}
            if roll < 0.02:
                case["result"] = "Failed"
                case["children"] = [{"name": "AppTests.swift:%d: XCTAssertEqual failed: (\"%d\") is not equal to (\"x\")" % (c % 400, c),
                                     "nodeType": "Failure Message", "result": "Failed"}]
            elif roll < 0.04:
                case["result"] = "Skipped"
                case["children"] = [{"name": "Test skipped - not on this device", "nodeType": "Failure Message", "result": "Skipped"}]
            elif roll < 0.05:
                case["details"] = "Passed after 1 retry"
                case["children"] = [
                    {"duration": "0s", "durationInSeconds": 0, "name": run, "nodeIdentifier": str(n + 1),
                     "nodeType": "Repetition", "result": "Failed" if n == 0 else "Passed"}
                    for n, run in enumerate(["First Run", "Retry 1", "Retry 2"])]
            cases.append(case)
        suites.append({"children": cases, "name": "Suite%dTests" % s, "nodeIdentifierURL": "%s/Suite%dTests" % (url, s),
                       "nodeType": "Test Suite", "result": "Passed"})
    document = {
        "devices": [{"architecture": "arm64", "deviceId": "9D3C1E7A-0B4F-4F65-9E8A-6C2D51B0A7F3", "deviceName": "iPhone Duo",
                     "modelName": "iPhone Duo", "osBuildNumber": "23B74", "osVersion": "27.1", "platform": "iOS Simulator"}],
        "testNodes": [{"children": [{"children": suites, "name": "AppTests", "nodeIdentifierURL": url,
                                     "nodeType": "Unit test bundle", "result": "Passed"}],
                       "name": "App", "nodeType": "Test Plan", "result": "Passed"}],
        "testPlanConfigurations": [{"configurationId": "1", "configurationName": "Test Scheme Action"}],
    }
    with open(path, "w", encoding="utf-8") as handle:
        write_pretty(handle, document)
        handle.write("\n")


FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "EvidenceStoreTests", "Fixtures", "apple")


def write_xcresult_fixtures(path, tests):
    """The JSON of `xcresulttool get test-results tests` made of the real
    files' own test cases (../shared/fixtures/apple/xcresult-tests-*.json, 67
    cases), taken in turn, each named anew, in suites of 1,000: 58% pass, 25%
    fail, 13% are skipped, 3% are expected failures; most carry repetitions,
    failure messages or arguments, as in those files: about 1.4 KB a case.
    The file that issue 14 measured was of about this size: 176 MB for
    100,000 cases."""
    cases = []

    def collect(node):
        if node.get("nodeType") == "Test Case":
            cases.append(node)
            return
        for child in node.get("children", []):
            collect(child)

    for name in ["xcresult-tests-1.json", "xcresult-tests-3.json"]:
        with open(os.path.join(FIXTURES, name), encoding="utf-8") as handle:
            for node in json.load(handle)["testNodes"]:
                collect(node)
    suites = []
    per_suite = max(1, min(tests, 1000))
    for s in range(max(1, tests // per_suite)):
        children = []
        for c in range(per_suite):
            case = json.loads(json.dumps(cases[(s * per_suite + c) % len(cases)]))
            case["nodeIdentifier"] = "Suite%dTests/%s#%d" % (s, case.get("nodeIdentifier", case["name"]), c)
            children.append(case)
        suites.append({"children": children, "name": "Suite%dTests" % s, "nodeType": "Test Suite", "result": "Failed"})
    document = {
        "devices": [{"architecture": "arm64", "deviceId": "9D3C1E7A-0B4F-4F65-9E8A-6C2D51B0A7F3", "deviceName": "iPhone Duo",
                     "modelName": "iPhone Duo", "osBuildNumber": "23B74", "osVersion": "27.1", "platform": "iOS Simulator"}],
        "testNodes": [{"children": [{"children": suites, "name": "AppTests", "nodeType": "Unit test bundle", "result": "Failed"}],
                       "name": "App", "nodeType": "Test Plan", "result": "Failed"}],
        "testPlanConfigurations": [{"configurationId": "1", "configurationName": "Test Scheme Action"}],
    }
    with open(path, "w", encoding="utf-8") as handle:
        write_pretty(handle, document)
        handle.write("\n")


if __name__ == "__main__":
    if len(sys.argv) in (5, 6) and sys.argv[1] == "store":
        write_store(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]) if len(sys.argv) == 6 else None)
    elif len(sys.argv) == 4 and sys.argv[1] == "junit":
        write_junit(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "xcresult":
        write_xcresult(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "xcresult-fixtures":
        write_xcresult_fixtures(sys.argv[2], int(sys.argv[3]))
    else:
        sys.stderr.write(__doc__)
        sys.exit(64)
