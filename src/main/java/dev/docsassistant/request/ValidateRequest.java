package dev.docsassistant.request;

import java.util.List;

import dev.docsassistant.ground.InvalidRequestException;
import dev.docsassistant.ground.StepContract;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The rules Jackson's binding cannot express: required fields, ranges and lengths. Each failure names the field
 * path and the rule, and where a real client gets it wrong, how to fix it.
 */
public class ValidateRequest implements Processor {

    static final int MAX_PAGE_SIZE = 50;
    static final int MAX_CURRENT_PATH = 200;
    /** fp, threadId and threadKey are identifiers: a few dozen characters from real clients. */
    static final int MAX_IDENTIFIER = 200;

    private final int maxMessages;
    private final int maxTextChars;

    /**
     * @param maxMessages  messages a conversation (and context items a request) may carry; 0: no count, the body's
     *                     bytes bound them
     * @param maxTextChars characters any one text (a message's content, a part's text, a context value) may have
     */
    public ValidateRequest(int maxMessages, int maxTextChars) {
        this.maxMessages = maxMessages;
        this.maxTextChars = maxTextChars;
    }

    @Override
    public void process(Exchange exchange) {
        Object body = exchange.getMessage().getBody();
        ChatRequest request = body instanceof ChatRequestV2 v2 ? validate(v2)
                : exchange.getMessage().getBody(ChatRequest.class);
        validate(request);
        if (!(body instanceof ChatRequestV2)) {
            for (int i = 0; i < request.messages().size(); i++) {
                V4Schema.validate(request.messages().get(i), "messages[" + i + "]");
            }
        }
        exchange.setProperty(StepContract.REQUEST, request);
    }

    public void validate(ChatRequest request) {
        if (request == null) {
            throw new InvalidRequestException(null, "The request body must be a JSON object");
        }
        if (request.fp() == null || request.fp().isBlank()) {
            throw new InvalidRequestException("fp", "fp is required: pass it in useChat's body option");
        }
        maxLength(request.fp(), "fp", MAX_IDENTIFIER);
        maxLength(request.threadId(), "threadId", MAX_IDENTIFIER);
        maxLength(request.threadKey(), "threadKey", MAX_IDENTIFIER);
        List<UiMessage> messages = request.messages();
        if (messages == null || messages.isEmpty()) {
            throw new InvalidRequestException("messages", "messages is required and must not be empty");
        }
        if (maxMessages > 0 && messages.size() > maxMessages) {
            throw new InvalidRequestException("messages", "messages must hold at most " + maxMessages
                    + " messages; start a new thread, or send only the recent ones");
        }
        for (int i = 0; i < messages.size(); i++) {
            validate(messages.get(i), "messages[" + i + "]");
        }
        int last = messages.size() - 1;
        if (messages.get(last).role() != Role.USER || messages.get(last).text().isBlank()) {
            throw new InvalidRequestException("messages[" + last + "]",
                    "messages[" + last + "] must be a user message with text: it is the question");
        }
        Integer pageSize = request.retrievalPageSize();
        if (pageSize != null && (pageSize < 1 || pageSize > MAX_PAGE_SIZE)) {
            throw new InvalidRequestException("retrievalPageSize",
                    "retrievalPageSize must be between 1 and " + MAX_PAGE_SIZE);
        }
        if (request.currentPath() != null && request.currentPath().length() > MAX_CURRENT_PATH) {
            throw new InvalidRequestException("currentPath",
                    "currentPath must be at most " + MAX_CURRENT_PATH + " characters");
        }
        ChatRequest.Filter.validate(request.filter());
        if (request.context() != null) {
            if (maxMessages > 0 && request.context().size() > maxMessages) {
                throw new InvalidRequestException("context", "context must hold at most " + maxMessages + " items");
            }
            for (int i = 0; i < request.context().size(); i++) {
                validate(request.context().get(i), "context[" + i + "]");
            }
        }
    }

    /**
     * A v2 request's own rules (the shape of its UI messages), then the request in the v4 shape, for the rules both
     * versions share. Message and part indexes are kept, so every error names the field as the client sent it.
     */
    static ChatRequest validate(ChatRequestV2 request) {
        List<UiMessageV2> messages = request.messages();
        if (messages == null || messages.isEmpty()) {
            throw new InvalidRequestException("messages", "messages is required and must not be empty");
        }
        for (int i = 0; i < messages.size(); i++) {
            validate(messages.get(i), "messages[" + i + "]");
        }
        return request.toChatRequest();
    }

    private static void validate(UiMessageV2 message, String path) {
        if (message == null) {
            throw new InvalidRequestException(path, path + " must be an object");
        }
        if (message.id() == null || message.id().isEmpty()) {
            throw new InvalidRequestException(path + ".id", path + ".id is required");
        }
        if (message.role() == null || message.role() == Role.DATA) {
            throw new InvalidRequestException(path + ".role", path + ".role must be one of: system, user, assistant");
        }
        require(message.parts(), path + ".parts", "(an array of parts; v2 messages have no content)");
        for (int i = 0; i < message.parts().size(); i++) {
            validate(message.parts().get(i), path + ".parts[" + i + "]");
        }
        long files = message.parts().stream().filter(MessagePartV2.File.class::isInstance).count();
        if (files > Attachment.MAX_PER_MESSAGE) {
            throw new InvalidRequestException(path + ".parts", path + ".parts must hold at most "
                    + Attachment.MAX_PER_MESSAGE + " files");
        }
    }

    private static void validate(MessagePartV2 part, String path) {
        if (part == null) {
            throw new InvalidRequestException(path, path + " must be an object");
        } else if (part instanceof MessagePartV2.Text text) {
            require(text.text(), path + ".text", "");
        } else if (part instanceof MessagePartV2.Reasoning reasoning) {
            require(reasoning.text(), path + ".text", "");
        } else if (part instanceof MessagePartV2.SourceUrl source) {
            require(source.url(), path + ".url", "");
        } else if (part instanceof MessagePartV2.File file) {
            require(file.mediaType(), path + ".mediaType", "");
            require(file.url(), path + ".url", "");
            Attachment.requireFileSize(file.url(), path + ".url");
        } else if (part instanceof MessagePartV2.Tool tool) {
            require(tool.toolCallId(), path + ".toolCallId", "");
        } else if (part instanceof MessagePartV2.DynamicTool tool) {
            require(tool.toolCallId(), path + ".toolCallId", "");
            require(tool.toolName(), path + ".toolName", "");
        }
    }

    private void validate(UiMessage message, String path) {
        if (message == null) {
            throw new InvalidRequestException(path, path + " must be an object");
        }
        if (message.id() == null || message.id().isEmpty()) {
            throw new InvalidRequestException(path + ".id",
                    path + ".id is required: set sendExtraMessageFields: true in useChat");
        }
        require(message.role(), path + ".role", "(one of: system, user, assistant, data)");
        require(message.content(), path + ".content", "(a string, possibly empty)");
        maxLength(message.content(), path + ".content", maxTextChars);
        Attachment.validate(message.experimentalAttachments(), path + ".experimental_attachments");
        if (message.parts() == null) {
            return;
        }
        for (int i = 0; i < message.parts().size(); i++) {
            validate(message.parts().get(i), path + ".parts[" + i + "]");
        }
    }

    private void validate(MessagePart part, String path) {
        if (part == null) {
            throw new InvalidRequestException(path, path + " must be an object");
        } else if (part instanceof MessagePart.Text text) {
            require(text.text(), path + ".text", "");
            maxLength(text.text(), path + ".text", maxTextChars);
        } else if (part instanceof MessagePart.Reasoning reasoning) {
            require(reasoning.reasoning(), path + ".reasoning", "");
        } else if (part instanceof MessagePart.Source source) {
            require(source.source(), path + ".source", "");
            require(source.source().url(), path + ".source.url", "");
        } else if (part instanceof MessagePart.ToolInvocation tool) {
            require(tool.toolInvocation(), path + ".toolInvocation", "");
            require(tool.toolInvocation().toolCallId(), path + ".toolInvocation.toolCallId", "");
            require(tool.toolInvocation().toolName(), path + ".toolInvocation.toolName", "");
        } else if (part instanceof MessagePart.File file) {
            require(file.mimeType(), path + ".mimeType", "");
        }
    }

    private void validate(ChatRequest.ContextItem item, String path) {
        if (item == null) {
            throw new InvalidRequestException(path, path + " must be an object");
        }
        require(item.type(), path + ".type", "(code or textSelection)");
        require(item.value(), path + ".value", "");
        maxLength(item.value(), path + ".value", maxTextChars);
    }

    static void maxLength(String value, String field, int max) {
        if (value != null && value.length() > max) {
            throw new InvalidRequestException(field, field + " must be at most " + max + " characters");
        }
    }

    static void require(Object value, String field, String hint) {
        if (value == null) {
            throw new InvalidRequestException(field, (field + " is required " + hint).trim());
        }
    }
}
