#!/usr/bin/env bash
# What the service serves agents (agents.yaml), on mintlify-docs from ../shared/corpus: the MCP server's `search`
# p50/p99 over the eval-dev questions, and llms-full.txt's size and time (made, then kept), llms.txt's.
# Usage: bench/agents.sh [corpus-dir]    (from the project root; builds the jar if missing)
# SEMANTIC=false searches by words only (a first start of mintlify-docs with meaning embeds for minutes);
# INDEX_DIR keeps the built index between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=$(realpath -m "${1:-../shared/corpus}")
[ -d "$corpus/mintlify-docs" ] || { echo "no corpus at $corpus (expected ../shared/corpus)"; exit 2; }
[ -f target/docs-assistant.jar ] || mvn -q -B package -DskipTests
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
printf 'organizations:\n  - id: bench\n    apiKeys: ["mint_dsc_bench_agents"]\n    rateLimitPerHour: 100000000\n    domains:\n      - id: mintlify\n        docs: %s\n' \
  "$corpus/mintlify-docs" > "$work/tenants.yaml"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mgmt=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
ASSISTANT_TENANTS_FILE="$work/tenants.yaml" CAMEL_SERVER_PORT=$port CAMEL_MANAGEMENT_PORT=$mgmt \
  ASSISTANT_RATELIMIT_IP_PER_DAY=100000000 ASSISTANT_RATELIMIT_IP_PER_MINUTE=0 ASSISTANT_WARMUP_REQUESTS=0 \
  ASSISTANT_SEARCH_SEMANTIC=${SEMANTIC:-true} ASSISTANT_SEARCH_INDEX_DIR=${INDEX_DIR:-} \
  java ${JAVA_OPTS:-} -jar target/docs-assistant.jar > "$work/service.log" 2>&1 &
for _ in $(seq 1 6000); do
  curl -sf "http://127.0.0.1:$mgmt/observe/health" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -sf "http://127.0.0.1:$mgmt/observe/health" >/dev/null || { echo "service did not become ready"; tail -50 "$work/service.log"; exit 1; }
echo "# machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -1), semantic ${SEMANTIC:-true}"
node bench/agents.mjs "http://127.0.0.1:$port" mintlify "$corpus/eval-dev/mintlify-docs.jsonl" mint_dsc_bench_agents "${ROUNDS:-11}"
