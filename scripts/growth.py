#!/usr/bin/env python3
"""The growth table: every command that reads or writes in proportion to its
input, timed at 1x, 4x and 16x the work along each axis that can grow on its
own, skewed shapes included (every result on one claim, one document of many
claims, one claim with a long history). Each figure is the median wall time of
the whole process over RUNS runs, minus the start-up (`evidence --version`);
the last column is the time at 16x over the time at 1x, which must stay under
20 for a command that grows in proportion to its work.

    scripts/growth.py                 # prints the Markdown table
    GROWTH_RUNS=5 scripts/growth.py
    GROWTH_ONLY="one claim" scripts/growth.py   # one axis

Uses the binary scripts/release.sh builds (GROWTH_BIN names another); data
goes to bench-out/growth/ (rebuilt every run). Needs python3.
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench-out", "growth")
RUNS = int(os.environ.get("GROWTH_RUNS", "3"))
ONLY = os.environ.get("GROWTH_ONLY")
SIMULATOR = ["--simulator", "iPhone Duo", "--os", "iOS 27.1", "--xcode", "27.1", "--xcode-build", "27A9275"]
KEY = "island.clock-offset.closed"
SEED_DOCUMENT = os.path.join(ROOT, "Tests", "EvidenceStoreTests", "Fixtures", "seeds", "duo-system-surfaces.md")


def release_binary():
    if os.environ.get("GROWTH_BIN"):
        return os.environ["GROWTH_BIN"]
    built = subprocess.run([os.path.join(ROOT, "scripts", "release.sh")], capture_output=True, text=True, check=True)
    return built.stdout.strip().splitlines()[-1]


BIN = release_binary()


def ev(*arguments, store=None, check=True, cwd=None):
    command = [BIN] + list(arguments) + (["--store", store] if store else [])
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd or OUT)
    if check and done.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (done.returncode, " ".join(command), done.stderr))
    return done


def timed(command, prepare=None):
    """The median wall time of `command` over RUNS runs, `prepare` run before each."""
    times = []
    for _ in range(RUNS):
        if prepare:
            prepare()
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=OUT)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            sys.exit("failed (%d): %s\n%s" % (done.returncode, " ".join(command), done.stderr.decode()))
    return statistics.median(times)


def path(name):
    return os.path.join(OUT, name)


def fresh(name):
    """A path for a new file or folder, whatever was there removed."""
    target = path(name)
    for suffix in ("", "-wal", "-shm"):
        if os.path.isdir(target + suffix):
            shutil.rmtree(target + suffix)
        elif os.path.exists(target + suffix):
            os.remove(target + suffix)
    return target


def copy_store(source, name):
    target = fresh(name)
    ev("backup", target, store=source)
    return target


def seeded(name):
    store = fresh(name)
    ev("init", store=store)
    ev("seed", store=store)
    return store


def junit(name, cases, claim=lambda index: KEY):
    with open(path(name), "w") as handle:
        handle.write('<?xml version="1.0"?>\n<testsuites><testsuite name="S" tests="%d">\n' % cases)
        for index in range(cases):
            handle.write('<testcase classname="S" name="test%d_claim:%s" time="0.01"/>\n' % (index, claim(index)))
        handle.write("</testsuite></testsuites>\n")
    return path(name)


# MARK: - Axes: each builds its shape at a size and says what to time.

def one_claim(size):
    """Every result of one CI run on one claim."""
    cases = 2500 * size
    store = seeded("one-claim-%d.sqlite" % size)
    file = junit("one-claim-%d.xml" % size, cases)
    base = path("one-claim-base-%d.sqlite" % size)
    ev("backup", fresh("one-claim-base-%d.sqlite" % size), store=seeded("one-claim-seed-%d.sqlite" % size))
    ev("ingest", file, *SIMULATOR, store=store)
    folder = fresh("one-claim-export-%d" % size)
    ev("export", folder, store=store)
    target = path("one-claim-target-%d.sqlite" % size)
    reset = lambda: copy_store(base, os.path.basename(target))
    return [
        ("ingest (JUnit)", [BIN, "ingest", file, *SIMULATOR, "--store", target], reset),
        ("import", [BIN, "import", folder, "--store", target], reset),
        ("export", [BIN, "export", path("one-claim-out"), "--replace", "--store", store], None),
        ("sync", [BIN, "sync", folder, "--store", store], None),
        ("report", [BIN, "report", "--store", store], None),
        ("report --format html", [BIN, "report", "--format", "html", "--store", store], None),
        ("status", [BIN, "status", "--store", store], None),
        ("untested", [BIN, "untested", "--store", store], None),
        ("history", [BIN, "history", KEY, "--store", store], None),
        ("claim show", [BIN, "claim", "show", KEY, "--store", store], None),
    ]


def one_document(size):
    """One document of many claims, with results spread over them."""
    claims = 500 * size
    data = fresh("one-document-%d" % size)
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench_data.py"), "store", data, str(claims),
                    str(claims * 4), "1"], check=True)
    store = fresh("one-document-%d.sqlite" % size)
    ev("init", store=store)
    ev("import", os.path.join(data, "export"), store=store)
    document = path("one-document-%d.md" % size)
    with open(document, "w") as handle:
        handle.write("---\nname: document-00\n---\n# Synthetic\n\n")
        for n in range(claims):
            handle.write("Synthetic claim %d: the side column makes room for the island. "
                         "<!-- evidence: claim.%06d (%s) -->\n\n" % (n, n, ["measured", "unverified", "not-published", "sourced"][n % 4]))
        handle.write("<!-- evidence:untested -->\n<!-- /evidence:untested -->\n\n"
                     "<!-- evidence:sources -->\n<!-- /evidence:sources -->\n")
    bare = path("one-document-bare-%d.md" % size)
    with open(document) as source, open(bare, "w") as target:
        target.write("".join(line.split(" <!-- evidence: ")[0] + ("\n" if " <!-- evidence: " in line else "")
                             if " <!-- evidence: " in line else line for line in source))
    work = path("one-document-work-%d.md" % size)
    copy = lambda source: (lambda: shutil.copyfile(source, work))
    imported = path("one-document-target-%d.sqlite" % size)
    return [
        ("import", [BIN, "import", os.path.join(data, "export"), "--store", imported],
         lambda: ev("init", store=fresh(os.path.basename(imported)))),
        ("export", [BIN, "export", path("one-document-out"), "--replace", "--store", store], None),
        ("report", [BIN, "report", "--store", store], None),
        ("report --format html", [BIN, "report", "--format", "html", "--store", store], None),
        ("checklist", [BIN, "checklist", "--store", store], None),
        ("sources", [BIN, "sources", "--store", store], None),
        ("untested", [BIN, "untested", "--store", store], None),
        ("status", [BIN, "status", "--store", store], None),
        ("lint", [BIN, "lint", document, "--store", store], None),
        ("lint --write", [BIN, "lint", "--write", work, "--document", "document-00", "--store", store], copy(document)),
        ("lint --sync --dry-run", [BIN, "lint", "--sync", "--dry-run", work, "--document", "document-00", "--store", store],
         copy(document)),
        ("annotate", [BIN, "annotate", work, "--document", "document-00", "--store", store], copy(bare)),
    ]


def paragraphs(size):
    """One long document: the seed's annotated guide and many paragraphs of prose."""
    store = seeded("paragraphs.sqlite")
    with open(SEED_DOCUMENT) as handle:
        guide = handle.read()
    document = path("paragraphs-%d.md" % size)
    with open(document, "w") as handle:
        handle.write(guide + "\n" + "A paragraph of prose about the foldable, long enough to be one.\n\n" * (2500 * size))
    work = path("paragraphs-work.md")
    copy = lambda: shutil.copyfile(document, work)
    return [
        ("lint", [BIN, "lint", document, "--document", "duo-system-surfaces", "--store", store], None),
        ("lint --write", [BIN, "lint", "--write", work, "--document", "duo-system-surfaces", "--store", store], copy),
        ("annotate", [BIN, "annotate", work, "--document", "duo-system-surfaces", "--store", store], copy),
    ]


def environments(size):
    """Many builds of one simulator, each with a run of results."""
    count = 25 * size
    store = seeded("environments-%d.sqlite" % size)
    file = junit("environments.xml", 4, claim=lambda index: ["island.clock-offset.closed", "deep-links.closed-and-open",
                                                             "home-screen.two-pages", "widgets.gallery-outer-display"][index])
    for n in range(count):
        ev("ingest", file, "--simulator", "iPhone Duo", "--os", "iOS 27.1", "--os-build", "24A%d" % (1000 + n),
           "--xcode", "27.1", "--xcode-build", "27A9275", "--date", "2026-10-%02d" % (n % 28 + 1), store=store)
        with open(file, "a") as handle:
            handle.write("<!-- %d -->\n" % n)  # another file each time
    return [
        ("report", [BIN, "report", "--store", store], None),
        ("report --format html", [BIN, "report", "--format", "html", "--store", store], None),
        ("compare", [BIN, "compare", "--model", "iPhone Duo", "--from", "24A1000", "--to", "24A%d" % (1000 + count - 1),
                     "--store", store], None),
        ("status", [BIN, "status", "--store", store], None),
        ("history", [BIN, "history", KEY, "--store", store], None),
        ("claim show", [BIN, "claim", "show", KEY, "--store", store], None),
        ("export", [BIN, "export", path("environments-out"), "--replace", "--store", store], None),
    ]


def history(size):
    """One claim relabelled and reworded many times."""
    count = 30 * size
    store = seeded("history-%d.sqlite" % size)
    labels = ["unverified", "measured"]
    for n in range(count):
        ev("claim", "label", KEY, labels[n % 2], "--reason", "change %d" % n, store=store)
        ev("claim", "edit", KEY, "--statement", "The clock moves down %d pt when an activity is running." % n, store=store)
    folder = fresh("history-export-%d" % size)
    ev("export", folder, store=store)
    target = path("history-target.sqlite")
    return [
        ("claim show", [BIN, "claim", "show", KEY, "--store", store], None),
        ("history", [BIN, "history", KEY, "--store", store], None),
        ("report", [BIN, "report", "--store", store], None),
        ("export", [BIN, "export", path("history-out"), "--replace", "--store", store], None),
        ("import", [BIN, "import", folder, "--store", target], lambda: ev("init", store=fresh("history-target.sqlite"))),
    ]


def runs(size):
    """A team folder of many runs, one file each."""
    count = 40 * size
    store = seeded("runs-%d.sqlite" % size)
    for n in range(count):
        file = junit("runs.xml", 3, claim=lambda index: KEY)
        with open(file, "a") as handle:
            handle.write("<!-- %d -->\n" % n)
        ev("ingest", file, *SIMULATOR, store=store)
    folder = fresh("runs-export-%d" % size)
    ev("export", folder, store=store)
    target = path("runs-target.sqlite")
    return [
        ("export", [BIN, "export", path("runs-out"), "--replace", "--store", store], None),
        ("import", [BIN, "import", folder, "--store", target], lambda: copy_store(seeded("runs-seed.sqlite"), "runs-target.sqlite")),
        ("sync", [BIN, "sync", folder, "--store", store], None),
    ]


def attachments(size):
    """Results with screenshots attached."""
    count = 20 * size
    store = seeded("attachments-%d.sqlite" % size)
    os.makedirs(path("shots"), exist_ok=True)
    for n in range(count):
        shot = path("shots/shot-%d-%d.png" % (size, n))
        with open(shot, "wb") as handle:
            handle.write(b"\x89PNG\r\n\x1a\n" + os.urandom(20000))
        ev("log", KEY, "--result", "pass", *SIMULATOR, "--attach", shot, "--date", "2026-10-20", store=store)
    folder = fresh("attachments-export-%d" % size)
    ev("export", folder, store=store)
    target = path("attachments-target.sqlite")
    return [
        ("export", [BIN, "export", path("attachments-out-%d" % size), "--replace", "--store", store], None),
        ("import", [BIN, "import", folder, "--store", target], lambda: ev("init", store=fresh("attachments-target.sqlite"))),
        ("attachments verify", [BIN, "attachments", "verify", "--store", store], None),
        ("report --format html", [BIN, "report", "--format", "html", "--store", store], None),
    ]


def xcresult(size):
    """xcresulttool's JSON of many test cases, shaped as the fixtures are."""
    file = path("xcresult-%d.json" % size)
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench_data.py"), "xcresult-fixtures", file,
                    str(2500 * size)], check=True)
    base = seeded("xcresult-base.sqlite")
    target = path("xcresult-target.sqlite")
    return [
        ("ingest (xcresult)", [BIN, "ingest", file, "--no-detect", "--store", target],
         lambda: copy_store(base, "xcresult-target.sqlite")),
    ]


def store_size(size):
    """One command's own work in a store that grows: it should not."""
    data = fresh("store-size-%d" % size)
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench_data.py"), "store", data, str(250 * size),
                    str(2500 * size)], check=True)
    store = fresh("store-size-%d.sqlite" % size)
    ev("init", store=store)
    ev("import", os.path.join(data, "export"), store=store)
    return [
        ("log (one result)", [BIN, "log", "claim.000001", "--result", "pass", *SIMULATOR, "--store", store], None),
    ]


AXES = [
    ("results on one claim (2,500 at 1x)", one_claim),
    ("claims in one document (500 at 1x)", one_document),
    ("paragraphs in one document (2,500 at 1x)", paragraphs),
    ("environments and builds (25 at 1x)", environments),
    ("label and statement history of one claim (30 edits of each at 1x)", history),
    ("runs in a team folder (40 at 1x)", runs),
    ("attachments (20 at 1x)", attachments),
    ("xcresult test cases (2,500 at 1x)", xcresult),
    ("results in the store (2,500 at 1x)", store_size),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    startup = statistics.median(timed([BIN, "--version"]) for _ in range(5))
    print("| axis | command | 1x (s) | 4x (s) | 16x (s) | 16x / 1x |")
    print("|---|---|---:|---:|---:|---:|")
    worst = 0.0
    for axis, build in AXES:
        if ONLY and ONLY not in axis:
            continue
        figures = {}
        for size in (1, 4, 16):
            for name, command, prepare in build(size):
                figures.setdefault(name, []).append(max(timed(command, prepare) - startup, 0.0005))
        for name, (one, four, sixteen) in figures.items():
            ratio = sixteen / one
            worst = max(worst, ratio)
            print("| %s | %s | %.3f | %.3f | %.3f | %.1f |" % (axis, name, one, four, sixteen, ratio), flush=True)
    print("\nStart-up (`evidence --version`), subtracted: %.4f s. Largest 16x / 1x: %.1f." % (startup, worst))


if __name__ == "__main__":
    main()
