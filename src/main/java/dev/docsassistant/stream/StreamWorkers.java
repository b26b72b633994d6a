package dev.docsassistant.stream;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.vertx.core.spi.ExecutorServiceFactory;

/**
 * The executor behind Vert.x's worker pool, where platform-http runs each request's route and where the stream
 * step waits on the model. A fixed pool (Vert.x's default is 20 threads) would cap concurrent streams at its size,
 * so instead every blocking task gets its own thread: a virtual thread on JDK 21+, which costs a few KB while it
 * waits, or, on JDK 17, a platform thread from an unbounded cached pool. Registered as a Vert.x service provider
 * ({@code META-INF/services}), so it applies to whichever Vert.x instance the runtime creates.
 */
public class StreamWorkers implements ExecutorServiceFactory {

    @Override
    public ExecutorService createExecutor(ThreadFactory threadFactory, Integer concurrency, Integer maxConcurrency) {
        ExecutorService virtual = virtualThreadPerTask();
        if (virtual != null) {
            return virtual;
        }
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
                threadFactory);
    }

    /** {@code Executors.newVirtualThreadPerTaskExecutor()} where the JDK has it (21+); this code targets 17. */
    static ExecutorService virtualThreadPerTask() {
        try {
            return (ExecutorService) MethodHandles.publicLookup()
                    .findStatic(java.util.concurrent.Executors.class, "newVirtualThreadPerTaskExecutor",
                            MethodType.methodType(ExecutorService.class))
                    .invoke();
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        } catch (Throwable e) {
            throw new IllegalStateException("Cannot create the virtual-thread executor", e);
        }
    }
}
