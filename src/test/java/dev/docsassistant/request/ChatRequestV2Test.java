package dev.docsassistant.request;

import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** A v2 body as the later steps see it: the v4 request, each v5 part as its v4 equivalent. */
class ChatRequestV2Test {

    private final ObjectMapper json = RequestJson.mapper(32);

    @Test
    void readsV5PartsAsTheirV4Equivalents() throws Exception {
        ChatRequest request = ValidateRequest.validate(json.readValue("""
                {"id":"chat","trigger":"regenerate-message","messageId":"a1","fp":"f","threadId":"thr_1",
                 "threadKey":"tk_1","retrievalPageSize":3,"currentPath":"/quickstart",
                 "filter":{"version":"v2","language":"en","groups":["admins"]},
                 "context":[{"type":"code","value":"x = 1"}],
                 "messages":[
                  {"id":"u1","role":"user","parts":[{"type":"text","text":"How?"},{"type":"text","text":"Really?"}]},
                  {"id":"a1","role":"assistant","metadata":{"threadId":"thr_1"},"parts":[
                   {"type":"step-start"},
                   {"type":"tool-search","toolCallId":"c1","state":"output-available","input":{"q":1},"output":[1]},
                   {"type":"dynamic-tool","toolName":"lookup","toolCallId":"c2","state":"output-error","errorText":"x"},
                   {"type":"tool-weather","toolCallId":"c3","state":"input-available","input":{}},
                   {"type":"reasoning","text":"Thinking."},
                   {"type":"source-url","sourceId":"s1","url":"https://e.com/a","title":"A"},
                   {"type":"source-document","sourceId":"d1","mediaType":"application/pdf","title":"D"},
                   {"type":"file","mediaType":"image/png","url":"https://e.com/a.png"},
                   {"type":"data-notice","data":{"code":"fallback"}},
                   {"type":"text","text":"Like this."}]},
                  {"id":"u2","role":"user","parts":[{"type":"text","text":"And then?"}]}]}
                """, ChatRequestV2.class));

        assertEquals("And then?", request.question());
        assertEquals(new ChatRequest.Filter("v2", "en", List.of("admins")), request.filter());
        assertEquals(List.of("f", "thr_1", "tk_1", 3, "/quickstart"), List.of(request.fp(), request.threadId(),
                request.threadKey(), request.pageSize(), request.currentPath()));
        assertEquals("How?\nReally?", request.messages().get(0).content());

        UiMessage answer = request.messages().get(1);
        assertEquals(Role.ASSISTANT, answer.role());
        assertEquals("Like this.", answer.content());
        List<MessagePart> parts = answer.parts();
        assertEquals(7, parts.size(), "source-document and data-notice have no v4 part, a file is an attachment: "
                + parts);
        assertInstanceOf(MessagePart.StepStart.class, parts.get(0));
        MessagePart.Invocation search = ((MessagePart.ToolInvocation) parts.get(1)).toolInvocation();
        assertEquals("search", search.toolName());
        assertEquals("[1]", assertInstanceOf(MessagePart.Invocation.Result.class, search).result().toString());
        MessagePart.Invocation failed = ((MessagePart.ToolInvocation) parts.get(2)).toolInvocation();
        assertEquals("lookup", failed.toolName());
        assertEquals("x", ((MessagePart.Invocation.Result) failed).result().get("error").asText());
        assertInstanceOf(MessagePart.Invocation.Call.class,
                ((MessagePart.ToolInvocation) parts.get(3)).toolInvocation());
        assertEquals("Thinking.", ((MessagePart.Reasoning) parts.get(4)).reasoning());
        assertEquals(new MessagePart.UrlSource("s1", "https://e.com/a", "A"),
                ((MessagePart.Source) parts.get(5)).source());
        assertEquals(new MessagePart.Text("Like this."), parts.get(6));
        assertEquals(List.of(new Attachment(null, "image/png", "https://e.com/a.png")), answer.attachments());
    }
}
