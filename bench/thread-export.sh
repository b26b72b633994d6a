#!/usr/bin/env bash
# Thread-export benchmark: 100,000 recorded turns on Redis exported as NDJSON in bounded memory (time, peak heap).
# Starts a redis-server on a free loopback port, runs bench/ThreadExport.java on the project's classpath with a small
# heap (the export is about 100 MB of NDJSON: it must stream), stops it.
# Usage: bench/thread-export.sh    (from the project root; needs redis-server)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
mvn -q -B -o compile dependency:build-classpath -Dmdep.outputFile="$work/cp" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no > "$work/redis.log" 2>&1 &
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.1; done
java -Xmx64m -cp "$(cat "$work/cp"):target/classes" bench/ThreadExport.java "redis://127.0.0.1:$port/0"
