#!/usr/bin/env bash
# The thread store's Redis work per message (bench/ThreadWrites.java) of this build against PARENT's (default
# where this branch left main: git merge-base HEAD main), in alternating rounds against one fresh
# redis-server, so a loaded machine weighs on both alike; prints each round and the medians of A / B.
# Usage: bench/thread-writes.sh [ROUNDS] [MESSAGES]    (from the project root; needs redis-server)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-6}; messages=${2:-4000}
parent=${PARENT:-$(git merge-base HEAD main)}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
mvn -q -B -o compile dependency:build-classpath -Dmdep.outputFile="$work/cp" >/dev/null
mkdir -p "$work/parent-src" "$work/parent-classes"
git archive "$parent" src/main/java | tar -x -C "$work/parent-src"
find "$work/parent-src" -name '*.java' > "$work/sources"
javac -nowarn -proc:none --release 17 -cp "$(cat "$work/cp")" -d "$work/parent-classes" @"$work/sources" 2>/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no > "$work/redis.log" 2>&1 &
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
echo "A = $(git rev-parse --short HEAD) (working tree), B = $(git rev-parse --short "$parent"); $messages messages a round"
echo "| round | A before the model / all (µs per message) | B before the model / all | A / B before the model | A / B all |"
echo "| --- | --- | --- | --- | --- |"
before=(); all=()
for i in $(seq "$rounds"); do
  for side in $( (( i % 2 )) && echo A B || echo B A); do
    classes=target/classes; [ "$side" = B ] && classes=$work/parent-classes:target/classes # its resources (logback.xml) from here
    read -r b m < <(java -cp "$(cat "$work/cp"):$classes" bench/ThreadWrites.java "redis://127.0.0.1:$port/0" "$messages")
    if [ "$side" = A ]; then a_b=$b; a_m=$m; else b_b=$b; b_m=$m; fi
  done
  before+=("$(echo "scale=3; $a_b / $b_b" | bc)"); all+=("$(echo "scale=3; $a_m / $b_m" | bc)")
  echo "| $i | $a_b / $a_m | $b_b / $b_m | ${before[-1]} | ${all[-1]} |"
  redis-cli -p "$port" flushall >/dev/null
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "| median | | | $(median "${before[@]}") | $(median "${all[@]}") |"
