#!/usr/bin/env bash
# The speed benchmark: builds a release binary, generates synthetic stores in
# the text format at three sizes, and times each command as a whole process
# (median of several runs, with peak memory). The anchor is the sqlite3 shell's
# .import of the same result rows from CSV into a table of the same shape
# (the columns and indexes of `results`), measured in the same run; beside it,
# "anchor rows": the shell's .import of every row the import writes (claims
# with their words and links, runs, results, measurements, each claim's latest
# decisive result as rows), into the same tables and indexes without CHECKs,
# foreign keys or triggers (scripts/same_rows_anchor.py). The anchors and the
# imports are timed in turn, a round of each at a time. Ingest is
# timed against two Python scripts that do the least a script would
# (scripts/junit_baseline.py, scripts/xcresult_baseline.py), also in the same run and in turn.
#
#   scripts/bench.sh                    # all sizes, 3 runs each
#   BENCH_SIZES="S M" scripts/bench.sh  # only the smaller sizes
#   BENCH_INGEST="10000 100000" scripts/bench.sh   # JUnit ingest sizes (default 10k, 100k, 1M)
#   BENCH_RUNS=5 scripts/bench.sh
#
# Data is cached in bench-out/ (delete it to regenerate). Needs python3 and sqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes="${BENCH_SIZES:-S M L}"
ingest_sizes="${BENCH_INGEST:-10000 100000 1000000}"
runs="${BENCH_RUNS:-3}"
out="${BENCH_OUT:-bench-out}"
mkdir -p "$out"

# The binary people install (scripts/release.sh): the Swift runtime linked in, stripped.
bin="$(scripts/release.sh 2>/dev/null | tail -1)"

# measure CMD...: runs CMD once, its output discarded; prints "seconds peak-KB".
measure() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys, time
start = time.perf_counter()
with open("/dev/null", "w") as sink:
    code = subprocess.call(sys.argv[1:], stdout=sink, stderr=sink)
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
if code != 0:
    sys.stderr.write("command failed (%d): %s\n" % (code, " ".join(sys.argv[1:])))
    sys.exit(1)
print("%.4f %d" % (elapsed, peak))
PY
}

# median of the first fields, and the largest second field, of lines "seconds peak".
summarise() {
    python3 -c '
import statistics, sys
rows = [line.split() for line in sys.stdin if line.strip()]
print("%.4f %d" % (statistics.median(float(r[0]) for r in rows), max(int(r[1]) for r in rows)))'
}

declare -A claims=([S]=1000 [M]=10000 [L]=10000)
declare -A results=([S]=10000 [M]=100000 [L]=1000000)
declare -A median peak written rows_written

anchor_sql() {
    # The columns, UNIQUE uuid and indexes of `results` (migrations/0005 and
    # 0007), without CHECKs and foreign keys, so that CSV's empty fields load
    # as they are.
    cat <<'SQL'
PRAGMA journal_mode = WAL;
PRAGMA synchronous = FULL;
-- The id column is the rowid, implicit here so that .import fills the other columns.
CREATE TABLE results (
    uuid TEXT NOT NULL UNIQUE, run_id INTEGER NOT NULL, environment_id INTEGER NOT NULL, claim_id INTEGER,
    claim_statement_id INTEGER, result TEXT NOT NULL, posture TEXT, note TEXT NOT NULL DEFAULT '',
    checked_at TEXT, recorded_at TEXT NOT NULL, test_id TEXT, duration REAL, message TEXT);
CREATE INDEX results_by_run ON results (run_id);
CREATE INDEX results_by_claim ON results (claim_id, recorded_at) WHERE claim_id IS NOT NULL;
CREATE INDEX results_decisive ON results (claim_id, environment_id, checked_at, recorded_at)
    WHERE claim_id IS NOT NULL AND result IN ('pass', 'fail');
SQL
}

record() { # size command "seconds peak"
    median["$1/$2"]="${3% *}"
    peak["$1/$2"]="${3#* }"
}

time_runs() { # size command n CMD...
    local size="$1" name="$2" n="$3"; shift 3
    local lines=""
    for _ in $(seq "$n"); do lines+="$("$@")"$'\n'; done
    record "$size" "$name" "$(printf '%s' "$lines" | summarise)"
}

# time_in_turn size n name function [name function ...]: each command once a
# round, n rounds, in turn: a slow spell of the machine then falls on every
# side of a ratio, not on one.
time_in_turn() {
    local size="$1" n="$2"; shift 2
    local -a names=() commands=() lines=()
    while [ $# -gt 0 ]; do names+=("$1"); commands+=("$2"); lines+=(""); shift 2; done
    for _ in $(seq "$n"); do
        for i in "${!names[@]}"; do lines[i]+="$("${commands[i]}")"$'\n'; done
    done
    for i in "${!names[@]}"; do record "$size" "${names[i]}" "$(printf '%s' "${lines[i]}" | summarise)"; done
}

junit="$out/junit-100000.xml"
[ -f "$junit" ] || python3 scripts/bench_data.py junit "$junit" 100000

for size in $sizes; do
    data="$out/$size"
    if [ ! -f "$data/results.csv" ]; then
        echo "generating $size: ${claims[$size]} claims, ${results[$size]} results" >&2
        rm -rf "$data"; mkdir -p "$data"
        python3 scripts/bench_data.py store "$data" "${claims[$size]}" "${results[$size]}"
    fi
    # The generator writes text format version 1; teams exchange version 2,
    # which carries each result's uuid and recording time. One import and one
    # export make it, and the anchor's rows come from the same store.
    if [ ! -f "$data/results-v2.csv" ]; then
        rm -rf "$data/export-v2" "$data/v2.sqlite"*
        "$bin" init --store "$data/v2.sqlite" >/dev/null 2>&1
        "$bin" import "$data/export" --store "$data/v2.sqlite" >/dev/null
        "$bin" export "$data/export-v2" --store "$data/v2.sqlite" >/dev/null
        sqlite3 -csv -header "$data/v2.sqlite" "SELECT uuid, run_id, environment_id, claim_id, claim_statement_id,
            result, posture, note, checked_at, recorded_at, test_id, duration, message FROM results ORDER BY id" \
            > "$data/results-v2.csv.part"
        mv "$data/results-v2.csv.part" "$data/results-v2.csv"
        rm -f "$data/v2.sqlite"*
    fi

    # Every row the import writes, from a store the folder was imported into.
    if [ ! -f "$data/same-rows/import.sql" ]; then
        rm -rf "$data/same-rows" "$data/rows.sqlite"*
        "$bin" init --store "$data/rows.sqlite" >/dev/null 2>&1
        "$bin" import "$data/export-v2" --store "$data/rows.sqlite" >/dev/null
        # import.sql, which names the folder's files, is written last.
        python3 scripts/same_rows_anchor.py "$data/rows.sqlite" "$data/same-rows"
        rm -f "$data/rows.sqlite"*
    fi

    anchor_rows_once() {
        rm -f "$data/anchor-rows.sqlite"*
        sqlite3 "$data/anchor-rows.sqlite" < "$data/same-rows/schema.sql" >/dev/null
        measure sqlite3 "$data/anchor-rows.sqlite" ".read $data/same-rows/import.sql"
    }

    anchor_once() {
        rm -f "$data/anchor.sqlite"*
        anchor_sql | sqlite3 "$data/anchor.sqlite" >/dev/null
        measure sqlite3 "$data/anchor.sqlite" ".mode csv" ".import --skip 1 $data/results-v2.csv results"
    }

    import_once() {
        rm -f "$data/store.sqlite"*
        "$bin" init --store "$data/store.sqlite" 2>/dev/null
        measure "$bin" import "$data/export-v2" --store "$data/store.sqlite"
    }

    import_v1_once() {
        rm -f "$data/store.sqlite"*
        "$bin" init --store "$data/store.sqlite" 2>/dev/null
        measure "$bin" import "$data/export" --store "$data/store.sqlite"
    }
    # The store the commands below read is the last round's import v1.
    time_in_turn "$size" "$runs" "anchor rows" anchor_rows_once anchor anchor_once import import_once "import v1" import_v1_once
    rm -f "$data/anchor-rows.sqlite"* "$data/anchor.sqlite"*

    ingest_once() {
        rm -f "$data/ingest.sqlite"*
        cp "$data/store.sqlite" "$data/ingest.sqlite"
        measure "$bin" ingest "$junit" --store "$data/ingest.sqlite" --simulator "iPhone Duo" --os "iOS 27.1"
    }
    time_runs "$size" ingest "$runs" ingest_once
    rm -f "$data/ingest.sqlite"*

    store="$data/store.sqlite"
    time_runs "$size" report "$runs" measure "$bin" report --store "$store"
    time_runs "$size" "report html" "$runs" measure "$bin" report --format html --store "$store"
    # What a reader gets: the size of each report as published.
    "$bin" report --store "$store" --output "$data/report.md" 2>/dev/null
    "$bin" report --format html --store "$store" --output "$data/report.html" 2>/dev/null
    written["$size/report"]=$(stat -c %s "$data/report.md")
    written["$size/report html"]=$(stat -c %s "$data/report.html")
    rm -f "$data/report.md" "$data/report.html"
    time_runs "$size" checklist "$runs" measure "$bin" checklist --store "$store"
    time_runs "$size" untested "$runs" measure "$bin" untested --store "$store"
    time_runs "$size" "claim show" "$runs" measure "$bin" claim show claim.000042 --store "$store"
    time_runs "$size" log 5 measure "$bin" log claim.000042 --result pass --simulator "iPhone Duo" --os "iOS 27.1" \
        --xcode 27.1 --xcode-build 27A9275 --measure "status-bar clock y=171pt from 87pt" --store "$store"
done

# Ingest against the Python scripts, into a store with the bundled data set.
ingest_store="$out/ingest-base.sqlite"
rm -f "$ingest_store"*
"$bin" init --store "$ingest_store" >/dev/null 2>&1
"$bin" seed --store "$ingest_store" >/dev/null
ingest_pair() { # label file baseline-script
    local label="$1" file="$2" script="$3"
    evidence_once() {
        rm -f "$out/ingest-run.sqlite"*
        cp "$ingest_store" "$out/ingest-run.sqlite"
        measure "$bin" ingest "$file" --store "$out/ingest-run.sqlite" --simulator "iPhone Duo" --os "iOS 27.1"
    }
    baseline_once() {
        rm -f "$out/baseline-run.sqlite"*
        measure python3 "$script" "$file" "$out/baseline-run.sqlite"
    }
    # In turn, as the issue that set the targets measured them.
    time_in_turn ingest "$runs" "$label" evidence_once "$label python" baseline_once
    # The rows each side wrote: both write each device and repetition of a
    # test as a row of its own (a retry that passed does not hide the failure
    # before it).
    rows_written["$label"]="$(sqlite3 "$out/ingest-run.sqlite" "SELECT count(*) FROM results r
        JOIN runs u ON u.id = r.run_id WHERE u.ingested_file_id IS NOT NULL")"
    rows_written["$label python"]="$(sqlite3 "$out/baseline-run.sqlite" "SELECT count(*) FROM results")"
    rm -f "$out/ingest-run.sqlite"* "$out/baseline-run.sqlite"*
}
# The rows alone: SQLite itself inserting and committing 100,000 result rows of
# the shape ingest writes (uuid, run, environment, result, times, test, duration,
# a message for the failures), from a temporary table made beforehand, into a
# copy of the same store, foreign keys on, synchronous=FULL. As ingest does, the
# triggers that keep each claim's latest decisive result are set aside for the
# insert and brought back in the same transaction. Only the statements of the
# transaction are timed, by the shell's .timer: no reader of any file can
# ingest 100,000 cases faster than this.
decisive_triggers="$(sqlite3 "$ingest_store" "SELECT group_concat(sql || ';', char(10)) FROM sqlite_schema
    WHERE type = 'trigger' AND name IN ('latest_decisive_after_insert', 'latest_decisive_after_update')")"
row_floor_sql() {
    cat <<'SQL'
PRAGMA foreign_keys = ON;
PRAGMA synchronous = FULL;
PRAGMA cache_size = -65536;
PRAGMA temp_store = MEMORY;
CREATE TEMP TABLE rows AS
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
SELECT printf('%08x-0000-8000-8000-%012x', r.id, i) AS uuid, r.id AS run_id, r.environment_id AS environment_id,
       CASE i % 50 WHEN 0 THEN 'fail' WHEN 1 THEN 'skipped' ELSE 'pass' END AS result,
       '2026-11-30T12:00:00Z' AS checked_at,
       printf('2026-11-30T12:%02d:%02d.%06dZ', i / 60000000, i / 1000000 % 60, i % 1000000) AS recorded_at,
       printf('Suite%dTests/testCase%d()', i / 1000, i) AS test_id, (i % 100) / 1000.0 AS duration,
       CASE i % 50 WHEN 0 THEN 'XCTAssertEqual failed: ("1") is not equal to ("2")' END AS message
FROM n, (SELECT id, environment_id FROM main.runs ORDER BY id LIMIT 1) AS r;
.timer on
BEGIN;
DROP TRIGGER latest_decisive_after_insert;
DROP TRIGGER latest_decisive_after_update;
INSERT INTO main.results (uuid, run_id, environment_id, result, note, checked_at, recorded_at, test_id, duration, message)
SELECT uuid, run_id, environment_id, result, '', checked_at, recorded_at, test_id, duration, message
FROM temp.rows ORDER BY rowid;
SQL
    printf '%s\n' "$decisive_triggers"
    echo "COMMIT;"
}
row_floor_once() {
    rm -f "$out/floor-run.sqlite"*
    cp "$ingest_store" "$out/floor-run.sqlite"
    row_floor_sql | sqlite3 "$out/floor-run.sqlite" | awk '
        /^Run Time: real/ { total += $4; timed += 1 }
        END { if (timed != 7) { print "the row floor timed " timed " statements, not 7" > "/dev/stderr"; exit 1 }
              printf "%.4f 0\n", total }'
}
time_runs ingest "rows alone" "$runs" row_floor_once
rm -f "$out/floor-run.sqlite"*

ingest_labels=()
for count in $ingest_sizes; do
    file="$out/junit-$count.xml"
    [ -f "$file" ] || python3 scripts/bench_data.py junit "$file" "$count"
    ingest_pair "junit $count" "$file" scripts/junit_baseline.py
    ingest_labels+=("junit $count")
done
xcresult="$out/xcresult-100000.json"
[ -f "$xcresult" ] || python3 scripts/bench_data.py xcresult "$xcresult" 100000
ingest_pair "xcresult 100000" "$xcresult" scripts/xcresult_baseline.py
ingest_labels+=("xcresult 100000")
# The same count of cases in the shape of the real files: most with children.
fixtures="$out/xcresult-fixtures-100000.json"
[ -f "$fixtures" ] || python3 scripts/bench_data.py xcresult-fixtures "$fixtures" 100000
ingest_pair "xcresult fixtures" "$fixtures" scripts/xcresult_baseline.py
ingest_labels+=("xcresult fixtures")

# What ingesting the fixtures' file cannot do without, each timed alone: SQLite
# inserting and committing exactly the rows ingest wrote for it (each
# repetition of a test a result of its own), as the rows-alone line does, from
# a temporary table made beforehand; and the file's SHA-256, which names every
# row and so comes before the first, read and hashed in 1 MB chunks by
# OpenSSL (through Python's hashlib) as ingest does.
fixture_rows="$out/fixtures-rows.sqlite"
rm -f "$fixture_rows"*
cp "$ingest_store" "$fixture_rows"
"$bin" ingest "$fixtures" --store "$fixture_rows" --simulator "iPhone Duo" --os "iOS 27.1" >/dev/null 2>&1
columns() { # table: its stored columns, joined by commas
    sqlite3 "$fixture_rows" "SELECT group_concat(name, ', ') FROM pragma_table_xinfo('$1') WHERE hidden = 0"
}
result_columns="uuid, run_id, environment_id, claim_id, claim_statement_id, result, posture, note, checked_at, recorded_at, test_id, duration, message"
fixture_floor_sql() {
    cat <<SQL
PRAGMA foreign_keys = ON;
PRAGMA synchronous = FULL;
PRAGMA cache_size = -65536;
PRAGMA temp_store = MEMORY;
ATTACH '$fixture_rows' AS written;
INSERT INTO main.environments ($(columns environments)) SELECT $(columns environments) FROM written.environments
    WHERE id NOT IN (SELECT id FROM main.environments);
INSERT INTO main.ingested_files ($(columns ingested_files)) SELECT $(columns ingested_files) FROM written.ingested_files;
INSERT INTO main.runs ($(columns runs)) SELECT $(columns runs) FROM written.runs WHERE ingested_file_id IS NOT NULL;
CREATE TEMP TABLE rows AS SELECT $result_columns FROM written.results
    WHERE run_id IN (SELECT id FROM written.runs WHERE ingested_file_id IS NOT NULL) ORDER BY id;
DETACH written;
.timer on
BEGIN;
DROP TRIGGER latest_decisive_after_insert;
DROP TRIGGER latest_decisive_after_update;
INSERT INTO main.results ($result_columns) SELECT $result_columns FROM temp.rows ORDER BY rowid;
SQL
    printf '%s\n' "$decisive_triggers"
    echo "COMMIT;"
}
fixture_floor_once() {
    rm -f "$out/floor-run.sqlite"*
    cp "$ingest_store" "$out/floor-run.sqlite"
    fixture_floor_sql | sqlite3 -bail "$out/floor-run.sqlite" | awk '
        /^Run Time: real/ { total += $4; timed += 1 }
        END { if (timed != 7) { print "the fixtures row floor timed " timed " statements, not 7" > "/dev/stderr"; exit 1 }
              printf "%.4f 0\n", total }'
}
time_runs ingest "fixtures rows alone" "$runs" fixture_floor_once
rm -f "$out/floor-run.sqlite"*
fixture_hash_once() {
    python3 - "$fixtures" <<'PY'
import hashlib, sys, time
start = time.perf_counter()
digest = hashlib.sha256()
with open(sys.argv[1], "rb") as file:
    while chunk := file.read(1 << 20):
        digest.update(chunk)
digest.hexdigest()
print("%.4f 0" % (time.perf_counter() - start))
PY
}
time_runs ingest "fixtures hash alone" "$runs" fixture_hash_once
fixture_rows_written="$(sqlite3 "$fixture_rows" "SELECT count(*) FROM results r JOIN runs u ON u.id = r.run_id
    WHERE u.ingested_file_id IS NOT NULL")"
rm -f "$fixture_rows"*

printf '\n%-18s %12s %10s %12s %10s %8s %18s\n' file "evidence (s)" "peak (MB)" "python (s)" "peak (MB)" ratio \
    "rows (ours/script)"
for label in "${ingest_labels[@]}"; do
    printf '%-18s %12.3f %10.1f %12.3f %10.1f %7.2fx %18s\n' "$label" "${median[ingest/$label]}" \
        "$(python3 -c "print(${peak[ingest/$label]} / 1024)")" "${median[ingest/$label python]}" \
        "$(python3 -c "print(${peak[ingest/$label python]} / 1024)")" \
        "$(python3 -c "print(${median[ingest/$label]} / ${median[ingest/$label python]})")" \
        "${rows_written[$label]}/${rows_written[$label python]}"
done

floor_ratios="$(python3 -c "
rows, junit, xcresult = ${median[ingest/rows alone]}, '${median[ingest/junit 100000 python]:-}', ${median[ingest/xcresult 100000 python]}
print(('%.2fx the JUnit script at 100,000 cases, ' % (rows / float(junit)) if junit else '') + '%.2fx the xcresult one' % (rows / xcresult))")"
printf '%-18s %12.3f   (SQLite alone writing the rows of 100,000 cases: %s)\n' "rows alone" "${median[ingest/rows alone]}" "$floor_ratios"
fixture_floor="$(python3 -c "
rows, digest, script = ${median[ingest/fixtures rows alone]}, ${median[ingest/fixtures hash alone]}, ${median[ingest/xcresult fixtures python]}
print('%12.3f   (SQLite alone writing the %s rows ingest wrote for the fixtures file, %.3f s, and its SHA-256, %.3f s: %.2fx the script)'
      % (rows + digest, '{:,}'.format($fixture_rows_written), rows, digest, (rows + digest) / script))")"
printf '%-18s %s\n' "fixtures floor" "$fixture_floor"

# Targets: the HTML report of L (10,000 claims, 1,000,000 results) under 3 s and 300 MB;
# the Markdown report of L (newest 20 runs) under 1 s and under 5 MB written.
printf '\n%-5s %-11s %12s %10s %14s %12s %12s\n' size command "median (s)" "peak (MB)" "vs anchor" "output (MB)" \
    "vs rows"
for size in $sizes; do
    for name in anchor "anchor rows" import "import v1" ingest report "report html" checklist untested "claim show" log; do
        key="$size/$name"
        [ -n "${median[$key]:-}" ] || continue
        ratio=""
        rows_ratio=""
        if [ "$name" = import ] || [ "$name" = "import v1" ]; then
            ratio="$(python3 -c "print('%.2fx' % (${median[$key]} / ${median[$size/anchor]}))")"
            rows_ratio="$(python3 -c "print('%.2fx' % (${median[$key]} / ${median[$size/anchor rows]}))")"
        fi
        output=""
        if [ -n "${written[$key]:-}" ]; then
            output="$(python3 -c "print('%.2f' % (${written[$key]} / 1048576))")"
        fi
        printf '%-5s %-11s %12.3f %10.1f %14s %12s %12s\n' "$size" "$name" "${median[$key]}" \
            "$(python3 -c "print(${peak[$key]} / 1024)")" "$ratio" "$output" "$rows_ratio"
    done
done

# Growth: ten times the results (M to L) should cost at most twelve times the time.
if [[ " $sizes " == *" M "* && " $sizes " == *" L "* ]]; then
    printf '\n%-11s %14s\n' command "L/M time"
    for name in anchor import "import v1" ingest report "report html" checklist untested "claim show" log; do
        printf '%-11s %13.2fx\n' "$name" "$(python3 -c "print(${median[L/$name]} / max(${median[M/$name]}, 1e-9))")"
    done
fi
if [[ " $sizes " == *" S "* && " $sizes " == *" M "* ]]; then
    printf '\n%-11s %14s\n' command "M/S time"
    for name in anchor import "import v1" ingest report "report html" checklist untested "claim show" log; do
        printf '%-11s %13.2fx\n' "$name" "$(python3 -c "print(${median[M/$name]} / max(${median[S/$name]}, 1e-9))")"
    done
fi
