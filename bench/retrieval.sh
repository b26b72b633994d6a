#!/usr/bin/env bash
# Retrieval benchmark: indexes the three corpora of ../shared/corpus, runs the eval-dev questions through
# POST /v1/search, and reports hit@5, MRR@10, search latency, and index build time and memory per corpus.
# bench/eval/ adds our own questions about the same corpora (see its README), asked the same way, and questions about
# this project's own user guide, asked of the demo domain (the guide bundled in the jar, with its built index).
# Usage: bench/retrieval.sh [corpus-dir]    (from the project root; builds the jar if missing)
# QUALITY_ONLY=1 skips the per-corpus build/memory runs; ONLY=demo asks only the guide's questions (no corpus
# needed); SERVICE="java -cp ..." runs another build of the service.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=$(realpath -m "${1:-../shared/corpus}")
[ "${ONLY:-}" = demo ] || [ -d "$corpus/eval-dev" ] || { echo "no corpus at $corpus (expected ../shared/corpus)"; exit 2; }
[ -f target/docs-assistant.jar ] || mvn -q -B package -DskipTests
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
key=mint_dsc_bench_retrieval

# $1: domains ("name=folder ...", a folder of the corpus or a classpath: location); starts the service on a free port and waits until every index is READY.
start() {
  { echo "organizations:"; echo "  - id: bench"; echo "    apiKeys: [\"$key\"]"; echo "    rateLimitPerHour: 100000000"
    echo "    domains:"; for d in $1; do echo "      - id: ${d%%=*}"; docs=${d#*=}; [[ $docs == classpath:* ]] || docs=$corpus/$docs
    echo "        docs: $docs"; done; } > "$work/tenants.yaml"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  local mgmt; mgmt=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  ASSISTANT_TENANTS_FILE="$work/tenants.yaml" CAMEL_SERVER_PORT=$port CAMEL_MANAGEMENT_PORT=$mgmt \
    ASSISTANT_RATELIMIT_IP_PER_DAY=100000000 ASSISTANT_RATELIMIT_IP_PER_MINUTE=0 \
    ${SERVICE:-java ${JAVA_OPTS:-} -jar target/docs-assistant.jar} > "$work/service.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 3000); do
    curl -sf "http://127.0.0.1:$mgmt/observe/health" >/dev/null 2>&1 && return 0
    grep -q "Cannot index" "$work/service.log" && { cat "$work/service.log"; exit 1; }
    sleep 0.2
  done
  echo "service did not become ready"; tail -50 "$work/service.log"; exit 1
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; }

echo "# machine: $(nproc) cores, $(java -version 2>&1 | head -1)"
echo "## index build time and memory, one corpus per service"
[ -n "${QUALITY_ONLY:-}${ONLY:-}" ] || for d in mintlify=mintlify-docs stagehand=stagehand-docs dify=dify-docs; do
  start "$d"
  jcmd "$pid" GC.run >/dev/null
  heap=$(jcmd "$pid" GC.heap_info | awk '/used/ {print; exit}' | grep -oE 'used [0-9]+K' | grep -oE '[0-9]+')
  rss=$(ps -o rss= -p "$pid")
  echo "$(grep -oE "Indexed domain .*" "$work/service.log") | heap after GC $((heap / 1024)) MiB | RSS $((rss / 1024)) MiB"
  stop
done

echo "## quality and latency, ${ONLY:-all} corpora in one service"
if [ "${ONLY:-}" = demo ]; then
  start "demo=classpath:demo-docs"
  evals=(bench/eval)
else
  start "mintlify=mintlify-docs stagehand=stagehand-docs dify=dify-docs demo=classpath:demo-docs"
  evals=("$corpus/eval-dev" bench/eval)
fi
ONLY=${ONLY:-} node bench/retrieval.mjs "http://127.0.0.1:$port" "$key" "${evals[0]}" "${ROUNDS:-5}" "${evals[@]:1}" \
  || { grep -A30 -m1 "ERROR\|Exception" "$work/service.log"; exit 1; }
grep -oE "Indexed domain .*" "$work/service.log"
stop
