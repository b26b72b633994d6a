#!/usr/bin/env bash
# Docs from Git (issue 37): commits ../shared/corpus/mintlify-docs (1,100 pages) into a local repository served by
# `git http-backend` on loopback (bench/git-http.py), starts the service with one domain served from it, and measures
#   first   the first sync and index (clone + parse + embed every passage): seconds to /observe/health UP
#   idle    an unchanged sync through the trigger (POST /v1/project/update): the service's CPU seconds (utime+stime
#           of the whole JVM, /proc) from the trigger to the status' success; target < 1 s
#   change  one page the navigation lists edited, committed, pushed, then the trigger: seconds until POST /v1/search
#           finds its new text; target < 5 s
# Usage (from the project root, after `mvn -B -o -q compile`): bench/docs-sync.sh
# Environment: JAVA (default java), CORPUS (default ../shared/corpus), SEMANTIC (default true), SERVICE_CP (default:
#   target/classes and the compile classpath Maven reports), ROUNDS (unchanged syncs and changes, default 3).
set -euo pipefail
JAVA=${JAVA:-java}
CORPUS=${CORPUS:-../shared/corpus}
ROUNDS=${ROUNDS:-3}
[ -d "$CORPUS/mintlify-docs" ] || { echo "no $CORPUS/mintlify-docs: nothing to measure"; exit 0; }
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
if [ -z "${SERVICE_CP:-}" ]; then
  mvn -B -o -q dependency:build-classpath -Dmdep.outputFile="$work/cp.txt" >/dev/null
  SERVICE_CP="target/classes:$(cat "$work/cp.txt")"
fi
git_() { git -C "$work/docs" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false "$@"; }

mkdir -p "$work/repos" && git init -q --bare -b main "$work/repos/docs.git"
cp -r "$CORPUS/mintlify-docs" "$work/docs" && git init -q -b main "$work/docs"
git_ add -A && git_ commit -q -m corpus && git_ push -q "$work/repos/docs.git" main
python3 bench/git-http.py "$work/repos" "$work/git.port" & pids+=($!)
for _ in $(seq 100); do [ -s "$work/git.port" ] && break; sleep 0.1; done
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
svc_port=$(free_port); mgmt_port=$(free_port)
key=mint_dsc_bench_docs_sync; admin=mint_adm_bench_docs_sync_0123456789
cat > "$work/tenants.yaml" <<YAML
organizations:
  - id: bench
    apiKeys: [$key]
    adminKeys: [$admin]
    domains:
      - id: mintlify
        docs: {git: "http://127.0.0.1:$(cat "$work/git.port")/docs.git", ref: main, refresh: "0"}
YAML

started=$(date +%s.%N)
env CAMEL_SERVER_PORT="$svc_port" CAMEL_MANAGEMENT_PORT="$mgmt_port" ASSISTANT_TENANTS_FILE="$work/tenants.yaml" \
  ASSISTANT_SEARCH_SEMANTIC="${SEMANTIC:-true}" ASSISTANT_SOURCES_DIR="$work/sources" \
  ASSISTANT_SEARCH_INDEX_DIR="$work/index" \
  ASSISTANT_RATELIMIT_IP_PER_MINUTE=1000000 ASSISTANT_RATELIMIT_IP_BURST=1000000 \
  $JAVA ${JAVA_OPTS:-} -cp "$SERVICE_CP" org.apache.camel.main.Main > "$work/service.log" 2>&1 & svc=$!; pids+=($svc)
until curl -sf "http://127.0.0.1:$mgmt_port/observe/health" >/dev/null; do
  kill -0 $svc 2>/dev/null || { tail -30 "$work/service.log"; exit 1; }
  sleep 0.2
done
first=$(echo "$(date +%s.%N) - $started" | bc)
api="http://127.0.0.1:$svc_port"
cpu() { awk '{print $14 + $15}' "/proc/$svc/stat"; }   # clock ticks, user + system, every thread
ticks=$(getconf CLK_TCK)
update() {   # trigger, then wait for success; prints nothing, fails on failure
  local id; id=$(curl -sf -X POST "$api/v1/project/update/mintlify" -H "Authorization: Bearer $admin" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["statusId"])')
  while :; do
    local status; status=$(curl -sf "$api/v1/project/update-status/$id" -H "Authorization: Bearer $admin" \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')
    case $status in success) return 0;; failure) echo "sync failed"; exit 1;; esac
    sleep 0.02
  done
}
found() {
  curl -sf "$api/v1/search/mintlify" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
    -d "{\"query\": \"$1\"}" | grep -q "$1"
}
echo "# $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $($JAVA -version 2>&1 | head -1); $(date -u +%FT%TZ); $(git rev-parse --short HEAD); semantic ${SEMANTIC:-true}"
echo "first sync and index: ${first} s ($(grep -o 'Indexed domain .mintlify.*' "$work/service.log" | head -1))"
sleep 2   # let the JIT and GC of the first index settle before counting CPU
for round in $(seq "$ROUNDS"); do
  before=$(cpu); t0=$(date +%s.%N); update; t1=$(date +%s.%N); after=$(cpu)
  echo "unchanged sync $round: $(echo "scale=3; ($after - $before) / $ticks" | bc) s CPU, $(echo "$t1 - $t0" | bc) s wall"
done
# the first page the navigation lists: a page outside it is not indexed (Mintlify's rules), so never searchable
page=$(python3 -c '
import json, os, sys
def pages(node):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from (v for v in value if isinstance(v, str)) if key == "pages" and isinstance(value, list) else ()
            yield from pages(value)
    elif isinstance(node, list):
        for value in node:
            yield from pages(value)
print(next(p + ".mdx" for p in pages(json.load(open(sys.argv[1] + "/docs.json"))) if os.path.isfile(sys.argv[1] + "/" + p + ".mdx")))
' "$work/docs")
for round in $(seq "$ROUNDS"); do
  word="zorbluxquand$round"
  printf '\n\n## Bench round %s\n\nThe %s setting changes nothing.\n' "$round" "$word" >> "$work/docs/$page"
  git_ commit -q -am "round $round" && git_ push -q "$work/repos/docs.git" main
  t0=$(date +%s.%N)
  curl -sf -o /dev/null -X POST "$api/v1/project/update/mintlify" -H "Authorization: Bearer $admin"
  until found "$word"; do sleep 0.05; done
  echo "changed page $round ($page) searchable after the trigger: $(echo "$(date +%s.%N) - $t0" | bc) s"
done
# each changed-page sync's phases: the log's line names them (fetch, read, index, keep: after the swap, so a line may
# come after its text was found)
for _ in $(seq 100); do [ "$(grep -c "Indexed domain 'mintlify'" "$work/service.log")" -gt "$ROUNDS" ] && break; sleep 0.1; done
grep -E "Indexed domain 'mintlify'" "$work/service.log" | tail -n "$ROUNDS" | cut -c1-330
