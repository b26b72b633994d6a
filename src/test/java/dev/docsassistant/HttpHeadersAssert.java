package dev.docsassistant;

import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Readable assertions on a response's headers, with the headers in the failure message. */
record HttpHeadersAssert(HttpResponse<?> response) {

    void is(String name, String value) {
        assertEquals(value, response.headers().firstValue(name).orElse(null), name + " in " + response.headers());
    }

    void present(String name) {
        assertTrue(response.headers().firstValue(name).isPresent(), name + " in " + response.headers());
    }

    void absent(String name) {
        assertTrue(response.headers().firstValue(name).isEmpty(), name + " must not be in " + response.headers());
    }

    void contains(String name, String part) {
        String value = response.headers().firstValue(name).orElse("");
        assertTrue(value.toLowerCase().contains(part.toLowerCase()), name + ": " + value + " should name " + part);
    }
}
