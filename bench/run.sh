#!/usr/bin/env bash
# bench/run.sh — plan (and apply) time and peak memory of plankit on
# generated terraform_data configurations. Usage: bench/run.sh [e2e|plugin|issue35] [quick]
# "issue35" prints issue 35's four rows (medians of RUNS=3, OpenTofu beside).
# "quick" runs only the small sizes; "e2e" only the end-to-end cases of the
# built binaries (plan -out, plan show -json, plan show, apply, no-op
# re-plan at 4,000 and 100,000 resources; for plan -out and plan show, also
# when the first resource change was printed). With BASE=DIR holding another
# build's plan and apply binaries, each end-to-end case runs with those
# too, in the same run (an A/B against the previous version on a noisy
# machine). COUNT=N adds plan -out of one resource with count = N
# (COUNT=1000000 is the issue's million-instance case). "plugin" runs only
# the plugin-provider cases: plan -out and apply of 1,000 and 10,000
# resources of the rawtest provider (terraform-plugin-go over gRPC)
# against as many terraform_data resources, ROUNDS times each (default
# 5), with plankit's own CPU time (the provider runs under its own
# rusage, so its CPU is taken out), then the medians' difference per
# resource: the gRPC path's overhead. Prints one line per case.
set -euo pipefail
cd "$(dirname "$0")/.."
only_e2e=
only_plugin=
only_issue35=
if [ "${1:-}" = issue35 ]; then only_issue35=1; shift; fi
if [ "${1:-}" = e2e ]; then only_e2e=1; shift; fi
if [ "${1:-}" = plugin ]; then only_plugin=1; shift; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/gen" ./bench/cmd/gen
go build -o "$work/driver" ./bench/cmd/driver
go build -o "$work/firstbyte" ./bench/cmd/firstbyte
go build -o "$work/rusage" ./bench/cmd/rusage
mkdir -p "$work/bin"
go build -o "$work/bin/" ./cmd/plan ./cmd/apply

# issue 35's four rows: each command RUNS times (default 3), medians of
# wall time and peak RSS, with OpenTofu (TOFU, default tofu on PATH) run
# in the same run where it can be; where it
# cannot, the issue's own reference figures are printed, labelled so.
# Row 4 needs the real hashicorp/null provider: NULL_PLUGIN_DIR=DIR, a
# -plugin-dir layout holding registry.terraform.io/hashicorp/null (and
# registry.opentofu.org/hashicorp/null for OpenTofu's run beside it); a
# build of github.com/hashicorp/terraform-provider-null serves.
median() { sort -n | awk '{a[NR] = $1} END {if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
i35_measure() { # label runs dir cleanup-glob command...: prints "median_wall median_rss"
  local label=$1 runs=$2 dir=$3; shift 3
  rm -f "$work/i35-$label.txt"
  for _ in $(seq "$runs"); do
    rm -rf "$dir"/*.tfplan "$dir"/*.tfstate* "$dir/.terraform/terraform.tfstate"
    rm -f "$work/time.txt"
    "$work/rusage" -o "$work/time.txt" "$@" >"$work/out.txt" 2>"$work/err.txt" ||
      { echo "issue35 $label failed:" >&2; tail -20 "$work/err.txt" >&2; echo "- -"; return 0; }
    cat "$work/time.txt" >>"$work/i35-$label.txt"
  done
  # Wall seconds to the millisecond (rusage measures to the microsecond),
  # peak RSS in MiB.
  printf '%s %s\n' "$(awk '{printf "%.3f\n", $1}' "$work/i35-$label.txt" | median)" \
    "$(awk '{printf "%.0f\n", $4 / 1024}' "$work/i35-$label.txt" | median)"
}
run_issue35() {
  local runs=${RUNS:-3} tofu=${TOFU:-$(command -v tofu || true)}
  echo "# issue 35: medians of $runs runs each; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  local d1="$work/i35-chain-1000" d2="$work/i35-ind-8000" d3a="$work/i35-obj-10000" d3="$work/i35-obj-100000"
  "$work/gen" -shape chain -n 1000 -out "$d1"
  "$work/gen" -shape independent -n 8000 -out "$d2"
  "$work/gen" -shape objects -n 10000 -out "$d3a"
  "$work/gen" -shape objects -n 100000 -out "$d3"
  read -r p1w p1m < <(i35_measure pk-chain "$runs" "$d1" "$work/bin/plan" -chdir="$d1" -out=p.tfplan)
  read -r p2w p2m < <(i35_measure pk-ind "$runs" "$d2" "$work/bin/plan" -chdir="$d2" -out=p.tfplan)
  if [ -x "$tofu" ]; then
    (cd "$d1" && TF_IN_AUTOMATION=1 "$tofu" init -input=false >/dev/null 2>&1) || true
    (cd "$d2" && TF_IN_AUTOMATION=1 "$tofu" init -input=false >/dev/null 2>&1) || true
    read -r t1w t1m < <(i35_measure tofu-chain "$runs" "$d1" "$tofu" -chdir="$d1" plan -input=false -out=p.tfplan)
    read -r t2w t2m < <(i35_measure tofu-ind "$runs" "$d2" "$tofu" -chdir="$d2" plan -input=false -out=p.tfplan)
    ref="$({ "$tofu" version 2>/dev/null || true; } | grep -m1 '^OpenTofu' || echo OpenTofu), run in this run"
  else
    t1w=5.3 t1m=- t2w=5.9 t2m=570 ref="issue 35's figures (OpenTofu 1.12.6; not run here)"
  fi
  read -r p3aw p3am < <(i35_measure pk-obj10k "$runs" "$d3a" "$work/bin/plan" -chdir="$d3a" -out=p.tfplan)
  read -r p3w p3m < <(i35_measure pk-obj100k "$runs" "$d3" "$work/bin/plan" -chdir="$d3" -out=p.tfplan)
  echo "# reference: $ref"
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a + 0 > 0 && b + 0 > 0) printf "%.1f", b / a; else print "-"}'; }
  printf '| work | plankit | reference | ratio | target | issue 35 measured (plankit; reference) |\n| --- | --- | --- | --- | --- | --- |\n'
  printf '| plan -out, 1,000 chain | %s s, %s MiB | %s s, %s MiB | %sx | >= 100x, <= 0.050 s | 84 ms; 5.3 s (63x) |\n' "$p1w" "$p1m" "$t1w" "$t1m" "$(ratio "$p1w" "$t1w")"
  printf '| plan -out, 8,000 independent | %s s, %s MiB | %s s, %s MiB | %sx, %sx less memory | >= 20x, <= 140 MiB | 0.31 s, 205 MB; 5.9 s, 570 MB (19x) |\n' \
    "$p2w" "$p2m" "$t2w" "$t2m" "$(ratio "$p2w" "$t2w")" "$(ratio "$p2m" "$t2m")"
  printf '| plan -out, 100,000 objects | %s s, %s MiB; %sx the time of 10,000 (%s s) | - | - | <= 800 MiB, <= 11x | 5.0 s, 871 MB; 13.4x the 10,000 |\n' \
    "$p3w" "$p3m" "$(ratio "$p3aw" "$p3w")" "$p3aw"
  if [ -n "${NULL_PLUGIN_DIR:-}" ]; then
    local d4="$work/i35-null-1000"
    mkdir -p "$d4"
    { printf 'terraform {\n  required_providers {\n    null = { source = "hashicorp/null" }\n  }\n}\nresource "null_resource" "r0" {\n  triggers = { v = "start" }\n}\n'
      for i in $(seq 1 999); do printf 'resource "null_resource" "r%d" {\n  triggers = { v = null_resource.r%d.id }\n}\n' "$i" "$((i - 1))"; done; } >"$d4/main.tf"
    read -r p4w p4m < <(i35_measure pk-null "$runs" "$d4" sh -c 'cd "$1" && "$2/plan" -plugin-dir="$3" -out=p.tfplan && "$2/apply" -plugin-dir="$3" p.tfplan' - "$d4" "$work/bin" "$NULL_PLUGIN_DIR")
    # OpenTofu in a directory of its own (its lock file names
    # registry.opentofu.org; NULL_PLUGIN_DIR must hold that host too).
    local t4w=13 t4m=- ref4="13 s (issue's figure; OpenTofu not run here)"
    if [ -x "$tofu" ]; then
      local d4t="$work/i35-null-1000-tofu"
      mkdir -p "$d4t" && cp "$d4/main.tf" "$d4t/"
      if (cd "$d4t" && TF_IN_AUTOMATION=1 "$tofu" init -input=false -plugin-dir="$NULL_PLUGIN_DIR" >/dev/null 2>&1); then
        read -r t4w t4m < <(i35_measure tofu-null "$runs" "$d4t" sh -c 'cd "$1" && "$2" plan -input=false -out=p.tfplan && "$2" apply -input=false p.tfplan' - "$d4t" "$tofu")
        ref4="$t4w s, $t4m MiB"
      fi
    fi
    printf '| plan + apply, 1,000 null_resource chain | %s s, %s MiB | %s | %sx | >= 10x | 1.9-2.3 s; 13 s (6-7x) |\n' "$p4w" "$p4m" "$ref4" "$(ratio "$p4w" "$t4w")"
  else
    printf '| plan + apply, 1,000 null_resource chain | not run (set NULL_PLUGIN_DIR to the real hashicorp/null) | 13 s (issue'"'"'s figure) | - | >= 10x | 1.9-2.3 s; 13 s (6-7x) |\n'
  fi
}
if [ -n "$only_issue35" ]; then run_issue35; exit 0; fi

# e2e_case LABEL BIN N: the whole commands on N independent resources,
# one line per command: wall time, user and system CPU seconds, peak RSS;
# under it, one line per phase the binary reports with PLANKIT_PHASES=1
# (load, graph, walk, render, archive or state-write: wall and CPU
# seconds, heap at its end, peak RSS so far). A build without phase
# reports (an older BASE) prints only the command lines.
e2e_case() {
  local label=$1 bin=$2 n=$3
  local dir="$work/e2e-$n"
  [ -d "$dir" ] || "$work/gen" -shape independent -n "$n" -out "$dir"
  local st="$work/e2e-$label-$n.tfstate" pf="$work/e2e-$label-$n.tfplan"
  rm -f "$st" "$pf" "$pf.noop"
  one() { # step command...
    local step=$1; shift
    PLANKIT_PHASES=1 /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$@" >"$work/out.txt" 2>"$work/err.txt" ||
      { echo "e2e $label n=$n $step failed:"; cat "$work/err.txt"; return 1; }
    read -r wall user sys rss <"$work/time.txt"
    printf 'e2e %-5s n=%-7s %-12s wall_s=%-6s user_s=%-6s sys_s=%-5s peak_rss_mib=%.0f\n' \
      "$label" "$n" "$step" "$wall" "$user" "$sys" "$((rss / 1024))"
    grep '^plankit-phase ' "$work/err.txt" | sed 's/^plankit-phase /      phase /' || true
    # Human output read through a pipe by firstbyte: when its first
    # resource change came (plan: after the walk ended, from the phase
    # lines; show: after the process started).
    case $step in
    plan-out)
      awk '/^plankit-phase (load|graph|walk) / {sub("wall_s=", "", $3); walk += $3}
        /^first_byte_s=/ {sub("first_byte_s=", "", $1); first = $1}
        END {if (first != "" && first >= 0) printf "      first change %.3f s after the walk ended\n", first - walk}' "$work/err.txt" ;;
    show)
      awk '/^first_byte_s=/ {sub("first_byte_s=", "", $1); printf "      first change %.3f s after the start\n", $1}' "$work/err.txt" ;;
    esac
  }
  one plan-out "$work/firstbyte" -after 'will perform the following actions' "$bin/plan" -chdir="$dir" -state="$st" -out="$pf"
  # show and apply run in the configuration's directory, as users run
  # them (a command there reads the directory's configuration when it
  # could configure encryption).
  pushd "$dir" >/dev/null
  one show-json "$bin/plan" show -json "$pf"
  one show "$work/firstbyte" -after 'will perform the following actions' "$bin/plan" show -no-color "$pf"
  one apply "$bin/apply" -state="$st" "$pf"
  popd >/dev/null
  one noop-replan "$bin/plan" -chdir="$dir" -state="$st" -out="$pf.noop"
}

# e2e_count LABEL BIN N: plan -out of one resource with count = N (the
# issue's 1,000,000-instance case; run with COUNT=N).
e2e_count() {
  local label=$1 bin=$2 n=$3
  local dir="$work/count-$n"
  [ -d "$dir" ] || "$work/gen" -shape count -n "$n" -out "$dir"
  rm -f "$work/count-$label.tfplan"
  PLANKIT_PHASES=1 /usr/bin/time -f '%e %U %S %M' -o "$work/time.txt" "$bin/plan" -chdir="$dir" -state="$work/count-$label.tfstate" -out="$work/count-$label.tfplan" >/dev/null 2>"$work/err.txt" ||
    { echo "e2e $label count=$n plan-out failed:"; cat "$work/err.txt"; return 1; }
  read -r wall user sys rss <"$work/time.txt"
  printf 'e2e %-5s count=%-7s plan-out     wall_s=%-6s user_s=%-6s sys_s=%-5s peak_rss_mib=%.0f\n' \
    "$label" "$n" "$wall" "$user" "$sys" "$((rss / 1024))"
  grep '^plankit-phase ' "$work/err.txt" | sed 's/^plankit-phase /      phase /' || true
}

e2e_sizes="4000 100000"
[ "${1:-}" = quick ] && e2e_sizes=4000
run_e2e() {
  echo "# end to end: the built binaries on independent terraform_data resources${BASE:+ (base: $BASE)}"
  for n in $e2e_sizes; do
    [ -n "${BASE:-}" ] && e2e_case base "$BASE" "$n"
    e2e_case this "$work/bin" "$n"
  done
  if [ -n "${COUNT:-}" ]; then
    [ -n "${BASE:-}" ] && e2e_count base "$BASE" "$COUNT"
    e2e_count this "$work/bin" "$COUNT"
  fi
}
if [ -n "$only_e2e" ]; then run_e2e; exit 0; fi

# plugin_case LABEL BIN KIND N: plan -out of N resources of KIND (rawtest
# or terraform_data) from an empty state, then apply of that plan. One
# line per command: wall time and plankit's user+system CPU per resource,
# the provider's CPU taken out (bench/cmd/rusage measures both to the
# microsecond; the provider runs under its own rusage), the provider's
# CPU per resource and the number of provider processes the command
# started. Each line also goes to $work/plugin.txt for the summary. The
# first round of each build and kind is a warm-up (it records the lock
# file and fills the page cache) and is left out of the summary.
plugin_case() {
  local label=$1 bin=$2 kind=$3 n=$4
  local dir="$work/plugin-$kind-$n"
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir"
    if [ "$kind" = rawtest ]; then
      printf 'terraform {\n  required_providers {\n    rawtest = { source = "plankit/rawtest" }\n  }\n}\nresource "rawtest_thing" "x" {\n  count = %d\n  name  = "n${count.index}"\n  value = "v"\n}\n' "$n" >"$dir/main.tf"
    else
      printf 'resource "terraform_data" "x" {\n  count = %d\n  input = "v${count.index}"\n}\n' "$n" >"$dir/main.tf"
    fi
  fi
  # The lock file stays, as after init (the first round records it).
  rm -f "$dir/p.tfplan" "$dir/terraform.tfstate" "$dir/terraform.tfstate.backup"
  local step
  for step in plan apply; do
    rm -f "$work/provider.cpu" "$work/time.txt"
    local cmd=("$bin/plan" -chdir="$dir" -plugin-dir="$work/plugins" -out=p.tfplan)
    [ "$step" = apply ] && cmd=("$bin/apply" -chdir="$dir" -plugin-dir="$work/plugins" p.tfplan)
    HOME="$work" XDG_CACHE_HOME="$work/cache" "$work/rusage" -o "$work/time.txt" "${cmd[@]}" >"$work/out.txt" 2>"$work/err.txt" ||
      { echo "plugin $label $kind n=$n $step failed:"; cat "$work/err.txt"; return 1; }
    local prov=0 procs=0
    if [ -f "$work/provider.cpu" ]; then
      prov=$(awk '{s += $2 + $3} END {printf "%.6f", s}' "$work/provider.cpu")
      procs=$(wc -l <"$work/provider.cpu")
    fi
    awk -v label="$label" -v kind="$kind" -v n="$n" -v step="$step" -v prov="$prov" -v procs="$procs" '{
      printf "plugin %-5s %-5s %-14s n=%-6s wall_us_per_resource=%-7.1f plankit_cpu_us_per_resource=%-6.1f provider_cpu_us_per_resource=%-6.1f provider_processes=%d\n",
        label, step, kind, n, $1 * 1e6 / n, ($2 + $3 - prov) * 1e6 / n, prov * 1e6 / n, procs }' "$work/time.txt" >"$work/line.txt"
    cat "$work/line.txt"
    if [ "${round:-1}" -gt 0 ]; then cat "$work/line.txt" >>"$work/plugin.txt"; fi
  done
}

# plugin_summary: per build, command and size, the medians of the rounds
# and the overhead of the gRPC path per resource: rawtest minus
# terraform_data, in plankit CPU and in wall time (the issue's target is
# under 100 µs per resource for plan).
plugin_summary() {
  echo "# overhead per resource of the gRPC path (median of the rounds; rawtest minus terraform_data)"
  awk '
    function med(key,   i, j, t, k, m) {
      k = cnt[key]; if (k == 0) return 0
      for (i = 1; i <= k; i++) a[i] = v[key, i]
      for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      m = int((k + 1) / 2); return (k % 2) ? a[m] : (a[m] + a[m + 1]) / 2
    }
    {
      label = $2; step = $3; kind = $4; n = substr($5, 3)
      split($6, w, "="); split($7, c, "=")
      key = label SUBSEP step SUBSEP n
      seen[key] = 1
      kw = key SUBSEP kind SUBSEP "wall"; v[kw, ++cnt[kw]] = w[2]
      kc = key SUBSEP kind SUBSEP "cpu"; v[kc, ++cnt[kc]] = c[2]
    }
    END {
      for (key in seen) {
        split(key, p, SUBSEP)
        printf "plugin %-5s %-5s n=%-6s overhead_cpu_us_per_resource=%-6.1f overhead_wall_us_per_resource=%-6.1f (rawtest cpu %.1f wall %.1f; terraform_data cpu %.1f wall %.1f)\n",
          p[1], p[2], p[3],
          med(key SUBSEP "rawtest" SUBSEP "cpu") - med(key SUBSEP "terraform_data" SUBSEP "cpu"),
          med(key SUBSEP "rawtest" SUBSEP "wall") - med(key SUBSEP "terraform_data" SUBSEP "wall"),
          med(key SUBSEP "rawtest" SUBSEP "cpu"), med(key SUBSEP "rawtest" SUBSEP "wall"),
          med(key SUBSEP "terraform_data" SUBSEP "cpu"), med(key SUBSEP "terraform_data" SUBSEP "wall")
      }
    }' "$work/plugin.txt" | sort
}

run_plugin() {
  echo "# plan -out and apply with a plugin provider (rawtest over gRPC) vs terraform_data in process${BASE:+ (base: $BASE)}; the difference of plankit_cpu is the gRPC path's overhead"
  (cd testdata/providers && GOWORK=off CGO_ENABLED=0 go build -trimpath -o "$work/terraform-provider-rawtest" ./rawtest)
  local pkg="$work/plugins/registry.terraform.io/plankit/rawtest/1.0.0/$(go env GOOS)_$(go env GOARCH)"
  mkdir -p "$pkg"
  printf '#!/bin/sh\nexec %q -self -o %q %q "$@"\n' "$work/rusage" "$work/provider.cpu" "$work/terraform-provider-rawtest" >"$pkg/terraform-provider-rawtest_v1.0.0"
  chmod +x "$pkg/terraform-provider-rawtest_v1.0.0"
  rm -f "$work/plugin.txt"
  local sizes="1000 10000" rounds="${ROUNDS:-5}"
  [ "${1:-}" = quick ] && sizes=1000
  for n in $sizes; do
    for round in $(seq 0 "$rounds"); do
      for kind in rawtest terraform_data; do
        [ -n "${BASE:-}" ] && plugin_case base "$BASE" "$kind" "$n"
        plugin_case this "$work/bin" "$kind" "$n"
      done
    done
  done
  plugin_summary
}
if [ -n "$only_plugin" ]; then run_plugin "${1:-}"; exit 0; fi

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
echo "# plugin providers over gRPC (rawtest: terraform-plugin-go alone; fwtest: terraform-plugin-framework) vs in-process terraform_data, per resource"
plugin_sizes='.*/(1000|10000)$'
[ "${1:-}" = quick ] && plugin_sizes='.*/1000$'
go test -run '^$' -bench "PluginPlanApply/$plugin_sizes" -benchtime 1x -timeout 60m ./internal/providers/plugin/ | grep '^Benchmark'
run_plugin "${1:-}"
run_e2e
