#!/bin/sh
# Regenerates the bundled sample logs. The generator is seeded: the same command always writes
# the same bytes (a test checks that the committed files match it).
#   sample.csv / sample.jsonl: 8 weeks (2026-03-02 to 2026-04-26) of the Berlin persona,
#   across the spring-forward night of 2026-03-29.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product routine
routine=.build/release/routine
"$routine" sample --days 56 --seed 1 --start 2026-03-02 --output data/sample.csv
"$routine" sample --days 56 --seed 1 --start 2026-03-02 --format jsonl --output data/sample.jsonl

# The benchmark log (not committed: 76 MB). See docs/performance.md.
if [ "${1:-}" = "--benchmark" ]; then
  "$routine" sample --days 18262 --kinds 120 --seed 1 --start 1976-01-01 --limit 2000000 \
    --output "${2:-/tmp/routine-benchmark.csv}"
fi
