#!/usr/bin/env bash
# Issue 54's retrieval evaluation (bench/src/.../RetrievalEval.java): the assistant's retrieval, in-process on the
# compiled classes (no service or jar): hit@5 / MRR@10 per set and kind (eval-dev and bench/eval's page sets), and
# section first / section within the page per half (bench/eval/answers-*.jsonl). Deterministic: no timings.
# Usage: bench/eval/retrieval-eval.sh [corpus-dir]   (../shared/corpus by default; without it the guide's sets only)
# BASE=<commit> first runs the same evaluation on that commit's main classes (paired before/after); MISSES=1 lists
# each miss on stderr.
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus=$(realpath -m "${1:-../shared/corpus}")
sets=(bench/eval/demo-guide.jsonl bench/eval/answers-demo.jsonl)
if [ -d "$corpus/mintlify-docs" ]; then
  sets+=("$corpus"/eval-dev/*.jsonl bench/eval/mintlify-unseen.jsonl bench/eval/answers-mintlify.jsonl
    bench/eval/answers-stagehand.jsonl)
else echo "# no corpus at $corpus: the guide's sets only"; fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mvn -B -o -q compile
mvn -B -o -q dependency:build-classpath -Dmdep.outputFile="$work/cp" -Dmdep.includeScope=runtime >/dev/null
deps=$(cat "$work/cp")

# $1: the service's classes, $2: a name for the runner's folder
run() {
  mkdir -p "$work/eval-$2"
  javac -nowarn -d "$work/eval-$2" -cp "$1:$deps" bench/src/main/java/dev/docsassistant/bench/RetrievalEval.java
  java -cp "$work/eval-$2:$1:$deps" dev.docsassistant.bench.RetrievalEval "$corpus" "${sets[@]}" \
    2> >(if [ -n "${MISSES:-}" ]; then cat >&2; else grep -v '^  ' >&2 || true; fi)
}
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
