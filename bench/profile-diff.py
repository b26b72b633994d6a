#!/usr/bin/env python3
"""Differential CPU profile of two async-profiler collapsed files (cpu, interval 1 ms), µs of CPU per answer.
usage: bench/profile-diff.py A.collapsed A_answers B.collapsed B_answers [top]
Table 1: each sample to the family of its deepest classified frame (JDK and native frames count for the nearest
classified caller), so the rows sum to the total. Table 2: inclusive families (a sample counts in every family on
its stack). Then the largest per-method differences, by the deepest classified frame (self, as table 1)."""
import re, sys, collections
THREADS = [("GC threads", r"G1|GangWorker|WorkerThread::run|GCTask|ConcurrentGCThread|ParallelTask|VM_Thread|VMThread"),
           ("JIT compiler threads", r"CompileBroker|C2Compiler|Compilation::|Compile::|CompilerThread")]
def classify(f):
    if re.match(r"org\.apache\.camel\.(telemetry|opentelemetry2)\.|dev\.docsassistant\.observe\.Tracing", f):
        return "tracer: Camel's (camel-telemetry, -opentelemetry2) and Tracing"
    if re.match(r"io\.opentelemetry\.(sdk\.trace\.export|exporter)|okhttp3|okio", f):
        return "export: batch span processor, OTLP exporter"
    if f.startswith("io.opentelemetry.context"):
        return "OpenTelemetry context (storage, scopes)"
    if f.startswith("io.opentelemetry"):
        return "OpenTelemetry API and SDK (spans, sampler, propagators)"
    if re.match(r"org\.apache\.camel\.(support\.EventHelper|impl\.event|support\.EventNotifierSupport)", f):
        return "Camel events (EventHelper, event objects)"
    if "RoutePolicy" in f:
        return "route policies (advice, micrometer's, tracer's)"
    if re.match(r"org\.slf4j|ch\.qos\.logback", f):
        return "logging (slf4j, logback, MDC)"
    m = re.match(r"dev\.docsassistant\.(\w+)\.", f)
    if m:
        return "ours: " + m.group(1)
    if f.startswith("org.apache.camel"):
        return "Camel (other)"
    if re.match(r"io\.(vertx|netty)", f):
        return "Vert.x, Netty"
    return None
INCLUSIVE = [
    ("tracer, inclusive of what it calls (not of the steps it wraps)", None),
    ("header TreeMap copy (CamelHeadersSpanContextPropagationExtractor)", r"CamelHeadersSpanContextPropagationExtractor"),
    ("propagators inject/extract", r"io\.opentelemetry\.[\w.]*propagation\."),
    ("span decorators' tags", r"org\.apache\.camel\.telemetry\.decorators\."),
    ("Camel events (EventHelper, inclusive)", r"org\.apache\.camel\.support\.EventHelper"),
    ("route policies' before/after (inclusive)", r"RoutePolicyAdvice\.(before|after)"),
    ("MDC", r"org\.slf4j\.MDC|MDCAdapter"),
    ("ThreadLocal get/set/remove", r"java\.lang\.ThreadLocal\."),
    ("exchange properties", r"Exchange\w*\.(setProperty|getProperty|removeProperty)"),
    ("allocation slow path (TLAB refill, new instance)", r"OptoRuntime::new|MemAllocator|TLAB|InstanceKlass::allocate|ObjArrayKlass::allocate"),
    ("kernel frames", r"_\[k\]"),
]
def load(path):
    stacks = collections.Counter()
    for line in open(path):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        stack = re.sub(r"\$\$Lambda[^.;]*(\.0x[0-9a-f]+)?", "$$Lambda", stack.replace("/", "."))
        stacks[stack] += int(n)
    return stacks
def tables(stacks):
    fam, inc, meth = collections.Counter(), collections.Counter(), collections.Counter()
    for stack, n in stacks.items():
        frames = stack.split(";")
        family = next((name for name, rx in THREADS if re.search(rx, stack)), None)
        deepest = None
        if family is None:
            for f in reversed(frames):
                family = classify(f)
                if family:
                    deepest = f
                    break
        family = family or "other (JDK, VM)"
        fam[family] += n
        fam["all"] += n
        if deepest:
            meth[deepest] += n
        tracer_frames = [i for i, f in enumerate(frames) if classify(f) and classify(f).startswith("tracer")]
        # inclusive tracer: samples whose deepest classified frame is the tracer's, or under it in OTel/events
        if family.startswith(("tracer", "OpenTelemetry", "export")) and tracer_frames:
            inc[INCLUSIVE[0][0]] += n
        for name, rx in INCLUSIVE[1:]:
            if re.search(rx, stack):
                inc[name] += n
    return fam, inc, meth
a, an, b, bn = load(sys.argv[1]), float(sys.argv[2]), load(sys.argv[3]), float(sys.argv[4])
top = int(sys.argv[5]) if len(sys.argv) > 5 else 25
us = lambda c, n: c * 1000.0 / n
(fa, ia, ma), (fb, ib, mb) = tables(a), tables(b)
print("| where (deepest classified frame) | A µs/answer | B µs/answer | A − B |\n| --- | --- | --- | --- |")
for k in sorted(set(fa) | set(fb), key=lambda k: (k != "all", -(us(fa[k], an) - us(fb[k], bn)))):
    print(f"| {k} | {us(fa[k], an):.1f} | {us(fb[k], bn):.1f} | {us(fa[k], an) - us(fb[k], bn):+.1f} |")
print("\n| inclusive | A µs/answer | B µs/answer | A − B |\n| --- | --- | --- | --- |")
for name, _ in INCLUSIVE:
    print(f"| {name} | {us(ia[name], an):.1f} | {us(ib[name], bn):.1f} | {us(ia[name], an) - us(ib[name], bn):+.1f} |")
print("\nlargest differences by deepest classified frame (self), µs/answer A − B, A, B:")
diffs = sorted(((us(ma[k], an) - us(mb[k], bn), k) for k in set(ma) | set(mb)), reverse=True)
for d, k in diffs[:top]:
    print(f"  {d:+7.2f}  {us(ma[k], an):7.2f} {us(mb[k], bn):7.2f}  {k}")
print("  ...")
for d, k in diffs[-8:]:
    print(f"  {d:+7.2f}  {us(ma[k], an):7.2f} {us(mb[k], bn):7.2f}  {k}")
