#!/usr/bin/env bash
# Builds a libFuzzer binary for each importer, for the Markdown escaper and for
# reading in pieces (each result file read whole and in pieces of the sizes
# the input's first bytes give, on the one path ingest takes: the same results
# or the same error, or the run stops), and runs them. Each binary compiles the EvidenceStore sources with the target, with
# AddressSanitizer, so a crash, an overflow or a broken invariant stops the run
# and leaves the input that caused it in fuzz-out/<target>/.
#
#   scripts/fuzz.sh                  # every target for 300 seconds each
#   scripts/fuzz.sh junit 60         # one target, 60 seconds
#   FUZZ_JOBS=2 scripts/fuzz.sh      # two targets at a time
#   FUZZ_RUNS=2000 scripts/fuzz.sh differential   # a fixed number of inputs (CI)
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(junit xcresult textformat markdown differential)
if [ $# -ge 1 ] && [ "$1" != "all" ]; then targets=("$1"); fi
seconds="${2:-300}"
jobs="${FUZZ_JOBS:-1}"
out=fuzz-out
mkdir -p "$out"

# The library needs the migrations and seed built in, as the plugin does for swift build.
swift build --product embed-resources >/dev/null
embed="$(swift build --product embed-resources --show-bin-path)/embed-resources"
resources=(); while IFS= read -r file; do resources+=("$file"); done < <(find migrations seed -type f | sort)
"$embed" "$out/EmbeddedResources.swift" "$PWD" "${resources[@]}"

library=(); while IFS= read -r file; do library+=("$file"); done < <(find Sources/EvidenceStore -name '*.swift' | sort)

build() {
    local target="$1" source
    case "$target" in
        junit) source=Fuzz/JUnitFuzz.swift ;;
        xcresult) source=Fuzz/XCResultFuzz.swift ;;
        textformat) source=Fuzz/TextFormatFuzz.swift ;;
        markdown) source=Fuzz/MarkdownFuzz.swift ;;
        differential) source=Fuzz/DifferentialFuzz.swift ;;
        *) echo "unknown target: $target (junit, xcresult, textformat, markdown, differential)" >&2; exit 64 ;;
    esac
    rm -f "$out/fuzz-$target"
    # The C libraries as Package.swift finds them: module maps here, headers and libraries from pkg-config.
    local cflags=() flag
    for flag in $(pkg-config --cflags sqlite3 libxml-2.0 libcrypto); do cflags+=(-Xcc "$flag"); done
    swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name EvidenceStore \
        -I Sources/CSQLite -I Sources/CLibXML2 -I Sources/CCrypto "${cflags[@]}" \
        $(pkg-config --libs sqlite3 libxml-2.0 libcrypto) \
        "${library[@]}" "$out/EmbeddedResources.swift" Fuzz/FuzzCheck.swift Tests/EvidenceStoreTests/Support/Pieces.swift "$source" \
        -o "$out/fuzz-$target" 2>&1 | grep -v 'Cannot export local symbol' || true
    [ -x "$out/fuzz-$target" ] || { echo "$target: the fuzz binary did not build" >&2; exit 70; }
}

corpus() {
    local target="$1" dir="$out/$target/corpus"
    mkdir -p "$dir"
    case "$target" in
        junit) cp Tests/EvidenceStoreTests/Fixtures/apple/junit-*.xml "$dir/" ;;
        xcresult) cp Tests/EvidenceStoreTests/Fixtures/apple/xcresult-*.json "$dir/" ;;
        textformat)
            local kind=0
            for file in sources capabilities claims environment_lacks ingested_files runs results label_history checklists checklist_items test_mappings; do
                local n=0
                while IFS= read -r line && [ $n -lt 20 ]; do
                    { printf "\\$(printf '%03o' "$kind")"; printf '%s' "$line"; } > "$dir/$file-$n"
                    n=$((n + 1))
                done < "seed/$file.jsonl"
                kind=$((kind + 1))
            done ;;
        differential)
            # A format byte (even JUnit, odd xcresult) and four piece sizes, then the file.
            local file n=0
            for file in Tests/EvidenceStoreTests/Fixtures/apple/junit-*.xml; do
                { printf '\000\006\015\002\037'; cat "$file"; } > "$dir/junit-$n"; n=$((n + 1))
            done
            for file in Tests/EvidenceStoreTests/Fixtures/apple/xcresult-tests-*.json; do
                { printf '\001\006\015\002\037'; cat "$file"; } > "$dir/xcresult-$n"; n=$((n + 1))
            done ;;
        markdown) head -c 4000 Tests/EvidenceStoreTests/Golden/report-seed.md > "$dir/report"; printf 'a|b\n<x>[y](z) https://w www.v a@b.c' > "$dir/hostile" ;;
    esac
    echo "$dir"
}

run() {
    local target="$1"
    build "$target"
    local dir; dir="$(corpus "$target")"
    local log="$out/$target/fuzz.log"
    local suppressions="$PWD/Fuzz/lsan.supp"
    local rss=2048
    # Swift's own crash backtracer fights AddressSanitizer; libFuzzer reports crashes itself.
    # Leak reports stay on, with Foundation's own leaks suppressed (Fuzz/lsan.supp).
    # FUZZ_RUNS: a fixed number of inputs, the same on every machine, instead of a time.
    local limit=(-max_total_time="$seconds")
    if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS" -seed=1); fi
    (cd "$out/$target" && SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$suppressions" "../fuzz-$target" "${limit[@]}" -rss_limit_mb="$rss" -max_len=8192 \
        -print_final_stats=1 corpus) >"$log" 2>&1 || { echo "$target: FAILED, see $log" >&2; tail -30 "$log" >&2; return 1; }
    local runs; runs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')"
    echo "$target: ${runs:-?} executions, no crashes and no broken invariants"
}

status=0
if [ "$jobs" -gt 1 ]; then
    pids=()
    for target in "${targets[@]}"; do run "$target" & pids+=($!); done
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
else
    for target in "${targets[@]}"; do run "$target" || status=1; done
fi
exit $status
