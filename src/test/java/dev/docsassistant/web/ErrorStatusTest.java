package dev.docsassistant.web;

import com.fasterxml.jackson.databind.JsonMappingException;
import dev.docsassistant.auth.ForbiddenException;
import dev.docsassistant.ground.InvalidRequestException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The error table matches as Camel's onException does: the innermost cause first, then the nearest superclass. */
class ErrorStatusTest {

    private final ErrorStatus table = new ErrorStatus("""
            # comments and blank lines are skipped

            400 com.fasterxml.jackson.core.JsonProcessingException
            400 dev.docsassistant.ground.InvalidRequestException  # a rule the body breaks
            403 dev.docsassistant.auth.ForbiddenException
            500 java.lang.Exception
            """);

    @Test
    void theNearestListedSuperclassDecides() {
        assertEquals(403, table.status(new ForbiddenException("no")));
        assertEquals(403, table.status(new OriginNotAllowedException("https://elsewhere.example")));
        assertEquals(500, table.status(new IllegalStateException("bug")));
        assertNull(table.status(new AssertionError("not an Exception")));
    }

    @Test
    void theInnermostCauseDecides() {
        // Jackson wraps what a creator throws: the rule the body broke is what the client hears about
        JsonMappingException wrapped = JsonMappingException.from((com.fasterxml.jackson.core.JsonParser) null,
                "bad", new InvalidRequestException("messages", "no messages"));
        assertEquals(400, table.status(wrapped));
        assertEquals(403, table.status(new IllegalStateException("outer", new ForbiddenException("inner"))));
    }

    @Test
    void aRowThatIsNotStatusAndClassFailsAtStart() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> new ErrorStatus("404 dev.docsassistant.NoSuchException"));
        assertTrue(unknown.getMessage().contains("dev.docsassistant.NoSuchException"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ErrorStatus("404"));
    }
}
