package dev.docsassistant.web;

import java.lang.management.ManagementFactory;

import javax.management.JMException;
import javax.management.ObjectName;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * HotSpot's JIT seen from inside the process, for the warm-up to know when the request path is compiled: how many
 * methods wait in (or are in) its compile queues, and how often a method must run before C2 compiles it. Other JVMs
 * answer "unknown" (-1, 0) and the warm-up falls back to watching compile time alone.
 */
final class Jit {

    private Jit() {
    }

    /**
     * Calls a method must take, through C1's profiled tier, before C2 compiles it on an idle JIT: a method run once per
     * answer (a pipeline step, the search) reaches C2 only after this many answers, whatever compile time said
     * meanwhile. HotSpot raises it further while C2's queue is long (Tier4LoadFeedback), so it is a floor.
     */
    static long callsBeforeC2() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (!Boolean.parseBoolean(vm.getVMOption("TieredCompilation").getValue())) {
                return 0;
            }
            double scaling = Double.parseDouble(vm.getVMOption("CompileThresholdScaling").getValue());
            return Math.round(scaling * (Long.parseLong(vm.getVMOption("Tier3InvocationThreshold").getValue())
                    + Long.parseLong(vm.getVMOption("Tier4InvocationThreshold").getValue())));
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** Methods being compiled or waiting in a compile queue ({@code jcmd Compiler.queue}), -1 if unknown. */
    static int queued() {
        String queue;
        try {
            queue = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerQueue",
                    new Object[] {null}, new String[] {String[].class.getName()});
        } catch (JMException | RuntimeException e) {
            return -1;
        }
        // a task is a line "<compile id> <flags> <level> <method>" in a queue, or "C2 CompilerThread0 <id> …" in flight
        return (int) queue.lines().map(String::strip)
                .filter(line -> !line.isEmpty() && (Character.isDigit(line.charAt(0)) || line.contains("CompilerThread")))
                .count();
    }
}
