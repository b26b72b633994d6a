package dev.docsassistant.model;

import dev.docsassistant.config.Tenants;
import dev.docsassistant.observe.AssistantMetrics;
import dev.docsassistant.search.DomainIndexes;
import dev.docsassistant.stream.OpenStreams;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class UpstreamGuardTest {

    /** The facade the guard reports to, on a registry of its own (no Camel context here). */
    private final AssistantMetrics metrics;

    UpstreamGuardTest() throws Exception {
        metrics = new AssistantMetrics(new DomainIndexes(Tenants.load("", "", "mint_dsc_"), 0, false, ""),
                new OpenStreams(0), meters -> { });
    }

    @Test
    void aFullInstanceRefusesUntilASlotIsFreed() {
        UpstreamGuard guard = new UpstreamGuard(2, 50, 10, 30, metrics);
        UpstreamGuard.Permit first = guard.enter("http://model");
        guard.enter("http://model");
        ModelBusyException busy = assertThrows(ModelBusyException.class, () -> guard.enter("http://other"));
        assertEquals("model_busy", busy.code());
        first.release();
        first.release(); // idempotent: frees one slot only
        guard.enter("http://model");
        assertThrows(ModelBusyException.class, () -> guard.enter("http://model"));
    }

    @Test
    void onlyTheServersOwnFailuresOpenItsCircuit() {
        UpstreamGuard guard = new UpstreamGuard(10, 100, 2, 30, metrics);
        guard.enter("http://a").failed(new ModelFailedException("refused (400)", false));
        guard.enter("http://a").failed(new ModelFailedException("refused (401)", false));
        guard.enter("http://a").succeeded(); // still closed

        guard.enter("http://a").failed(new ModelTimeoutException("silent"));
        guard.enter("http://a").failed(new ModelFailedException("answered 500", true));
        UpstreamGuard.CircuitOpenException open = assertThrows(UpstreamGuard.CircuitOpenException.class,
                () -> guard.enter("http://a"));
        assertEquals(30, open.retryAfterSeconds());
        guard.enter("http://b").succeeded(); // one circuit per upstream
    }

    @Test
    void failFastWhenOpenAnswers503InsteadOfFallingBack() throws Exception {
        UpstreamGuard guard = new UpstreamGuard(10, 50, 1, 45, metrics);
        guard.enter("http://a").failed(new ModelFailedException("answered 503", true));
        OpenAiModel model = new OpenAiModel(null, null, new OpenAiModel.Circuit(guard, "http://a", "fail", null), null,
                1);
        ModelBusyException refused = assertThrows(ModelBusyException.class, () -> model.answer(null));
        assertEquals("model_unavailable", refused.code());
        assertEquals(45, refused.retryAfterSeconds());
    }
}
