package dev.docsassistant.thread;

import java.time.Instant;
import java.util.Map;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.InvalidRequestException;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.request.FeedbackRequest;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The feedback step: the reader's rating of an answer, kept on its turn. Bound to the thread like a follow-up (same
 * organization, domain and {@code fp}), so a public key alone rates no one else's answer; a thread that is not the
 * reader's answers like a missing one (404). An answer has one rating: a new one replaces it, so repeating a request
 * adds nothing, and the comment is bounded.
 */
public class RecordFeedback implements Processor {

    private final ThreadStore threads;
    private final int maxCommentChars;

    public RecordFeedback(ThreadStore threads, int maxCommentChars) {
        this.threads = threads;
        this.maxCommentChars = maxCommentChars;
    }

    @Override
    public void process(Exchange exchange) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        FeedbackRequest request = exchange.getMessage().getBody(FeedbackRequest.class);
        if (request == null) {
            throw new InvalidRequestException(null, "The request body must be a JSON object");
        }
        request.validate(maxCommentChars);
        if (ResolveThread.owned(threads.owner(request.threadId()).orElse(null), tenant, request.fp()) == null) {
            throw new ThreadNotFoundException();
        }
        String comment = request.comment() == null || request.comment().isBlank() ? null : request.comment().strip();
        if (!threads.feedback(request.threadId(), request.messageId(),
                new ChatThread.Feedback(request.rating().wire(), comment, Instant.now()))) {
            throw new MessageNotFoundException();
        }
        exchange.getMessage().setBody(Map.of("threadId", request.threadId(), "messageId", request.messageId(),
                "rating", request.rating().wire()));
    }
}
