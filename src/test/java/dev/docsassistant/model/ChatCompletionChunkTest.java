package dev.docsassistant.model;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fields of OpenAI's chunks that the stream step uses, read without a tree, the rest skipped. */
class ChatCompletionChunkTest {

    @Test
    void aContentChunkGivesItsDeltaAndSkipsTheRest() throws Exception {
        ChatCompletionChunk chunk = parse("""
                {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini",
                 "system_fingerprint":"fp_1","service_tier":{"nested":[1,{"a":"b"}]},
                 "choices":[{"index":0,"delta":{"role":null,"content":"the \\"port\\" \\u00e9"},"logprobs":null,
                 "finish_reason":null}],"usage":null}""");
        assertEquals("the \"port\" é", chunk.content());
        assertNull(chunk.finishReason());
        assertNull(chunk.usage());
        assertNull(chunk.toolCalls());
        assertTrue(chunk.carriesToken());
    }

    @Test
    void theRoleChunkCarriesNoToken() throws Exception {
        ChatCompletionChunk chunk = parse("""
                {"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}""");
        assertEquals("", chunk.content());
        assertFalse(chunk.carriesToken());
    }

    @Test
    void theLastChunksGiveTheFinishReasonAndTheUsage() throws Exception {
        assertEquals("stop", parse("""
                {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}""").finishReason());
        ChatCompletionChunk usage = parse("""
                {"choices":[],"usage":{"prompt_tokens":752,"completion_tokens":373,"total_tokens":1125,
                 "prompt_tokens_details":{"cached_tokens":0}}}""");
        assertEquals(new Usage(752, 373), usage.usage());
        assertTrue(usage.carriesToken());
    }

    @Test
    void onlyTheFirstChoiceCounts() throws Exception {
        ChatCompletionChunk chunk = parse("""
                {"choices":[{"index":0,"delta":{"content":"a"}},{"index":1,"delta":{"content":"b"},
                 "finish_reason":"stop"}]}""");
        assertEquals("a", chunk.content());
        assertNull(chunk.finishReason());
    }

    @Test
    void toolCallFragmentsAreKeptAsTheyCame() throws Exception {
        ChatCompletionChunk chunk = parse("""
                {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function",
                 "function":{"name":"search","arguments":"{\\"qu"}}]},"finish_reason":null}]}""");
        assertEquals("call_1", chunk.toolCalls().get(0).get("id").asText());
        assertEquals("{\"qu", chunk.toolCalls().get(0).path("function").path("arguments").asText());
        assertTrue(chunk.carriesToken());
    }

    @Test
    void anErrorChunkFailsTheRead() {
        IOException e = assertThrows(IOException.class, () -> parse("""
                {"error":{"message":"The server had an error","type":"server_error"}}"""));
        assertEquals("The model server sent an error event", e.getMessage());
    }

    @Test
    void brokenJsonFailsTheReadAndOtherJsonIsAnEmptyChunk() throws Exception {
        assertThrows(IOException.class, () -> parse("{\"choices\":[{\"delta\":{\"content\":\"a"));
        assertFalse(parse("\"just a string\"").carriesToken());
    }

    @Test
    void oneParserReadsAStreamsChunksInTurnWithNothingCarriedOver() throws Exception {
        ChatCompletionChunk.Parser parser = new ChatCompletionChunk.Parser();
        assertEquals("a", parse(parser, "{\"choices\":[{\"delta\":{\"content\":\"a\"}}]}").content());
        ChatCompletionChunk finish = parse(parser, " {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]} \n");
        assertEquals("", finish.content());
        assertEquals("stop", finish.finishReason());
        ChatCompletionChunk usage = parse(parser, "{\"choices\":[],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}");
        assertNull(usage.finishReason());
        assertEquals(new Usage(1, 2), usage.usage());
    }

    @Test
    void aStreamsParserFillsOneChunkInTurnRatherThanAllocatingOneAToken() throws Exception {
        ChatCompletionChunk.Parser parser = new ChatCompletionChunk.Parser();
        ChatCompletionChunk chunk = parse(parser, "{\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}");
        assertSame(chunk, parse(parser, "{\"choices\":[{\"delta\":{\"content\":\"b\"}}]}"));
        assertEquals("b", chunk.content());
        assertNull(chunk.finishReason());
        assertSame(chunk, parse(parser, "\"no chunk\""));
        assertFalse(chunk.carriesToken(), "JSON that is no chunk leaves nothing of the one before");
    }

    @Test
    void aChunkCutShortAnywhereFailsRatherThanWaitingForMore() {
        for (String cut : new String[] {"{\"id\":{\"a\":[1,", "{\"choices\":[{\"index\":0,", "{\"usage\":{\"prompt_tokens\":1",
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0", "{\"choices\":[{\"delta\":{}}"}) {
            assertThrows(IOException.class, () -> parse(cut), cut);
        }
    }

    @Test
    void twoValuesInOneEventFail() {
        assertThrows(IOException.class, () -> parse("{\"choices\":[]} {\"choices\":[]}"));
    }

    private static ChatCompletionChunk parse(String json) throws IOException {
        return parse(new ChatCompletionChunk.Parser(), json);
    }

    private static ChatCompletionChunk parse(ChatCompletionChunk.Parser parser, String json) throws IOException {
        byte[] bytes = ("padding " + json).getBytes(StandardCharsets.UTF_8); // an event's data sits in a buffer
        byte[] data = Arrays.copyOfRange(bytes, "padding ".length(), bytes.length + 16);
        return parser.parse(data, bytes.length - "padding ".length());
    }
}
