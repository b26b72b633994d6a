package dev.docsassistant.openapi;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Checks, when a test class ends, the traffic of the services it started and stopped itself (ServiceInstance):
 * their stop must not throw, or the class's other services and Redis processes would not be stopped. Registered
 * for every test class through JUnit's extension auto-detection (src/test/resources/junit-platform.properties).
 */
public class ApiTrafficCheck implements AfterAllCallback {

    private static final List<ApiTraffic> STOPPED = new ArrayList<>();

    /** Checks this service's traffic when the running test class ends. */
    public static synchronized void checkLater(ApiTraffic traffic) {
        STOPPED.add(traffic);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        List<ApiTraffic> stopped;
        synchronized (ApiTrafficCheck.class) {
            stopped = List.copyOf(STOPPED);
            STOPPED.clear();
        }
        stopped.forEach(ApiDescription::assertTrafficMatches);
    }
}
