#!/usr/bin/env bash
# What a new pod's first burst compiles (issue 42): the service as shipped (JDK 25, the README's -XX options, openai
# via bench's UpstreamStub, 100 tokens x 100 ms) is started, warmed as configured (EXTRA_ENV, e.g.
# ASSISTANT_WARMUP_REQUESTS=0 for a cold start), and sent $N (default 2000) streams over 10 s the moment it is
# ready. Prints the warm-up's line, the JIT's and class loader's counters before and after, and the driver's TTFB;
# the compiled methods before and after are in $OUT/{before,after}.txt (jcmd Compiler.codelist), to diff.
# ROUNDS=n (default 1) sends n bursts one after the other, each with its own questions: the later ones are a warm
# pod's; each prints its TTFB, the server's CPU and its G1 pauses (the service logs them to $OUT/gc.log).
# Usage: [EXTRA_ENV="NAME=value …"] [JAVA_OPTS=…] [ROUNDS=n] [JAVA_HOME=…] bench/burst-jit.sh   (from the project root,
# after packaging)
set -u
cd "$(dirname "$0")/.."
J=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin
CP=target/docs-assistant.jar:bench/target/bench.jar
OUT=${OUT:-target/burst-jit}; rm -rf "$OUT"; mkdir -p "$OUT"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
stub_port=$(free_port); port=$(free_port); mgmt=$(free_port)
"$J/java" -cp "$CP" dev.docsassistant.bench.UpstreamStub "$stub_port" 100 100 0 > "$OUT/stub.log" 2>&1 & stub=$!
printf 'organizations:\n  - id: bench\n    apiKeys: ["mint_dsc_bench_perf"]\n    rateLimitPerHour: 1000000000\n    domains:\n      - id: demo\n        docs: %s\n' \
  "$PWD/src/main/resources/demo-docs" > "$OUT/tenants.yaml"
# shellcheck disable=SC2086 # EXTRA_ENV is NAME=value words
env CAMEL_SERVER_PORT="$port" CAMEL_MANAGEMENT_PORT="$mgmt" ASSISTANT_RATELIMIT_IP_PER_DAY=1000000000 \
    ASSISTANT_RATELIMIT_IP_PER_MINUTE=1000000000 ASSISTANT_RATELIMIT_IP_BURST=1000000000 \
    ASSISTANT_RATELIMIT_IP_MAX_STREAMS=1000000000 ASSISTANT_RATELIMIT_ORG_MAX_STREAMS=1000000000 \
    ASSISTANT_SEARCH_RELOAD_SECONDS=0 ASSISTANT_SEARCH_SEMANTIC=false ASSISTANT_MODEL_PROVIDER=openai \
    ASSISTANT_MODEL_BASE_URL="http://127.0.0.1:$stub_port/v1" ASSISTANT_MODEL_API_KEY=sk-bench \
    ASSISTANT_MODEL_MAX_CONCURRENT=100000 ASSISTANT_TENANTS_FILE="$OUT/tenants.yaml" ${EXTRA_ENV:-} \
    "$J/java" -XX:MaxRAM=2g -XX:MaxRAMPercentage=55 -Xlog:gc:file="$OUT/gc.log" ${JAVA_OPTS:-} -cp "$CP" dev.docsassistant.web.Service \
    > "$OUT/service.log" 2>&1 & svc=$!
trap 'kill $svc $stub 2>/dev/null; wait 2>/dev/null' EXIT
for _ in $(seq 1 600); do curl -sf "localhost:$mgmt/observe/health/ready" >/dev/null && break; sleep 0.5; done
grep -i "warmed up\|warm-up failed" "$OUT/service.log"
counters() { "$J/jstat" -compiler "$svc" | tail -1; "$J/jstat" -class "$svc" | tail -1; }
"$J/jcmd" "$svc" Compiler.codelist > "$OUT/before.txt"; echo "before: $(counters | paste -sd' ')"
for round in $(seq 1 "${ROUNDS:-1}"); do
  # {n}: each question its own, so none is answered from the search cache
  q="How do I run the local preview on a port other than 3000? (round $round question {n})"
  printf '{"fp":"bench","retrievalPageSize":5,"messages":[{"id":"m1","role":"user","content":"%s","parts":[{"type":"text","text":"%s"}]}]}\n' \
    "$q" "$q" > "$OUT/message.json"
  paused=$(grep -c Pause "$OUT/gc.log"); cpu0=$(awk '{print $14 + $15}' "/proc/$svc/stat")
  "$J/java" -cp "$CP" dev.docsassistant.bench.LoadDriver streams --streams="${N:-2000}" --ramp=10 --timeout=120 \
    --pid="$svc" --url="http://127.0.0.1:$port/v1/assistant/demo/message" --body="$OUT/message.json" \
    "--header=Authorization: Bearer mint_dsc_bench_perf" '--first=\n0:"' '--last=\nd:{' '--fail=\n3:"' 2>>"$OUT/driver.err"
  echo "round $round: server CPU $(( ($(awk '{print $14 + $15}' "/proc/$svc/stat") - cpu0) / $(getconf CLK_TCK) )) s, G1 pauses" \
    "$(grep Pause "$OUT/gc.log" | tail -n +$((paused + 1)) | grep -o '[0-9.]*ms$' | tr -d ms | sort -n |
      awk '{v[NR] = $1; s += $1} END {printf "%d, %.0f ms in all, p50 %.1f ms, max %.1f ms", NR, s, v[int(NR / 2) + 1], v[NR]}')"
  [ "$round" = 1 ] && "$J/jcmd" "$svc" Compiler.codelist > "$OUT/after.txt" && echo "after: $(counters | paste -sd' ')"
done
