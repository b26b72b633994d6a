#!/usr/bin/env python3
# Used for BENCHMARKS.md, "The new limiters against none through openai": perf.sh paired with JFR and ASYNC_PROFILER
# writes paired-<model>-A.collapsed and -B.collapsed; the answers are the profiled round's answers/s x 15.
"""Collapsed stacks (async-profiler, cpu, 1 ms interval) of A and B, by frame family, in µs of CPU per answer.
usage: bench/profile-families.py A.collapsed A_answers B.collapsed B_answers"""
import sys, re
FAMILIES = [  # (name, regex on the whole stack), first match wins, order matters
    ("limiter: address bucket (take)", r"InMemoryRateLimiter\.take"),
    ("limiter: leases opened (open)", r"InMemoryRateLimiter\.open"),
    ("limiter: windows (acquire: ip-day, org hour)", r"InMemoryRateLimiter\.acquire"),
    ("lease release at exchange end", r"QuotaCheck\$\d+\.onDone|CountedLease\.release|InMemoryRateLimiter\.giveBack"),
    ("X-RateLimit-* headers (report)", r"QuotaCheck\.report"),
    ("rest of QuotaCheck (keys, details, lists)", r"QuotaCheck\.|QuotaCheck\$\$Lambda|QuotaCheck::"),
    ("token budget check (before)", r"TokenBudget\.process"),
    ("token budget: windows added after the answer", r"WindowTotals\.add"),
    ("token metric (assistant_model_tokens_total)", r"AssistantMetrics\.modelTokens"),
    ("Camel ending the exchange (DefaultUnitOfWork.done: its synchronizations, and all they run)", r"UnitOfWorkHelper\.doneSynchronizations|DefaultUnitOfWork\.done"),
    ("GC", r"G1|GCTaskThread|WorkerThread::run|ConcurrentGCThread|GangWorker|SafepointSynchronize"),
    ("JIT compiler", r"CompileBroker|C2Compiler|Compile::|C1_|Compilation::"),
]
def load(path):
    fam = {n: 0 for n, _ in FAMILIES}; total = 0
    for line in open(path):
        stack, _, n = line.rstrip().rpartition(" ")
        n = int(n); total += n
        for name, rx in FAMILIES:
            if re.search(rx, stack):
                fam[name] += n; break
    return fam, total
a, at = load(sys.argv[1]); na = float(sys.argv[2])
b, bt = load(sys.argv[3]); nb = float(sys.argv[4])
print("| frame family | A µs / answer | B µs / answer | A − B |")
print("| --- | --- | --- | --- |")
for name, _ in FAMILIES:
    x, y = a[name] * 1000 / na, b[name] * 1000 / nb
    print(f"| {name} | {x:.2f} | {y:.2f} | {x - y:+.2f} |")
oa = (at - sum(a.values())) * 1000 / na; ob = (bt - sum(b.values())) * 1000 / nb
print(f"| everything else | {oa:.1f} | {ob:.1f} | {oa - ob:+.1f} |")
print(f"| **all samples** | **{at * 1000 / na:.1f}** | **{bt * 1000 / nb:.1f}** | **{(at / na - bt / nb) * 1000:+.1f}** |")
