#!/usr/bin/env bash
# Issue 40's answer evaluation of the offline extractive model (bench/src/.../AnswerEval.java): section hit@1, key
# string in the answer (and in its first 600 characters), covered and uncovered questions declined, flattened tables,
# then answers/s (search and answer, one thread). Runs in-process on the compiled classes, no service or jar needed.
# Usage: bench/eval/answers.sh [corpus-dir]   (from anywhere; ../shared/corpus by default; without it only the guide's
# set runs). BASE=<commit> first runs the same evaluation on that commit's main classes (a paired before/after);
# ROUNDS=n timed rounds (default 3, 0 skips the timing); MISSES=1 lists each miss of the tuned
# halves on stderr (MISSES=all those of the measured halves too, which a change must not be tuned on), SHOW=1 every answer.
# RUNNER=RetrievalEval measures the retrieval instead (issue 54, bench/src/.../RetrievalEval.java): these sets' section
# first, and hit@5/MRR per kind of every page set of bench/eval and the corpus's eval-dev.
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus=$(realpath -m "${1:-../shared/corpus}")
sets=(bench/eval/answers-demo.jsonl)
if [ -d "$corpus/mintlify-docs" ]; then sets+=(bench/eval/answers-mintlify.jsonl bench/eval/answers-stagehand.jsonl)
else echo "# no corpus at $corpus: the guide's set only"; fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mvn -B -o -q compile
mvn -B -o -q dependency:build-classpath -Dmdep.outputFile="$work/cp" -Dmdep.includeScope=runtime >/dev/null
deps=$(cat "$work/cp")

# $1: the service's classes; compiles the runner against them and runs it
run() {
  mkdir -p "$work/eval-$2"
  javac -nowarn -d "$work/eval-$2" -cp "$1:$deps" bench/src/main/java/dev/docsassistant/bench/${RUNNER:-AnswerEval}.java
  java -cp "$work/eval-$2:$1:$deps" dev.docsassistant.bench.${RUNNER:-AnswerEval} "$corpus" "${ROUNDS:-3}" "${sets[@]}" \
    2> >(case "${MISSES:-}" in all) cat >&2 ;; "") grep -v '^  ' >&2 || true ;; *) grep -v '^  measured ' >&2 || true ;; esac)
}
echo "# machine: $(nproc) cores, $(java -version 2>&1 | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${BASE:-}" ]; then
  echo "## $BASE (before)"
  mkdir -p "$work/base-src" "$work/base"
  git archive "$BASE" src/main | tar -x -C "$work/base-src"
  javac -nowarn -proc:none -d "$work/base" -cp "$deps" $(find "$work/base-src/src/main/java" -name '*.java')
  cp -r "$work/base-src/src/main/resources/." "$work/base/"
  run "$work/base" base
  echo "## working tree (after)"
fi
run target/classes now
