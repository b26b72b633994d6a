package dev.docsassistant.ground;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.TSFBuilder;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;

/**
 * Jackson for virtual threads. By default Jackson keeps the buffers of its parsers and generators per thread; a
 * request's virtual thread lives as long as its stream, so each open stream held a set of its own (tens of KB),
 * used a few times. Every mapper of the service takes them from one shared pool instead.
 * <p>
 * Every mapper also has Blackbird: Jackson otherwise constructs each bound record through
 * {@code Constructor.newInstance} and reads each written property through {@code Method.invoke}, on every request.
 * Blackbird replaces both with functions generated once per type (LambdaMetafactory), for classes and members that
 * are not private.
 */
public final class Json {

    private Json() {
    }

    /** A factory builder with the shared buffer pool, for a mapper that needs more settings. */
    public static TSFBuilder<?, ?> factory() {
        return JsonFactory.builder().recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool());
    }

    /** A mapper builder on one of {@link #factory()}'s factories, with the modules every mapper has. */
    public static JsonMapper.Builder mapperBuilder(JsonFactory factory) {
        return JsonMapper.builder(factory).addModule(new BlackbirdModule());
    }

    public static ObjectMapper mapper() {
        return mapperBuilder(factory().build()).build();
    }
}
