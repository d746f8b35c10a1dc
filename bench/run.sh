#!/usr/bin/env bash
# bench/run.sh — plan (and apply) time and peak memory of plankit on
# generated terraform_data configurations. Usage: bench/run.sh [quick]
# "quick" runs only the small sizes. Prints one line per case.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/gen" ./bench/cmd/gen
go build -o "$work/driver" ./bench/cmd/driver

cases_plan="chain:1000 chain:2000 chain:4000 chain:16000 independent:16000 independent:100000 fanin:16000 count:16000"
cases_apply="independent:10000 independent:100000 chain:4000 hub:8000"
if [ "${1:-}" = quick ]; then
  cases_plan="chain:1000 chain:4000 independent:16000"
  cases_apply="independent:10000 chain:4000 hub:4000"
fi

measure() { # shape n extra-flags...
  local shape=$1 n=$2; shift 2
  local dir="$work/$shape-$n"
  [ -d "$dir" ] || "$work/gen" -shape "$shape" -n "$n" -out "$dir"
  local out
  out=$( { /usr/bin/time -v "$work/driver" -dir "$dir" "$@" 2>"$work/time.txt"; } )
  local rss
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2/1024}' "$work/time.txt")
  printf '%-12s n=%-7s %s peak_rss_mib=%s\n' "$shape" "$n" "$out" "$rss"
}

echo "# plan (configuration load reported separately)"
for c in $cases_plan; do measure "${c%%:*}" "${c##*:}"; done
echo "# plan + apply (final state to ApplyOpts.Persist; the driver's -state FILE persists as the apply command does)"
for c in $cases_apply; do measure "${c%%:*}" "${c##*:}" -apply; done
echo "# plugin provider over gRPC (framework test provider) vs in-process terraform_data, per resource"
plugin_sizes='.*/(1000|10000)$'
[ "${1:-}" = quick ] && plugin_sizes='.*/1000$'
go test -run '^$' -bench "PluginPlanApply/$plugin_sizes" -benchtime 1x -timeout 60m ./providers/plugin/ | grep '^Benchmark'
