package dev.docsassistant.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.TSFBuilder;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Jackson for virtual threads. By default Jackson keeps the buffers of its parsers and generators per thread; a
 * request's virtual thread lives as long as its stream, so each open stream held a set of its own (tens of KB),
 * used a few times. Every mapper of the service takes them from one shared pool instead.
 */
public final class Json {

    private Json() {
    }

    /** A factory builder with the shared buffer pool, for a mapper that needs more settings. */
    public static TSFBuilder<?, ?> factory() {
        return JsonFactory.builder().recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool());
    }

    public static ObjectMapper mapper() {
        return new ObjectMapper(factory().build());
    }
}
