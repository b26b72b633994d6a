#!/usr/bin/env bash
# Performance scenarios (issue 8), each also run against the upstream stub alone so ratios come from one run.
# Usage: bench/perf.sh [scenario…]   (from the project root; default: startup search throughput overhead concurrency)
#   startup      time to ready (/observe/health 200), passages embedded and RSS at idle, for the bundled demo docs
#                (from the jar, then from disk) and each corpus ($STARTUP_DOCS, default "mintlify stagehand dify"):
#                first start (index built into a fresh ASSISTANT_SEARCH_INDEX_DIR), then restart (index opened);
#                for each of $STARTUP_CONFIGS (burst's configurations below, e.g. "aot-warm aot") if set
#   newquestions questions nobody asked before (no cached vector or result), on mintlify-docs with meaning on, then
#                words only: /v1/search p50/p99 at 1 connection, and answers/s (extractive) when $NEWQ (default
#                2000) readers each ask a new one within 1 s; indexes kept in $INDEX_DIR (default: a new folder)
#   search       POST /v1/search on mintlify-docs: queries/s (h2load, 8 connections) and p50/p99 at 1 connection
#   throughput   answers/s at 50 connections (h2load): stub of $TOKENS tokens, no delay; extractive; $PROVIDER,
#                then the AI SDK v4 peer against the same stub and the service / peer ratio
#   peer         the same for $PROVIDER and the peer only (bench/peer: ai@4.3.19, @ai-sdk/openai, MiniSearch over
#                the same docs, one Node process, `npm ci` on first use): stub alone, service, peer, their ratio
#   paired       throughput of two builds or configurations at once, in alternating rounds (SERVICE_JAR and
#                SERVICE_ENV against BASE_JAR and BASE_ENV; default 6 rounds): their ratio in one run, load shared;
#                with the extractive model, then $PROVIDER's (PAIRED_MODELS="$PROVIDER" for the provider's only, as
#                when SERVICE_ENV names another provider: ASSISTANT_MODEL_PROVIDER=openaijava or langchain4j, the
#                model clients of bench/routes/model-clients.yaml); with JFR, A and B are profiled
#                ($JFR/paired-MODEL-{A,B}, see JFR below) for a differential profile; PAIRED_PAIRS=n shares the
#                rounds among n pairs of JVMs started afresh (each warmed up, taking turns at starting first), as two
#                JVMs of one jar can differ by a few per cent for their whole lives
#   cost         what a busy shared machine moves least (issue 56): CPU ms per 1,000 answers and bytes allocated per
#                answer of A ($SERVICE_JAR, $SERVICE_ENV) and B ($BASE_JAR, $BASE_ENV) side by side, alternating
#                rounds of $COST_SECONDS (default 15, $COST_ROUNDS of them, default 4) at 50 connections, through
#                $PROVIDER (default openai) then extractive ($COST_MODELS), and each side's CPU by thread; with JFR, a
#                profiled round of each first ($JFR/cost-MODEL-{A,B}.jfr)
#   overhead     time to the first text token at 1 connection, distinct questions: stub alone, then the service
#                (extractive, then each provider $PROVIDER names: PROVIDER="openai openaijava langchain4j"), with
#                $SERVICE_ENV (NAME=value words, as in paired)
#   concurrency  $STREAMS (default "2000 8000") streams of 100 tokens x 100 ms opened over 10 s: stub alone,
#                then the service (paced bench model, or $PROVIDER proxying the stub); each after rounds of
#                $WARMUP (default 2000, 0 for none) unmeasured streams, until its JIT has settled
#   burst        a new pod's first burst (issue 42): $BURST (default 2000) streams as in concurrency, sent to a
#                service the moment it reports ready (a fresh process), then the same once it is warm (the
#                concurrency scenario's warm-up rounds), and the stub alone; for each of $BURST_CONFIGS (default
#                "default shipped": `java -jar` on $JAVA with no options, as the README's first command runs it, and
#                the production line, $SHIPPED_JAVA (default JDK 25 under /usr/lib/jvm) with the README's -XX options;
#                issue 56's: cold (shipped, warm-up off), aot (shipped with an AOT cache, warm-up off) and aot-warm
#                (the cache and $AOT_WARMUP, NAME=value words, default the warm-up as configured); the cache is
#                trained first, as the Containerfile trains it (-XX:AOTCacheOutput), with $AOT_TRAINING's settings
#                (default: this run's model and search)
#   scaleout     an autoscaler's new pod (issue 56): A (shipped) warm, under a steady $SCALEOUT_RATE (default 50)
#                streams a second, and B ($SCALEOUT_CONFIG, one of burst's, default shipped) started beside it: B's
#                time to ready, then TTFB of B's and A's streams over B's first $SCALEOUT_SECONDS (default 60)
#   records      the store of record (issue 39): paired answers/s with the store on (A) against off (B), then the
#                first-token overhead with it on and off, then rows/s it sustains (RecordsThroughput, $RECORD_ROWS,
#                default 100000, on embedded SQLite, then H2 for comparison; $RECORDS_JDBC_URL too, if set, a PostgreSQL say)
#   floor        the least CPU a token costs this machine's kernel on one loopback hop (LoopbackFloor: a write and
#                a read per token over 1,000 and 8,000 connections, nothing else): the concurrency scenario's
#                tokens cross two such hops
#   jmh          the JMH microbenchmarks (bench/src/main/java/…/jmh, and SseBenchmark beside the provider it reads for)
# Environment: JAVA (default java on PATH; JDK 21+ gives the service virtual threads), CORPUS (../shared/corpus),
#   PROVIDER (an upstream model provider such as openai, proxied to the stub; unset: only what exists without one),
#   SEMANTIC (assistant.search.semantic, default true), STREAMS, TOKENS (default 20), H2LOAD_WARMUP (seconds before
#   throughput is measured, default 90), H2LOAD_ROUNDS (rounds of 15 s measured, default 3), LATENCY_WARMUP
#   (requests before each overhead measurement, default 20000),
#   STUB (node: the stub on node:http, bench/peer/stub.mjs, the default of concurrency, burst and scaleout; jvm:
#   bench's UpstreamStub, the default of the others),
#   SERVICE_JAR (default target/docs-assistant.jar: another build of the service, to compare two in one session),
#   JFR (a folder: record a JFR profile of the service for 20 s of each throughput and concurrency run, and of A and
#   B in paired, each from the first round it goes first in; read it with `jfr view hot-methods`); with
#   ASYNC_PROFILER (libasyncProfiler.so) too, async-profiler's CPU samples instead (bench/profile-families.py sums
#   paired's two by frame family, per answer).
#   AS_CONTAINER (a memory limit such as 2g: the service runs as the Containerfile runs it, with its ENTRYPOINT's -XX options
#   before any JAVA_OPTS, in a memory cgroup of that limit, as a container's; the JVM sizes itself from it. Needs a
#   writable cgroup v2 or v1 memory hierarchy, as root on a VM or a privileged container has.)
#   IDLE (seconds: in concurrency, the service's RSS and committed heap that long after the streams ended, idle)
#   HEAP (a folder: in concurrency, the service's live-object histograms before the streams, 11 s into them when
#   all are open, and after them: $HEAP/streams-N-{before,open,after}.txt; open minus after, over N, is the heap an
#   open stream holds, after minus before what the answers left behind in caches and conversations).
# Needs h2load (Debian: apt-get install nghttp2-client), and Node.js 20+ for the peer. Loopback only; every process it starts is stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA=${JAVA:-java}
CORPUS=$(realpath -m "${CORPUS:-../shared/corpus}")
TOKENS=${TOKENS:-20}
STREAMS=${STREAMS:-2000 8000}
scenarios=${*:-startup search throughput overhead concurrency}
[ -f target/docs-assistant.jar ] || mvn -q -B package -DskipTests
[ -f bench/target/bench.jar ] || mvn -q -B -f bench/pom.xml package
CP=${SERVICE_JAR:-target/docs-assistant.jar}:bench/target/bench.jar
work=$(mktemp -d)
pids=()
cgroup=
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work"; [ -z "$cgroup" ] || rmdir "$cgroup"' EXIT
contained=()   # the prefix that starts the service in the container's memory cgroup (the same pid: sh execs it)
if [ -n "${AS_CONTAINER:-}" ]; then
  limit=$(numfmt --from=iec "${AS_CONTAINER^^}")
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    cgroup=/sys/fs/cgroup/docs-assistant-bench-$$; mkdir "$cgroup"; echo "$limit" > "$cgroup/memory.max"
  else
    cgroup=/sys/fs/cgroup/memory/docs-assistant-bench-$$; mkdir "$cgroup"; echo "$limit" > "$cgroup/memory.limit_in_bytes"
  fi
  contained=(sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cgroup")
  # the heap options of the Containerfile's ENTRYPOINT (its -- options are JDK 24+'s, for its warnings only; its AOT cache the image's)
  JAVA_OPTS="$(sed -n 's/^ENTRYPOINT \[\(.*\)\]$/\1/p' Containerfile | tr -d '",' | tr ' ' '\n' | grep '^-XX:' | grep -v '^-XX:AOT' \
    | paste -sd ' ')${JAVA_OPTS:+ $JAVA_OPTS}"
fi
key=mint_dsc_bench_perf
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
field() { grep -oE "(^| )$2=[^ ]+" <<<"$1" | cut -d= -f2; }
mib() { echo $(( $(awk "/^$2:/ {print \$2}" "/proc/$1/status") / 1024 )); }
# CPU time (user + system, ms) a process has used: per answer, it is what a busy shared machine distorts least.
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$1/stat"; }
# jit_ms PID: the CPU time (ms) of its JIT compiler threads, the part of cpu_ms that a JIT not yet settled adds
jit_ms() {
  local t total=0
  for t in /proc/"$1"/task/*; do
    grep -q '^C[12] CompilerThre' "$t/comm" 2>/dev/null || continue
    total=$(( total + $(awk -v hz="$(getconf CLK_TCK)" '{sub(/^.*\) /, ""); print int(($12 + $13) * 1000 / hz)}' "$t/stat") ))
  done
  echo "$total"
}

# stub TOKENS DELAY_MS FIRST_DELAY_MS: starts the upstream stub; sets stub_pid, stub_url. STUB=node: the one on
# node:http (bench/peer/stub.mjs), the floor for the streams' tail (the JVM's stub has its own JIT and GC in its p99);
# the default of the stream scenarios (concurrency, burst, scaleout), STUB=jvm for bench's UpstreamStub there
stub() {
  local port; port=$(free_port)
  if [ "${STUB:-${stub_default:-jvm}}" = node ]; then node bench/peer/stub.mjs "$port" "$1" "$2" "$3" > "$work/stub.log" 2>&1 &
  else $JAVA -cp "$CP" dev.docsassistant.bench.UpstreamStub "$port" "$1" "$2" "$3" > "$work/stub.log" 2>&1 & fi
  stub_pid=$!; pids+=("$stub_pid"); stub_url="http://127.0.0.1:$port/v1"
  for _ in $(seq 1 100); do grep -q "stub ready" "$work/stub.log" && return 0; sleep 0.1; done
  cat "$work/stub.log"; exit 1
}
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
# main_class JAR: the class the jar starts with (its manifest's), as `java -jar` would: today's warms up before it is
# ready (assistant.warmup.*), an older build's may be Camel's Main
main_class() { unzip -p "$1" META-INF/MANIFEST.MF | sed -n 's/^Main-Class: *//p' | tr -d '\r'; }
# versus_peer: answers/s of the AI SDK v4 peer (bench/peer/server.mjs) on mintlify-docs against the running stub,
# then the ratio of the last row measured ($last_rps, the service through $PROVIDER) to it. The service is stopped
# first: an idle JVM still compiles, and the peer gets the machine the service had.
versus_peer() {
  stop_service
  local service_rps=$last_rps port; port=$(free_port)
  [ -d bench/peer/node_modules ] || npm ci --prefix bench/peer --no-audit --no-fund >/dev/null
  node bench/peer/server.mjs "$port" mintlify "$CORPUS/mintlify-docs" "$stub_url" "$key" > "$work/peer.log" 2>&1 &
  local peer_pid=$!; pids+=("$peer_pid")
  for _ in $(seq 1 600); do grep -q "peer ready" "$work/peer.log" && break; sleep 0.1; done
  grep -q "peer ready" "$work/peer.log" || { cat "$work/peer.log"; exit 1; }
  h2 "AI SDK v4 peer (ai 4.3.19, MiniSearch, one Node process)" "$peer_pid" "http://127.0.0.1:$port/v1/assistant/mintlify/message" \
    "$work/message-same.json"
  echo "| ratio service ($PROVIDER) / peer | $(echo "scale=2; $service_rps / $last_rps" | bc) | | |"
  stop "$peer_pid"
}
stop_service() { [ -z "${svc_pid:-}" ] || stop "$svc_pid"; svc_pid=; svc_args_now=; }

# service DOMAIN PROVIDER [env…]: starts the service for domain demo (bundled docs, read from disk), bundled (the
# same, from the jar, with the index built with it) or mintlify, stagehand, dify (the corpora), and
# waits until it is ready; sets svc_pid, svc_url, ready_s.
# A service already running with the same arguments is reused (the corpus index takes a minute to build).
service() {
  if [ "$*" = "${svc_args_now:-}" ] && kill -0 "$svc_pid" 2>/dev/null; then return 0; fi
  [ -z "${svc_pid:-}" ] || stop_service
  svc_args_now="$*"
  local domain=$1 provider=$2; shift 2
  svc_port=$(free_port); local mgmt_port; mgmt_port=$(free_port)
  local docs=$PWD/src/main/resources/demo-docs   # the bundled docs, read from disk
  [ "$domain" = bundled ] && docs=classpath:demo-docs
  [ -d "$CORPUS/$domain-docs" ] && docs=$CORPUS/$domain-docs
  printf 'organizations:\n  - id: bench\n    apiKeys: ["%s"]\n    rateLimitPerHour: 1000000000\n    domains:\n      - id: %s\n        docs: %s\n' \
    "$key" "$domain" "$docs" > "$work/tenants.yaml"
  local started; started=$(date +%s.%N)
  # One address drives every stream: each per-address and per-organization limit is set out of reach, yet still
  # counted, so its cost is in the figures.
  "${contained[@]}" env CAMEL_SERVER_PORT="$svc_port" CAMEL_MANAGEMENT_PORT="$mgmt_port" ASSISTANT_RATELIMIT_IP_PER_DAY=1000000000 ASSISTANT_SEARCH_RELOAD_SECONDS=0 \
    ASSISTANT_RATELIMIT_IP_PER_MINUTE=1000000000 ASSISTANT_RATELIMIT_IP_BURST=1000000000 \
    ASSISTANT_RATELIMIT_IP_MAX_STREAMS=1000000000 ASSISTANT_RATELIMIT_ORG_MAX_STREAMS=1000000000 \
    ASSISTANT_SEARCH_SEMANTIC="${SEMANTIC:-true}" ASSISTANT_MODEL_PROVIDER="$provider" \
    ASSISTANT_ROUTES_DIR="$PWD/bench/routes" ASSISTANT_TENANTS_FILE="$work/tenants.yaml" "$@" \
    $JAVA ${JAVA_OPTS:-} -cp "$CP" "$(main_class "${CP%%:*}")" > "$work/service.log" 2>&1 &
  svc_pid=$!; pids+=("$svc_pid"); svc_url="http://127.0.0.1:$svc_port"; svc_domain=$domain
  for _ in $(seq 1 6000); do
    # health is on the management port; a SERVICE_JAR from before it had one answers on the API's port
    if curl -sf "http://127.0.0.1:$mgmt_port/observe/health" >/dev/null 2>&1 \
        || curl -sf "$svc_url/observe/health" >/dev/null 2>&1; then
      ready_s=$(echo "$(date +%s.%N) - $started" | bc); return 0
    fi
    kill -0 "$svc_pid" 2>/dev/null && ! grep -q "Cannot index" "$work/service.log" || break
    sleep 0.05
  done
  tail -40 "$work/service.log"; exit 1
}

# The widget's request: a {n} in the question makes every question distinct, so no search is served from cache.
message_body() {
  local q="How do I run the local preview on a port other than 3000? (question {n})"
  printf '{"fp":"bench","retrievalPageSize":5,"messages":[{"id":"m1","role":"user","content":"%s","parts":[{"type":"text","text":"%s"}]}]}' "$q" "$q" > "$work/message.json"
  sed 's/ (question {n})//g' "$work/message.json" > "$work/message-same.json"
  printf '{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"How do I run the local preview on a port other than 3000? (question {n})"}]}' > "$work/chat.json"
  sed 's/ (question {n})//g' "$work/chat.json" > "$work/chat-same.json"
}
message_body
stub_args=(--first='"delta":{"content":"' --last='data: [DONE]')
# an error part, or the notice of an answer that quoted the docs because the model's circuit was open, is a failure
svc_args=(--first='\n0:"' --last='\nd:{' --fail='\n3:"' --fail='"type":"notice"')
auth=("--header=Authorization: Bearer $key")
driver() { $JAVA -cp "$CP" dev.docsassistant.bench.LoadDriver "$@" 2>"$work/driver.err" || { cat "$work/driver.err"; exit 1; }; }
# h2 LABEL PID URL BODY [PROFILE]: answers/s (2xx) over 50 keep-alive connections (h2load), measured in $H2LOAD_ROUNDS
# (default 3) rounds of 15 s after a warm-up of $H2LOAD_WARMUP s (default 90), and the CPU time process PID spent per
# answer in the median round. Through openai the service answered 1,001, 2,538, then 2,908-3,610/s in rounds of 30 s
# after start (the JIT compiled for about a minute), so one 15 s window after 40 s measured the JIT's tail: its
# figure varied from 1,162 to 3,307/s between runs. With PROFILE, the service is profiled (see profile) from the
# first round on.
h2() {
  local label=$1 pid=$2 url=$3 body=$4 prof=${5:-}
  h2load_for "${H2LOAD_WARMUP:-90}" "$url" "$body" > /dev/null
  [ -z "$prof" ] || profile "$prof"
  local rounds=() rps n cpu ok=0 responses=0 o r _
  for _ in $(seq "${H2LOAD_ROUNDS:-3}"); do
    read -r rps n cpu o r _ <<<"$(h2round "$pid" "$url" "$body")"
    rounds+=("$rps $n $cpu"); ok=$(( ok + o )); responses=$(( responses + r ))
  done
  local all; all=$(printf '%s\n' "${rounds[@]}" | awk '{printf " %.0f", $1}')
  read -r rps n cpu <<<"$(printf '%s\n' "${rounds[@]}" | sort -n | sed -n "$(( (${#rounds[@]} + 1) / 2 ))p")"
  printf '| %s | %.0f (rounds:%s) | %s of %s | %s |\n' "$label" "$rps" "$all" "$ok" "$responses" "$(echo "scale=2; $cpu / $n" | bc)"
  last_rps=$rps
}
h2load_for() { # the scenarios measuring answers/s only (burst and scaleout run without it)
  command -v h2load >/dev/null || { echo "h2load missing: apt-get install nghttp2-client" >&2; exit 2; }
  h2load --h1 -c "${CONNECTIONS:-50}" -D "$1" -d "$3" -H 'content-type: application/json' \
    -H "authorization: Bearer $key" "$2"
}
# h2round PID URL BODY: one measured round of 15 s; prints answers/s, answers, the CPU ms process PID spent, 2xx
# and responses (of those whose status arrived: h2load's totals also count requests in flight at the end), and the
# CPU ms its JIT compiler threads spent of it.
h2round() {
  local cpu0 jit0 out codes; cpu0=$(cpu_ms "$1"); jit0=$(jit_ms "$1"); out=$(h2load_for 15 "$2" "$3")
  codes=$(grep -oE '^status codes: .*' <<<"$out" | grep -oE '[0-9]+ [0-9]xx' | cut -d' ' -f1)
  echo "$(grep -oE 'finished in [^,]+, [0-9.]+' <<<"$out" | grep -oE '[0-9.]+$')" \
    "$(grep -oE '[0-9]+ done' <<<"$out" | cut -d' ' -f1)" "$(( $(cpu_ms "$1") - cpu0 ))" \
    "$(head -1 <<<"$codes")" "$(paste -sd+ <<<"$codes" | bc)" "$(( $(jit_ms "$1") - jit0 ))"
}

# profile NAME: with JFR set, records the service for the next 20 s (h2load's run, the streams' ramp) into $JFR/NAME.jfr.
# With ASYNC_PROFILER (the path of libasyncProfiler.so, e.g. from Maven Central's tools.profiler:async-profiler jar)
# it records CPU samples of every thread, native and kernel frames included, as collapsed stacks in $JFR/NAME.collapsed
# (JFR sees only Java frames, and runs its sampler at a cost that distorts these runs). PROFILE_EVENT=alloc records
# the bytes allocated instead, by stack: unlike CPU time, they do not change with the machine's load.
profile() {
  [ -n "${JFR:-}" ] || return 0
  mkdir -p "$JFR"
  local jcmd; jcmd="$(dirname "$(command -v "$JAVA")")/jcmd"
  if [ -n "${ASYNC_PROFILER:-}" ]; then # quoted, or jcmd reads the agent's options as its own name=value arguments
    "$jcmd" "$svc_pid" JVMTI.agent_load "$ASYNC_PROFILER" \
      "\"start,$([ "${PROFILE_EVENT:-cpu}" = cpu ] && echo event=cpu,interval=1ms || echo "event=$PROFILE_EVENT,total"),timeout=20,collapsed,file=$(realpath "$JFR")/$1.collapsed\"" >/dev/null
  else
    "$jcmd" "$svc_pid" JFR.start name=bench settings=profile duration=20s filename="$(realpath "$JFR")/$1.jfr" >/dev/null
  fi
}
# histogram NAME [DELAY]: with HEAP set, the service's live objects (after a full GC) into $HEAP/NAME.txt and, when
# JAVA_OPTS turns on -XX:NativeMemoryTracking, its memory by JVM area (heap, threads' stacks, code…) into
# $HEAP/NAME-native.txt; with a DELAY, that many seconds from now, in the background.
histogram() {
  [ -z "${HEAP:-}" ] && return 0
  mkdir -p "$HEAP"
  local jcmd; jcmd="$(dirname "$(command -v "$JAVA")")/jcmd"
  local take="\"$jcmd\" $svc_pid GC.class_histogram > \"$HEAP/$1.txt\""
  [[ "${JAVA_OPTS:-}" != *NativeMemoryTracking* ]] || take="$take; \"$jcmd\" $svc_pid VM.native_memory summary > \"$HEAP/$1-native.txt\""
  if [ -n "${2:-}" ]; then (sleep "$2"; eval "$take") &
  else eval "$take"; fi
}

echo "# $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(ulimit -n) fds per process, load $(cut -d' ' -f1-3 /proc/loadavg); $($JAVA -version 2>&1 | head -1); $(date -u +%FT%TZ); $(git rev-parse --short HEAD)${SERVICE_JAR:+, service $SERVICE_JAR}"
# The service's configuration beside every figure: the defaults unless this run's environment says otherwise.
echo "# service configuration: search by meaning ${SEMANTIC:-true}, JVM options ${JAVA_OPTS:-none (as java -jar)}${AS_CONTAINER:+ in a $AS_CONTAINER memory limit (as the Containerfile runs it)}, provider ${PROVIDER:-none (extractive, paced bench model)}"

# configure CONFIG: $JAVA, $JAVA_OPTS and $SERVICE_ENV of one of burst's configurations (see the usage above), and its
# row in the scenario's table ($pad: the row's empty cells)
java0=$JAVA; opts0=${JAVA_OPTS:-}; env0=${SERVICE_ENV:-}
configure() {
  SERVICE_ENV=$env0; JAVA=${SHIPPED_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
  JAVA_OPTS="-XX:MaxRAM=2g -XX:MaxRAMPercentage=55 -XX:+ExitOnOutOfMemoryError${opts0:+ $opts0}"
  case $1 in
    default) JAVA=$java0; JAVA_OPTS=$opts0 ;;
    shipped) ;;
    cold) SERVICE_ENV="$env0 ASSISTANT_WARMUP_REQUESTS=0" ;;
    aot|aot-warm)
      [ -f "$work/aot/docs-assistant.aot" ] || train_aot
      JAVA_OPTS="$JAVA_OPTS -XX:AOTCache=$work/aot/docs-assistant.aot -Xlog:aot*=off"
      if [ "$1" = aot ]; then SERVICE_ENV="$env0 ASSISTANT_WARMUP_REQUESTS=0"
      else SERVICE_ENV="$env0 ${AOT_WARMUP:-}"; fi ;;
    *) echo "unknown configuration $1"; exit 2 ;;
  esac
  echo "| **$1**: $($JAVA -version 2>&1 | head -1), options: ${JAVA_OPTS:-none}${SERVICE_ENV:+, $SERVICE_ENV}$pad"
}
# train_aot: JDK 25's AOT cache in $work/aot, as the Containerfile trains it: the service with this run's class path
# and shipped options, -XX:AOTCacheOutput, its warm-up, then its exit (the JVM writes the cache); $AOT_TRAINING
# (NAME=value words) are its settings, by default this run's model and search
train_aot() {
  mkdir -p "$work/aot"; local started; started=$(date +%s.%N)
  local model=(ASSISTANT_MODEL_PROVIDER="${PROVIDER:-extractive}")
  # shellcheck disable=SC2086 # NAME=value words
  env "${model[@]}" ASSISTANT_SEARCH_SEMANTIC="${SEMANTIC:-true}" ${AOT_TRAINING:-} $JAVA $JAVA_OPTS \
    -XX:AOTCacheOutput="$work/aot/docs-assistant.aot" -cp "$CP" "$(main_class "${CP%%:*}")" > "$work/aot/training.log" 2>&1 \
    || { tail -20 "$work/aot/training.log"; exit 1; }
  echo "|   (AOT cache trained in $(echo "$(date +%s.%N) - $started" | bc | cut -d. -f1) s: $(grep -oE 'Warmed up in [0-9.]+ s: [0-9]+ answers' "$work/aot/training.log"), $(( $(stat -c %s "$work/aot/docs-assistant.aot") / 1048576 )) MiB${AOT_TRAINING:+, $AOT_TRAINING})$pad"
}
for scenario in $scenarios; do stub_default=; case $scenario in
startup)
  pad=' | | | | | | |'
  echo; echo "## startup: time to ready and RSS at idle (semantic=${SEMANTIC:-true})"
  echo "| docs | start | ready after | CPU until ready | passages embedded | RSS at idle (10 s after ready) | peak RSS (VmHWM) |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  # each of $STARTUP_CONFIGS (burst's configurations: issue 56's ready time as shipped), or once as this run's JVM
  for config in ${STARTUP_CONFIGS:--}; do
    [ "$config" = - ] || configure "$config"
    for d in bundled demo ${STARTUP_DOCS:-mintlify stagehand dify}; do
      rm -rf "$work/index"
      for start in first restart; do
        [ "$d" = bundled ] && [ "$start" = restart ] && continue # its index is in the jar: every start is a restart
        # shellcheck disable=SC2086 # NAME=value words
        service "$d" extractive ASSISTANT_SEARCH_INDEX_DIR="$work/index" ${SERVICE_ENV:-}; cpu=$(cpu_ms "$svc_pid"); sleep 10
        embedded=$(grep -oE "Indexed domain '$d'.* ([0-9]+) passages embedded" "$work/service.log" | grep -oE '[0-9]+ passages' | cut -d' ' -f1)
        printf '| %s | %s%s | %.1f s | %.1f s | %s | %s MiB | %s MiB |\n' "$d" "$start" \
          "$(grep -oE 'Warmed up in [0-9.]+ s' "$work/service.log" | sed 's/^/, /')" "$ready_s" "$(bc <<<"scale=1; $cpu / 1000")" \
          "$embedded" "$(mib "$svc_pid" VmRSS)" "$(mib "$svc_pid" VmHWM)"
        stop_service
      done
    done
    JAVA=$java0; JAVA_OPTS=$opts0; SERVICE_ENV=$env0
  done ;;
newquestions)
  echo; echo "## newquestions: mintlify, every question new; search at 1 connection, answers (extractive) to ${NEWQ:-2000} readers arriving within 1 s"
  echo "| search | /v1/search p50 / p99 (ms) | readers | answers/s | first byte p50 / p99 (ms) | errors |"
  echo "| --- | --- | --- | --- | --- | --- |"
  printf '{"query":"How do I run the local preview on a port other than 3000? (question {n})","pageSize":5}' > "$work/newq.json"
  for semantic in true false; do
    SEMANTIC=$semantic service mintlify extractive ASSISTANT_SEARCH_INDEX_DIR="${INDEX_DIR:-$work/index}"
    s=$(driver latency --url="$svc_url/v1/search/mintlify" --body="$work/newq.json" "${auth[@]}" --first='[' --last=']' --warmup=300 --requests=2000)
    r=$(driver streams --url="$svc_url/v1/assistant/mintlify/message" --body="$work/message.json" "${auth[@]}" "${svc_args[@]}" \
      --streams="${NEWQ:-2000}" --ramp=1 --timeout=300 --pid="$svc_pid")
    printf '| %s | %s / %s | %s | %.0f | %s / %s | %s |\n' "$([ $semantic = true ] && echo 'words + meaning' || echo 'words only')" \
      "$(field "$s" ttfb_p50)" "$(field "$s" ttfb_p99)" "$(field "$r" streams)" \
      "$(bc <<<"scale=1; $(field "$r" completed) / $(field "$r" seconds)")" "$(field "$r" ttfb_p50)" "$(field "$r" ttfb_p99)" \
      "$(( $(field "$s" errors) + $(field "$r" errors) ))"
    stop_service
  done ;;
search)
  echo; echo "## search: POST /v1/search/mintlify, pageSize 10 (semantic=${SEMANTIC:-true})"
  service mintlify extractive
  printf '{"query":"How do I run the local preview on a port other than 3000? {n}","pageSize":10}' > "$work/search.json"
  sed 's/ {n}//' "$work/search.json" > "$work/search-same.json"
  r=$(driver latency --url="$svc_url/v1/search/mintlify" --body="$work/search.json" "${auth[@]}" --first='[' --last=']' --warmup=300 --requests=2000)
  echo "| 1 connection, distinct queries | p50 $(field "$r" ttfb_p50) ms | p99 $(field "$r" ttfb_p99) ms | errors $(field "$r" errors) |"
  echo "| connections | queries/s | 2xx | service CPU ms per query |"; echo "| --- | --- | --- | --- |"
  CONNECTIONS=8 h2 "8, the same query" "$svc_pid" "$svc_url/v1/search/mintlify" "$work/search-same.json"
  ;;
throughput)
  echo; echo "## throughput: answers/s at 50 connections, the same question, stub of $TOKENS tokens with no delay"
  echo "| target | answers/s, median of ${H2LOAD_ROUNDS:-3} rounds of 15 s | 2xx of responses | CPU ms per answer (of the process answering, median round) |"; echo "| --- | --- | --- | --- |"
  stub "$TOKENS" 0 0
  h2 "stub alone" "$stub_pid" "$stub_url/chat/completions" "$work/chat-same.json"; stub_rps=$last_rps
  service mintlify extractive
  h2 "service, extractive model (mintlify-docs)" "$svc_pid" "$svc_url/v1/assistant/mintlify/message" "$work/message-same.json" extractive
  echo "| ratio extractive / stub | $(echo "scale=2; $last_rps / $stub_rps" | bc) | | |"
  if [ -n "${PROVIDER:-}" ]; then
    service mintlify "$PROVIDER" ASSISTANT_MODEL_BASE_URL="$stub_url" ASSISTANT_MODEL_API_KEY=sk-bench ASSISTANT_MODEL_MAX_CONCURRENT=100000
    h2 "service, $PROVIDER model (mintlify-docs)" "$svc_pid" "$svc_url/v1/assistant/mintlify/message" "$work/message-same.json" \
      "$PROVIDER"
    echo "| ratio $PROVIDER / stub | $(echo "scale=2; $last_rps / $stub_rps" | bc) | | |"
    versus_peer
  fi
  stop "$stub_pid" ;;
peer)
  [ -n "${PROVIDER:-}" ] || { echo "peer: set PROVIDER (openai), the provider the peer is measured against"; exit 2; }
  echo; echo "## peer: answers/s at 50 connections, the same question, stub of $TOKENS tokens with no delay: the service through $PROVIDER and the AI SDK v4 peer"
  echo "| target | answers/s, median of ${H2LOAD_ROUNDS:-3} rounds of 15 s | 2xx of responses | CPU ms per answer (of the process answering, median round) |"; echo "| --- | --- | --- | --- |"
  stub "$TOKENS" 0 0
  h2 "stub alone" "$stub_pid" "$stub_url/chat/completions" "$work/chat-same.json"
  service mintlify "$PROVIDER" ASSISTANT_MODEL_BASE_URL="$stub_url" ASSISTANT_MODEL_API_KEY=sk-bench ASSISTANT_MODEL_MAX_CONCURRENT=100000
  h2 "service, $PROVIDER model (mintlify-docs)" "$svc_pid" "$svc_url/v1/assistant/mintlify/message" "$work/message-same.json" "$PROVIDER"
  versus_peer
  stop "$stub_pid" ;;
paired)
  # Two builds (or configurations) running side by side against one stub, measured in alternating rounds, so the
  # machine's load in a round weighs on both alike: SERVICE_JAR with $SERVICE_ENV against $BASE_JAR (default: the
  # same jar) with $BASE_ENV. Each variable holds NAME=value words.
  base_jar=${BASE_JAR:-${SERVICE_JAR:-target/docs-assistant.jar}}; a_jar=${SERVICE_JAR:-target/docs-assistant.jar}
  echo; echo "## paired: answers/s at 50 connections, A = $a_jar ${SERVICE_ENV:-} against B = $base_jar ${BASE_ENV:-}, rounds of 15 s alternating"
  stub "$TOKENS" 0 0
  for provider in ${PAIRED_MODELS:-extractive ${PROVIDER:-}}; do
    penv=(); [ "$provider" = extractive ] || penv=(ASSISTANT_MODEL_BASE_URL="$stub_url" ASSISTANT_MODEL_API_KEY=sk-bench ASSISTANT_MODEL_MAX_CONCURRENT=100000)
    # Two JVMs of one jar differ by a few per cent for the whole of their lives (the JIT's choices), which no number
    # of rounds averages out: PAIRED_PAIRS fresh pairs, each warmed up, share the rounds.
    pairs=${PAIRED_PAIRS:-1}; per_pair=$(( (${H2LOAD_ROUNDS:-6} + pairs - 1) / pairs ))
    echo; echo "### $provider model (mintlify-docs)${PAIRED_PAIRS:+, $pairs pairs of JVMs, $per_pair rounds each}"
    # the JIT's share apart: a side whose JIT has not settled spends CPU a settled one does not (through openai the
    # JIT compiles for minutes), so "without the JIT" is the steady cost per answer and "JIT s" says how settled
    echo "| round | A answers/s | B answers/s | A / B | A CPU ms / answer | B CPU ms / answer | A / B CPU | A / B CPU without the JIT | JIT s A / B |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    ratios=(); cpu_ratios=(); app_ratios=(); a_pid=; b_pid=
    for i in $(seq "${H2LOAD_ROUNDS:-6}"); do
      if (( (i - 1) % per_pair == 0 )); then
        [ -z "$a_pid" ] || { stop "$a_pid"; stop "$b_pid"; }
        # the pairs take turns at which side starts and warms up first
        for side in $( (( (i - 1) / per_pair % 2 )) && echo A B || echo B A); do
          if [ "$side" = B ]; then
            # shellcheck disable=SC2086 # NAME=value words
            CP=$base_jar:bench/target/bench.jar service mintlify "$provider" "${penv[@]}" ${BASE_ENV:-}
            b_pid=$svc_pid; b_url=$svc_url/v1/assistant/mintlify/message
          else
            # shellcheck disable=SC2086
            CP=$a_jar:bench/target/bench.jar service mintlify "$provider" "${penv[@]}" ${SERVICE_ENV:-}
            a_pid=$svc_pid; a_url=$svc_url/v1/assistant/mintlify/message
          fi
          svc_pid=; svc_args_now=
        done
        # what each process was started with: a later NAME=value of the same name overrides perf.sh's own
        (( i > 1 )) || for side in A:$a_pid B:$b_pid; do
          echo "# $provider, ${side%%:*}'s limits: $(tr '\0' '\n' < "/proc/${side#*:}/environ" | grep '^ASSISTANT_RATELIMIT_' | sort | paste -sd' ')"
        done
        h2load_for "${H2LOAD_WARMUP:-90}" "$b_url" "$work/message-same.json" > /dev/null
        h2load_for "${H2LOAD_WARMUP:-90}" "$a_url" "$work/message-same.json" > /dev/null
      fi
      # With JFR, A is profiled from its round 1 and B from its round 2, each going first in its round: a profile's
      # 20 s are the round it measures and 5 s idle while the other runs, the same for both
      if (( i % 2 )); then (( i > 1 )) || svc_pid=$a_pid profile "paired-$provider-A"
        ra=$(h2round "$a_pid" "$a_url" "$work/message-same.json"); rb=$(h2round "$b_pid" "$b_url" "$work/message-same.json")
      else (( i > 2 )) || svc_pid=$b_pid profile "paired-$provider-B"
        rb=$(h2round "$b_pid" "$b_url" "$work/message-same.json"); ra=$(h2round "$a_pid" "$a_url" "$work/message-same.json"); fi
      read -r a_rps a_n a_cpu _ _ a_jit <<<"$ra"; read -r b_rps b_n b_cpu _ _ b_jit <<<"$rb"
      a_per=$(echo "scale=4; $a_cpu / $a_n" | bc); b_per=$(echo "scale=4; $b_cpu / $b_n" | bc)
      ratios+=("$(echo "scale=3; $a_rps / $b_rps" | bc)"); cpu_ratios+=("$(echo "scale=3; $a_per / $b_per" | bc)")
      app_ratios+=("$(echo "scale=3; ($a_cpu - $a_jit) / $a_n / (($b_cpu - $b_jit) / $b_n)" | bc)")
      printf '| %s | %.0f | %.0f | %s | %.3f | %.3f | %s | %s | %.1f / %.1f |\n' "$i" "$a_rps" "$b_rps" "${ratios[-1]}" "$a_per" "$b_per" \
        "${cpu_ratios[-1]}" "${app_ratios[-1]}" "$(echo "scale=1; $a_jit / 1000" | bc)" "$(echo "scale=1; $b_jit / 1000" | bc)"
    done
    median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
    echo "| median | | | $(median "${ratios[@]}") | | | $(median "${cpu_ratios[@]}") | $(median "${app_ratios[@]}") | |"
    stop "$a_pid"; stop "$b_pid"
  done
  stop "$stub_pid" ;;
cost)
  # What a busy shared machine moves least (issue 56): the service's CPU ms per 1,000 answers (user + system, from
  # /proc; apart, its JIT compiler threads' share) and the bytes it allocates per answer (JFR's per-thread
  # allocation counters at a round's start and end), for A ($SERVICE_JAR, $SERVICE_ENV) and B ($BASE_JAR, $BASE_ENV)
  # started side by side, each warmed by $H2LOAD_WARMUP s (default 90) at 50 connections, then alternating rounds of
  # $COST_SECONDS (default 15; $COST_ROUNDS rounds, default 4): mintlify-docs, the same question, through $PROVIDER
  # (default openai) to a stub of $TOKENS tokens with no delay, and with the extractive model (COST_MODELS).
  base_jar=${BASE_JAR:-${SERVICE_JAR:-target/docs-assistant.jar}}; a_jar=${SERVICE_JAR:-target/docs-assistant.jar}
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<configuration version="2.0"><event name="jdk.ThreadAllocationStatistics"><setting name="enabled">true</setting><setting name="period">everyChunk</setting></event></configuration>\n' > "$work/alloc.jfc"
  jdk_bin=$(dirname "$(command -v "$JAVA")")
  # allocated PID ROUND: starts counting (ROUND=start) or prints the bytes PID's threads allocated since (ROUND=end):
  # the two snapshots of each thread a recording holds (a thread started meanwhile counts from 0)
  allocated() {
    if [ "$2" = start ]; then "$jdk_bin/jcmd" "$1" JFR.start name=cost settings="$work/alloc.jfc" >/dev/null; return; fi
    "$jdk_bin/jcmd" "$1" JFR.stop name=cost filename="$work/cost-$1.jfr" >/dev/null
    "$jdk_bin/jfr" print --json --events jdk.ThreadAllocationStatistics "$work/cost-$1.jfr" | python3 -c '
import json, sys
seen = {}
events = json.load(sys.stdin)["recording"]["events"]
times = sorted(e["values"]["startTime"] for e in events)
for e in events:
    seen.setdefault(e["values"]["thread"]["javaThreadId"], []).append((e["values"]["startTime"], e["values"]["allocated"]))
# a thread with one snapshot started during the round (counted whole) if it is the end one, else it ended (lost)
print(sum(s[-1][1] - s[0][1] if len(s) > 1 else s[0][1] * (s[0][0] > times[len(times) // 2]) for s in seen.values()))'
  }
  # thread_cpu PID: each of its threads' CPU ticks, "name ticks" (a name's digits dropped: a pool's threads together)
  thread_cpu() {
    local t
    for t in /proc/"$1"/task/*; do
      echo "$(tr -d '0-9 ' < "$t/comm" 2>/dev/null) $(awk '{sub(/^.*\) /, ""); print $12 + $13}' "$t/stat" 2>/dev/null)"
    done
  }
  # cost_round PID URL: answers (2xx), CPU ms, JIT CPU ms, bytes allocated, in a round of $COST_SECONDS (default 15)
  # at 50 connections (a duration, not a count: one connection that stalls would hold a count's end forever)
  cost_round() {
    local cpu0 jit0 out; allocated "$1" start; cpu0=$(cpu_ms "$1"); jit0=$(jit_ms "$1")
    thread_cpu "$1" > "$work/threads-$1.before"
    out=$(h2load_for "${COST_SECONDS:-15}" "$2" "$work/message-same.json")
    thread_cpu "$1" > "$work/threads-$1.after"
    # the threads' CPU in this round, by name, added up over the rounds in $work/threads-$1.sum
    awk 'NR == FNR { b[$1] += $2; next } { a[$1] += $2 } END { for (n in a) print n, a[n] - b[n] }' \
      "$work/threads-$1.before" "$work/threads-$1.after" >> "$work/threads-$1.sum"
    echo "$(grep -oE '[0-9]+ 2xx' <<<"$out" | head -1 | cut -d' ' -f1)" >> "$work/answers-$1.sum"
    echo "$(grep -oE '^status codes: .*' <<<"$out" | grep -oE '[0-9]+ 2xx' | cut -d' ' -f1) $(( $(cpu_ms "$1") - cpu0 ))" \
      "$(( $(jit_ms "$1") - jit0 )) $(allocated "$1" end)"
  }
  echo; echo "## cost: CPU and bytes per answer, A = $a_jar ${SERVICE_ENV:-} against B = $base_jar ${BASE_ENV:-}, rounds of ${COST_SECONDS:-15} s alternating"
  stub "$TOKENS" 0 0
  for provider in ${COST_MODELS:-${PROVIDER:-openai} extractive}; do
    penv=(); [ "$provider" = extractive ] || penv=(ASSISTANT_MODEL_BASE_URL="$stub_url" ASSISTANT_MODEL_API_KEY=sk-bench ASSISTANT_MODEL_MAX_CONCURRENT=100000)
    # shellcheck disable=SC2086 # NAME=value words
    CP=$base_jar:bench/target/bench.jar service mintlify "$provider" "${penv[@]}" ${BASE_ENV:-}
    b_pid=$svc_pid; b_url=$svc_url/v1/assistant/mintlify/message; svc_pid=; svc_args_now=
    # shellcheck disable=SC2086
    CP=$a_jar:bench/target/bench.jar service mintlify "$provider" "${penv[@]}" ${SERVICE_ENV:-}
    a_pid=$svc_pid; a_url=$svc_url/v1/assistant/mintlify/message; svc_pid=; svc_args_now=
    h2load_for "${H2LOAD_WARMUP:-90}" "$b_url" "$work/message-same.json" > /dev/null
    h2load_for "${H2LOAD_WARMUP:-90}" "$a_url" "$work/message-same.json" > /dev/null
    # with JFR, a round each first, not counted, profiled (see profile): $JFR/cost-MODEL-{A,B}
    [ -z "${JFR:-}" ] || for side in "A $a_pid $a_url" "B $b_pid $b_url"; do
      read -r name pid url <<<"$side"; svc_pid=$pid profile "cost-$provider-$name"; cost_round "$pid" "$url" >/dev/null
    done; svc_pid=; rm -f "$work"/threads-*.sum "$work"/answers-*.sum
    echo; echo "### $provider model"
    echo "| round | A CPU ms / 1,000 answers (without JIT) | B CPU ms / 1,000 answers (without JIT) | A / B CPU without JIT | A KB allocated / answer | B KB / answer | A / B bytes |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    cpu_r=(); byte_r=()
    for i in $(seq "${COST_ROUNDS:-4}"); do
      if (( i % 2 )); then ra=$(cost_round "$a_pid" "$a_url"); rb=$(cost_round "$b_pid" "$b_url")
      else rb=$(cost_round "$b_pid" "$b_url"); ra=$(cost_round "$a_pid" "$a_url"); fi
      read -r a_n a_cpu a_jit a_bytes <<<"$ra"; read -r b_n b_cpu b_jit b_bytes <<<"$rb"
      a_app=$(echo "scale=1; ($a_cpu - $a_jit) * 1000 / $a_n" | bc); b_app=$(echo "scale=1; ($b_cpu - $b_jit) * 1000 / $b_n" | bc)
      a_kb=$(echo "scale=1; $a_bytes / 1024 / $a_n" | bc); b_kb=$(echo "scale=1; $b_bytes / 1024 / $b_n" | bc)
      cpu_r+=("$(echo "scale=3; $a_app / $b_app" | bc)"); byte_r+=("$(echo "scale=3; $a_kb / $b_kb" | bc)")
      echo "| $i | $(( a_cpu * 1000 / a_n )) ($a_app) | $(( b_cpu * 1000 / b_n )) ($b_app) | ${cpu_r[-1]} | $a_kb | $b_kb | ${byte_r[-1]} |"
    done
    median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
    echo "| median | | | $(median "${cpu_r[@]}") | | | $(median "${byte_r[@]}") |"
    # where each side's CPU went, by thread (a pool's threads together), over all its measured rounds
    echo; echo "| thread | A CPU ms / 1,000 answers | B CPU ms / 1,000 answers |"; echo "| --- | --- | --- |"
    hz=$(getconf CLK_TCK)
    for side in "$a_pid" "$b_pid"; do
      awk -v n="$(paste -sd+ "$work/answers-$side.sum" | bc)" -v hz="$hz" \
        '{ t[$1] += $2 } END { for (k in t) printf "%s %.1f\n", k, t[k] * 1000 / hz * 1000 / n }' "$work/threads-$side.sum" \
        | sort > "$work/threads-$side.table"
    done
    join -a1 -a2 -e 0 -o 0,1.2,2.2 "$work/threads-$a_pid.table" "$work/threads-$b_pid.table" \
      | awk '$2 + $3 >= 5 { printf "| %s | %s | %s |\n", $1, $2, $3 }' | sort -t'|' -k3 -rn
    stop "$a_pid"; stop "$b_pid"
  done
  stop "$stub_pid" ;;
overhead)
  # 20,000 requests first: after 5,000, the JIT's tail still added about 1.5 ms at the median (openai, new questions:
  # +2.81 ms p50 after 5,000, +1.36 ms after 20,000, the same build minutes apart)
  warmup=${LATENCY_WARMUP:-20000}
  echo; echo "## overhead: time to the first text token, 1 connection, 2,000 distinct questions after $warmup (stub: $TOKENS tokens, no delay)"
  echo "| target | first byte p50 / p99 | first text token p50 / p99 (ms) | errors |"; echo "| --- | --- | --- | --- |"
  stub "$TOKENS" 0 0
  row() { echo "| $1 | $(field "$2" ttfb_p50) / $(field "$2" ttfb_p99) | $(field "$2" ttft_p50) / $(field "$2" ttft_p99) | $(field "$2" errors) |"; }
  r=$(driver latency --url="$stub_url/chat/completions" --body="$work/chat.json" "${stub_args[@]}" --warmup="$warmup" --requests=2000)
  row "stub alone" "$r"; stub_r=$r
  # shellcheck disable=SC2086 # NAME=value words
  service mintlify extractive ${SERVICE_ENV:-}
  r=$(driver latency --url="$svc_url/v1/assistant/mintlify/message" --body="$work/message.json" "${auth[@]}" "${svc_args[@]}" --warmup="$warmup" --requests=2000)
  row "service, extractive model (no upstream)" "$r"
  r=$(driver latency --url="$svc_url/v1/assistant/mintlify/message" --body="$work/message-same.json" "${auth[@]}" "${svc_args[@]}" --warmup="$warmup" --requests=2000)
  row "service, extractive, the same question (search cached)" "$r"
  for provider in ${PROVIDER:-}; do # several providers (model clients) each in turn, against the same stub
    # shellcheck disable=SC2086
    service mintlify "$provider" ASSISTANT_MODEL_BASE_URL="$stub_url" ASSISTANT_MODEL_API_KEY=sk-bench ASSISTANT_MODEL_MAX_CONCURRENT=100000 ${SERVICE_ENV:-}
    r=$(driver latency --url="$svc_url/v1/assistant/mintlify/message" --body="$work/message.json" "${auth[@]}" "${svc_args[@]}" --warmup="$warmup" --requests=2000)
    row "service, $provider model via the stub" "$r"
    r2=$(driver latency --url="$svc_url/v1/assistant/mintlify/message" --body="$work/message-same.json" "${auth[@]}" "${svc_args[@]}" --warmup="$warmup" --requests=2000)
    row "service, $provider, the same question (search cached)" "$r2"
    echo "| $provider: added by the service, p50 / p99 | | $(echo "$(field "$r" ttft_p50) - $(field "$stub_r" ttft_p50)" | bc) / $(echo "$(field "$r" ttft_p99) - $(field "$stub_r" ttft_p99)" | bc) | |"
  done
  stop "$stub_pid" ;;
concurrency|burst|scaleout)
  stub_default=node; pad=' | | | | | | | | | | |' # their "stub alone" is the floor the service's tail is compared with (issue 56)
  echo; echo "## $scenario: streams of 100 tokens x 100 ms, opened evenly over 10 s (scaleout: at its rate), each on its own connection"
  echo "| target | streams | completed | errors | peak open | TTFB p50 / p99 (ms) | first token p50 / p99 (ms) | wall | server RSS before / peak (VmHWM) | server threads (peak) | server CPU s |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  row() { echo "| $1 | $(field "$2" streams) | $(field "$2" completed) | $(field "$2" errors) | $(field "$2" peak_open) | $(field "$2" ttfb_p50) / $(field "$2" ttfb_p99) | $(field "$2" ttft_p50) / $(field "$2" ttft_p99) | $(field "$2" seconds) s | $(field "$2" rss_before_mib) / $(field "$2" peak_rss_mib) ($(field "$2" vmhwm_mib)) MiB | $(field "$2" peak_threads) | $(echo "scale=1; $3 / 1000" | bc) |"; }
  # warm PID URL BODY [driver options…]: a cold JVM answers interpreted and then compiles for minutes: a service
  # given 1,000 streams straight after start kept them waiting 21.6 s for their first byte (median), 0.97 s after one
  # round of 1,000 and 22 ms after two, while the JIT spent 37, 18 and 9 s of CPU. So rounds of $WARMUP streams, with
  # questions of their own (the measured ones must still miss the search cache), go first until a round costs the
  # JIT less than 2 s of CPU (at most 6 rounds); the report says how many it took. Rounds of 2,000 by default: after
  # rounds of 1,000, a run of 2,000 still compiled about 400 methods, 5 to 8 s of JIT CPU in a 20 s run (the
  # per-request code reaches the JIT's thresholds only after so many requests).
  warm() {
    local pid=$1 url=$2 body=$3 round jit0 jit1 spent=; shift 3
    [ "${WARMUP:-2000}" = 0 ] && return 0
    for round in 1 2 3 4 5 6; do
      sed "s/{n}/warm-up $round {n}/" "$body" > "$work/warm.json"
      jit0=$(jit_s "$pid")
      driver streams --streams="${WARMUP:-2000}" --ramp=10 --timeout=120 --pid="$pid" --url="$url" \
        --body="$work/warm.json" "$@" >/dev/null
      jit1=$(jit_s "$pid"); spent="$spent $(echo "$jit1 - $jit0" | bc)"
      [ "$(echo "$jit1 - $jit0 < 2" | bc)" = 1 ] && break
    done
    echo "|   (warm-up: $round round(s) of ${WARMUP:-2000} streams; JIT CPU s per round:$spent) | | | | | | | | | | |"
  }
  # a JVM's compile seconds so far; 0 for a process jstat cannot read (the stub on node:http, STUB=node's default)
  jit_s() { "$(dirname "$(command -v "$JAVA")")/jstat" -compiler "$1" 2>/dev/null | awk 'NR == 2 {print $4}' | grep . || echo 0; }
  # the committed heap of GC.heap_info's line on the heap: "total 262144K, used …" (JDK 17), "total reserved …, committed
  # 262144K, used …" (later JDKs)
  committed_mib() { awk '/ total / { for (i = 1; i < NF; i++) if ($i == "committed" || ($i == "total" && $(i + 1) != "reserved")) { v = $(i + 1); sub(/K,?/, "", v); print int(v / 1024); exit } }'; }
  # idle: with IDLE (seconds), the service's RSS and committed heap once the streams have ended and that long has
  # passed without a request (before the "after" histogram, whose full GC would resize the heap itself)
  idle() {
    [ -n "${IDLE:-}" ] || return 0
    local jcmd; jcmd="$(dirname "$(command -v "$JAVA")")/jcmd"; sleep "$IDLE"
    echo "|   (after $IDLE s idle: RSS $(mib "$svc_pid" VmRSS) MiB, heap committed $("$jcmd" "$svc_pid" GC.heap_info | committed_mib) MiB) | | | | | | | | | | |"
  }
  # streams PID [driver options…]: the long-stream driver's result, then the CPU ms process PID spent meanwhile
  streams() {
    local pid=$1 cpu0 r; cpu0=$(cpu_ms "$pid"); shift
    r=$(driver streams --streams="$n" --ramp=10 --timeout=120 --pid="$pid" "$@")
    echo "$r" "$(( $(cpu_ms "$pid") - cpu0 ))"
  }
  # start_streaming_service: the service of this scenario, its model the paced bench model or $PROVIDER via the stub
  start_streaming_service() {
    if [ -n "${PROVIDER:-}" ]; then
      service demo "$PROVIDER" ASSISTANT_MODEL_BASE_URL="$stub_url" ASSISTANT_MODEL_API_KEY=sk-bench ASSISTANT_MODEL_MAX_CONCURRENT=100000 ${SERVICE_ENV:-}; label="service, $PROVIDER via the stub"
    else
      service demo paced BENCH_TOKENS=100 BENCH_DELAY_MS=100 BENCH_FIRST_DELAY_MS=0 ${SERVICE_ENV:-}; label="service, paced bench model"
    fi
  }
  # started [NAME]: the row of the service just started: when it was ready, its warm-up's line and its AOT cache's
  started() {
    echo "|   (${1:+$1: }ready after $ready_s s; $(grep -oE 'Warmed up in [0-9.]+ s: [0-9]+ answers|AOT cache [^ ]+ [a-z ]+' "$work/service.log" | paste -sd ';' -)) | | | | | | | | | | |"
  }
  if [ "$scenario" = burst ]; then
    n=${BURST:-2000}
    stub 100 100 0
    warm "$stub_pid" "$stub_url/chat/completions" "$work/chat.json" "${stub_args[@]}"
    r=$(streams "$stub_pid" --url="$stub_url/chat/completions" --body="$work/chat.json" "${stub_args[@]}")
    row "stub alone" "${r% *}" "${r##* }"; stub_p99=$(field "${r% *}" ttfb_p99)
    for config in ${BURST_CONFIGS:-default shipped}; do
      configure "$config"
      stop_service; start_streaming_service; started

      profile "burst-$config-cold"
      r=$(streams "$svc_pid" --url="$svc_url/v1/assistant/demo/message" --body="$work/message.json" "${auth[@]}" "${svc_args[@]}")
      row "$label, first burst on a fresh process" "${r% *}" "${r##* }"; cold_p99=$(field "${r% *}" ttfb_p99)
      sed "s/{n}/warm {n}/" "$work/message.json" > "$work/message-warm.json"
      warm "$svc_pid" "$svc_url/v1/assistant/demo/message" "$work/message-warm.json" "${auth[@]}" "${svc_args[@]}"
      profile "burst-$config-warm"
      r=$(streams "$svc_pid" --url="$svc_url/v1/assistant/demo/message" --body="$work/message-warm.json" "${auth[@]}" "${svc_args[@]}")
      row "$label, warm" "${r% *}" "${r##* }"; warm_p99=$(field "${r% *}" ttfb_p99)
      echo "|   TTFB p99: first burst / warm **$(echo "scale=2; $cold_p99 / $warm_p99" | bc)** (goal ≤ 2), warm / stub alone **$(echo "scale=2; $warm_p99 / $stub_p99" | bc)** (goal ≤ 3) | | | | | | | | | | |"
      stop_service
    done
    JAVA=$java0; JAVA_OPTS=$opts0; SERVICE_ENV=$env0; stop "$stub_pid"; continue
  fi
  if [ "$scenario" = scaleout ]; then
    # A, warm, serves $SCALEOUT_RATE new streams a second; B is started beside it as an autoscaler adds a pod, and
    # from the moment B is ready each gets that rate for $SCALEOUT_SECONDS (default 60): B's first minute against
    # A's same minute, on the same machine (B's JIT takes cores from A, as on a node shared by both)
    rate=${SCALEOUT_RATE:-50}; secs=${SCALEOUT_SECONDS:-60}; n=$(( rate * secs ))
    stub 100 100 0
    configure shipped; start_streaming_service; started "A"
    a_pid=$svc_pid; a_url=$svc_url/v1/assistant/demo/message; svc_pid=; svc_args_now=
    sed "s/{n}/warm {n}/" "$work/message.json" > "$work/message-warm.json"
    warm "$a_pid" "$a_url" "$work/message-warm.json" "${auth[@]}" "${svc_args[@]}"
    sed "s/{n}/steady {n}/" "$work/message.json" > "$work/steady.json"
    # the steady load on A while B starts (up to 10 minutes of it; stopped once B's minute is measured)
    driver streams --streams=$(( rate * 600 )) --ramp=600 --timeout=120 --pid="$a_pid" --url="$a_url" \
      --body="$work/steady.json" "${auth[@]}" "${svc_args[@]}" > /dev/null & steady=$!; pids+=("$steady")
    sleep 10
    configure "${SCALEOUT_CONFIG:-shipped}"; start_streaming_service; started "B, ${SCALEOUT_CONFIG:-shipped}"
    sed "s/{n}/b {n}/" "$work/message.json" > "$work/b.json"; sed "s/{n}/a {n}/" "$work/message.json" > "$work/a.json"
    streams "$a_pid" --url="$a_url" --body="$work/a.json" --streams="$n" --ramp="$secs" "${auth[@]}" "${svc_args[@]}" \
      > "$work/a.out" &
    a_run=$!
    r=$(streams "$svc_pid" --url="$svc_url/v1/assistant/demo/message" --body="$work/b.json" --streams="$n" \
      --ramp="$secs" "${auth[@]}" "${svc_args[@]}")
    wait "$a_run"; stop "$steady"; ra=$(cat "$work/a.out")
    row "B ($label), its first $secs s from ready, $rate streams/s" "${r% *}" "${r##* }"
    row "A, the same $secs s (and the steady load's $rate/s)" "${ra% *}" "${ra##* }"
    echo "|   TTFB p99: B's first $secs s / A's same $secs s **$(echo "scale=2; $(field "${r% *}" ttfb_p99) / $(field "${ra% *}" ttfb_p99)" | bc)** | | | | | | | | | | |"
    stop_service; stop "$a_pid"; JAVA=$java0; JAVA_OPTS=$opts0; SERVICE_ENV=$env0; stop "$stub_pid"; continue
  fi
  for n in $STREAMS; do
    stub 100 100 0
    warm "$stub_pid" "$stub_url/chat/completions" "$work/chat.json" "${stub_args[@]}"
    r=$(streams "$stub_pid" --url="$stub_url/chat/completions" --body="$work/chat.json" "${stub_args[@]}")
    row "stub alone" "${r% *}" "${r##* }"
    start_streaming_service
    warm "$svc_pid" "$svc_url/v1/assistant/demo/message" "$work/message.json" "${auth[@]}" "${svc_args[@]}"
    histogram "streams-$n-before"; profile "streams-$n"; histogram "streams-$n-open" 11
    r=$(streams "$svc_pid" --url="$svc_url/v1/assistant/demo/message" --body="$work/message.json" "${auth[@]}" "${svc_args[@]}")
    row "$label" "${r% *}" "${r##* }"
    idle
    histogram "streams-$n-after"
    stop_service; stop "$stub_pid"
  done ;;
records)
  SERVICE_ENV="${SERVICE_ENV:-} ASSISTANT_RECORDS_ENABLED=true ASSISTANT_RECORDS_DATA_DIR=$work/records-a" \
    BASE_ENV="${BASE_ENV:-} ASSISTANT_RECORDS_ENABLED=false ASSISTANT_RECORDS_DATA_DIR=$work/records-b" "$0" paired
  for on in true false; do
    echo; echo "### store of record on: $on"
    SERVICE_ENV="${SERVICE_ENV:-} ASSISTANT_RECORDS_ENABLED=$on ASSISTANT_RECORDS_DATA_DIR=$work/records-$on" "$0" overhead
  done
  echo; echo "## records: rows/s the store of record sustains (the service's writer, batches of 500): SQLite, then H2"
  "$JAVA" -cp target/docs-assistant.jar:bench/target/bench.jar dev.docsassistant.bench.RecordsThroughput \
    "${RECORD_ROWS:-100000}" 2>/dev/null | grep rows/s
  "$JAVA" -cp target/docs-assistant.jar:bench/target/bench.jar dev.docsassistant.bench.RecordsThroughput \
    "${RECORD_ROWS:-100000}" "jdbc:h2:file:$work/records-h2/records;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE" 2>/dev/null \
    | grep rows/s
  [ -z "${RECORDS_JDBC_URL:-}" ] || "$JAVA" -cp target/docs-assistant.jar:bench/target/bench.jar \
    dev.docsassistant.bench.RecordsThroughput "${RECORD_ROWS:-100000}" "$RECORDS_JDBC_URL" "${RECORDS_USER:-}" 2>/dev/null \
    | grep rows/s ;;
floor)
  echo; echo "## floor: CPU a token costs on one loopback hop (a write and a read, Java NIO, no HTTP)"
  for c in 1000 8000; do $JAVA -cp "$CP" dev.docsassistant.bench.LoopbackFloor --connections="$c" --rounds=200 | tail -n +$((c == 1000 ? 1 : 3)); done ;;
jmh)
  echo; echo "## JMH"
  $JAVA -cp "$CP" org.openjdk.jmh.Main -jvmArgsAppend "-Dcorpus=$CORPUS" ${JMH_ARGS:-} ;;
*) echo "unknown scenario $scenario"; exit 2 ;;
esac; done
