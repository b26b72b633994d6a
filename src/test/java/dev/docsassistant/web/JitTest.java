package dev.docsassistant.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.junit.jupiter.api.Test;

/** The warm-up's view of the JIT reads this HotSpot's own settings and queue (the tests run on HotSpot). */
class JitTest {

    @Test
    void aMethodRunOncePerAnswerNeedsC1sAndC2sThresholdsOfAnswers() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        long tier3 = Long.parseLong(vm.getVMOption("Tier3InvocationThreshold").getValue());
        long tier4 = Long.parseLong(vm.getVMOption("Tier4InvocationThreshold").getValue());
        double scaling = Double.parseDouble(vm.getVMOption("CompileThresholdScaling").getValue());
        assertEquals(Math.round(scaling * (tier3 + tier4)), Jit.callsBeforeC2());
        assertTrue(Jit.callsBeforeC2() > 1000, "HotSpot's tiered defaults are 200 + 5000");
    }

    @Test
    void theCompileQueueIsRead() {
        assertTrue(Jit.queued() >= 0, "Compiler.queue answered and was parsed");
    }
}
