package dev.docsassistant;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * A service test whose openai provider talks to an {@link OpenAiStub}: started before the service (it names the
 * stub's URL in {@code assistant.model.base-url}), emptied of scripts and requests before each test, stopped after
 * the class.
 */
abstract class ModelServerTest extends ServiceTest {

    protected final OpenAiStub stub = OpenAiStub.startAsModelServer();

    @BeforeEach
    void resetStub() {
        stub.reset();
    }

    @AfterAll
    void stopStub() throws Exception {
        OpenAiStub.stopAsModelServer(stub);
    }
}
