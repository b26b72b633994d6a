#!/usr/bin/env bash
# Runs a single-file benchmark against a fresh Redis: starts redis-server on a free loopback port, runs PROGRAM on
# the project's classpath with the Redis URL as its argument, stops it.
# Usage: bench/with-redis.sh PROGRAM.java [JAVA_OPTION…]    (from the project root; needs redis-server), e.g.
#   bench/with-redis.sh bench/StoreLookups.java             would a Caffeine cache before key and thread lookups pay?
#   bench/with-redis.sh bench/ThreadExport.java -Xmx64m     100,000 turns exported as NDJSON in bounded memory
set -euo pipefail
cd "$(dirname "$0")/.."
program=$1; shift
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
mvn -q -B -o compile dependency:build-classpath -Dmdep.outputFile="$work/cp" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no > "$work/redis.log" 2>&1 &
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
java "$@" -cp "$(cat "$work/cp"):target/classes" "$program" "redis://127.0.0.1:$port/0"
