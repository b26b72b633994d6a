package dev.docsassistant.request;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.docsassistant.ground.InvalidRequestException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The messages a bad body gets, which name what a field accepts from the types' annotations and constants. */
class JsonErrorsTest {

    private static final ObjectMapper MAPPER = RequestJson.mapper(32);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            role not in the enum | {"role":"robot"}                      | messages[0].role | messages[0].role must be one of: system, user, assistant, data
            part type unknown    | {"role":"user","parts":[{"type":"image"}]} | messages[0].parts[0].type | messages[0].parts[0].type must be one of: text, reasoning, step-start, source, tool-invocation, file (got 'image')
            part type missing    | {"role":"user","parts":[{"text":"q"}]}     | messages[0].parts[0].type | messages[0].parts[0].type is required (one of: text, reasoning, step-start, source, tool-invocation, file)
            tool state unknown   | {"role":"assistant","parts":[{"type":"tool-invocation","toolInvocation":{"state":"done"}}]} | messages[0].parts[0].toolInvocation.state | messages[0].parts[0].toolInvocation.state must be one of: partial-call, call, result (got 'done')
            """)
    void namesWhatTheFieldAccepts(String name, String message, String field, String detail) {
        String body = "{\"fp\":\"f\",\"messages\":[" + message + "]}";
        for (int time = 0; time < 2; time++) { // the second time from what was read the first
            JsonProcessingException error = assertThrows(JsonProcessingException.class,
                    () -> MAPPER.readValue(body, ChatRequest.class));
            InvalidRequestException described = JsonErrors.describe(error);
            assertEquals(field, described.field());
            assertEquals(detail, described.getMessage());
        }
    }
}
