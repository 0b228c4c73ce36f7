#!/usr/bin/env bash
# Mutation testing of the rules code: each mutant is a small deliberate
# mistake (an operator flipped, a value replaced, a function body emptied)
# in a rules file, and the tests of its system must fail for it. A mutant
# they pass is "missed": a rule no test notices breaking. Missed mutants
# fail the run unless mutants-allowed.txt, beside this script, lists them
# with the reason they change nothing.
#
#   scripts/mutants.sh                  mutants on the lines changed since
#                                       $MUTANTS_BASE (default HEAD~1), in
#                                       the committed tree and the working one
#   scripts/mutants.sh --full           every mutant of every rules file
#   scripts/mutants.sh [--full] GROUP.. only these groups: core percentile
#                                       crew-2d6 module-grid action-d10; or
#                                       one file of a group: percentile:damage
#
# Environment: MUTANTS_BASE (the diff base), MUTANTS_MAX (at most this many
# mutants per group in a diff run, default 40: a larger diff runs an even
# spread of that many, and the full run covers the rest), MUTANTS_JOBS
# (parallel builds, default 1), MUTANTS_TIMEOUT (seconds a mutant's tests may
# take before it counts as a hang, default 300), MUTANTS_IN_PLACE=1 (mutate
# the files where they are and build in this tree's target directory, which
# the unmutated run has just built: one cold build instead of two, for a
# throwaway checkout such as CI's; a run cut short leaves a mutant in the
# source), MUTANTS_SHARD=k/n (of the mutants chosen, run only shard k of n,
# counting from 0: a full run split over n checkouts or machines, each with
# its own report). Reports go to target/mutation/<group>/.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=27.1.0
ALLOWED=scripts/mutants-allowed.txt
BASE=${MUTANTS_BASE:-HEAD~1}
MAX=${MUTANTS_MAX:-40}
JOBS=${MUTANTS_JOBS:-1}
TIMEOUT=${MUTANTS_TIMEOUT:-300}
# In place there is one tree to build in, so one mutant at a time.
place=(-j "$JOBS")
if [ "${MUTANTS_IN_PLACE:-0}" = 1 ]; then
  place=(--in-place)
fi

full=false
groups=()
declare -A only=()
for arg in "$@"; do
  case "$arg" in
    --full) full=true ;;
    core | percentile | crew-2d6 | module-grid | action-d10) groups+=("$arg") ;;
    core:* | percentile:* | crew-2d6:* | module-grid:* | action-d10:*)
      groups+=("${arg%%:*}")
      only[${arg%%:*}]+=" ${arg#*:}"
      ;;
    *)
      echo "usage: scripts/mutants.sh [--full] [GROUP|GROUP:FILE]... (groups: core percentile crew-2d6 module-grid action-d10)" >&2
      exit 2
      ;;
  esac
done
if [ ${#groups[@]} -eq 0 ]; then
  groups=(core percentile crew-2d6 module-grid action-d10)
fi
read -r -a groups <<<"$(printf '%s\n' "${groups[@]}" | awk '!seen[$0]++' | tr '\n' ' ')"


# The rules files of a group, or those of them named as GROUP:FILE.
files_of() {
  local f
  for f in $(all_files_of "$1"); do
    if [ -z "${only[$1]:-}" ] || [[ " ${only[$1]} " == *" $(basename "$f" .rs) "* ]]; then
      echo "$f"
    fi
  done
}

all_files_of() {
  case "$1" in
    core) echo crates/broadside-core/src/dice.rs crates/broadside-core/src/montecarlo.rs ;;
    *)
      local crate=crates/broadside-$1/src
      for name in attack damage engagement tactics; do
        [ -f "$crate/$name.rs" ] && echo "$crate/$name.rs"
      done
      ;;
  esac
}

# The packages whose tests a group's mutants run, and the cargo test
# arguments that pick the tests: each system's own unit and integration
# tests (not doc tests, which take long to build and check no rule).
# Percentile's worked examples live in the tests package; the end-to-end
# tests of the binary live in the CLI package, which no group runs.
packages_of() {
  case "$1" in
    percentile) echo broadside-percentile broadside-tests ;;
    *) echo "broadside-$1" ;;
  esac
}

test_args_of() {
  case "$1" in
    percentile)
      echo --lib --test=data --test=determinism
      for t in tests/tests/percentile_*.rs; do
        echo "--test=$(basename "$t" .rs)"
      done
      ;;
    *) echo --lib --tests ;;
  esac
}

# cargo-mutants at the pinned version, installed the first time a group
# has mutants to run, so that a change to no rules file costs nothing.
ensure_cargo_mutants() {
  if ! cargo mutants --version 2>/dev/null | grep -q "cargo-mutants $VERSION"; then
    cargo install --locked cargo-mutants --version "$VERSION"
  fi
}

if ! $full && ! git rev-parse --verify --quiet "$BASE^{commit}" >/dev/null; then
  echo "mutants: no commit $BASE to compare with (a shallow clone?); set MUTANTS_BASE" >&2
  exit 2
fi

# A missed mutant as the allow-list names it: the file and the mutation,
# without the line and column, which move as code is edited.
strip_place() { sed -E 's/^([^:]+):[0-9]+:[0-9]+: /\1: /'; }
allowed=$(mktemp)
trap 'rm -f "$allowed"' EXIT
{ grep -v -e '^#' -e '^[[:space:]]*$' "$ALLOWED" || true; } | sed -E 's/[[:space:]]+#.*$//' | sort >"$allowed"

export INSTA_UPDATE=no
failed=false
summary=()
for group in "${groups[@]}"; do
  read -r -a files <<<"$(files_of "$group" | tr '\n' ' ')"
  file_args=()
  for f in "${files[@]}"; do file_args+=(-f "$f"); done
  read -r -a packages <<<"$(packages_of "$group")"
  read -r -a test_args <<<"$(test_args_of "$group" | tr '\n' ' ')"
  mutant_args=()
  cargo_args=()
  for p in "${packages[@]}"; do
    mutant_args+=(--test-package "$p")
    cargo_args+=(-p "$p")
  done
  for a in "${test_args[@]}"; do mutant_args+=("--cargo-test-arg=$a"); done
  out=target/mutation/$group
  mkdir -p "$out"
  select=("${file_args[@]}")
  if ! $full; then
    git diff --no-ext-diff "$BASE" -- "${files[@]}" >"$out/changes.diff"
    if [ ! -s "$out/changes.diff" ]; then
      echo "mutants: $group: no rules file changed since $BASE"
      continue
    fi
    select+=(--in-diff "$out/changes.diff")
    ensure_cargo_mutants
    count=$(cargo mutants --list "${select[@]}" | wc -l)
    if [ "$count" -eq 0 ]; then
      echo "mutants: $group: no mutant on the changed lines"
      continue
    fi
    if [ "$count" -gt "$MAX" ]; then
      shards=$(((count + MAX - 1) / MAX))
      echo "mutants: $group: $count mutants on the changed lines; running every ${shards}th"
      select+=(--sharding round-robin --shard "0/$shards")
    fi
  fi
  if $full && [ -n "${MUTANTS_SHARD:-}" ]; then
    select+=(--sharding round-robin --shard "$MUTANTS_SHARD")
  fi
  ensure_cargo_mutants
  echo "mutants: $group: ${files[*]}${MUTANTS_SHARD:+ (shard $MUTANTS_SHARD)}"
  # The unmutated tree must pass first. cargo-mutants' own baseline runs
  # the mutated package's tests alone, which cannot name the tests package's
  # targets, so it is run here and skipped there.
  if ! cargo test --profile mutants "${cargo_args[@]}" "${test_args[@]}" >"$out/baseline.log" 2>&1; then
    echo "mutants: $group: the tests fail without any mutant; see $out/baseline.log" >&2
    failed=true
    continue
  fi
  status=0
  cargo mutants "${select[@]}" "${mutant_args[@]}" "${place[@]}" --baseline=skip \
    --timeout "$TIMEOUT" --no-shuffle -o "$out" || status=$?
  # 0: every mutant caught; 2: some missed; 3: some timed out (a hang the
  # tests noticed, counted as caught). Anything else is a failure to run.
  if [ "$status" -ne 0 ] && [ "$status" -ne 2 ] && [ "$status" -ne 3 ]; then
    echo "mutants: $group: cargo mutants failed (exit $status)" >&2
    failed=true
    continue
  fi
  results=$out/mutants.out
  for f in "${files[@]}"; do
    caught=$(cat "$results/caught.txt" "$results/timeout.txt" | grep -c "^$f:" || true)
    missed=$(grep -c "^$f:" "$results/missed.txt" || true)
    viable=$((caught + missed))
    if [ "$viable" -gt 0 ]; then
      score=$((caught * 1000 / viable))
      summary+=("$f: $caught of $viable viable mutants caught ($((score / 10)).$((score % 10))%), $missed missed")
    fi
  done
  # Each entry excuses one mutant: two alike in one function need two.
  unlisted=$(strip_place <"$results/missed.txt" | sort | comm -23 - "$allowed")
  if [ -n "$unlisted" ]; then
    echo "mutants: $group: missed, and not in $ALLOWED:" >&2
    echo "$unlisted" >&2
    failed=true
  fi
done

for line in "${summary[@]}"; do echo "mutants: $line"; done
if $failed; then
  exit 1
fi
