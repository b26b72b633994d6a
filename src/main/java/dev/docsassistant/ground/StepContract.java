package dev.docsassistant.ground;

/**
 * Every exchange property the steps pass each other, and so what an own step may rely on: each line names the
 * value's type, the step that writes it and those that read or change it (README, "How a request flows"). A step
 * reads only what an earlier step wrote; a property a route does not reach (no search on {@code /v1/page}, say) is
 * absent, not empty. Steps are named as the routes name their beans.
 */
public final class StepContract {

    /** String, the request's id ({@code X-Request-Id}); requestLog writes it, problemResponse reads it. */
    public static final String REQUEST_ID = "assistant.requestId";
    /**
     * String, the client's address behind the trusted proxies; requestLog writes it, throttle and the access log read
     * it.
     */
    public static final String CLIENT_IP = "assistant.clientIp";
    /**
     * {@code Map<String, String>}, headers for the response, never the request's own; any step adds to it through
     * {@link ResponseHeaders}, the stream and problemResponse write it out.
     */
    public static final String RESPONSE_HEADERS = "assistant.responseHeaders";
    /**
     * {@code config.Tenant}, the organization and domain the request authenticated as; authenticate (authenticateAdmin
     * on admin routes) writes it, every later step reads it, none changes it.
     */
    public static final String TENANT = "assistant.tenant";
    /**
     * String, the SHA-256 of the bearer key, never the key; authenticate writes it, throttle reads it (per-key quota).
     */
    public static final String KEY_ID = "assistant.keyId";
    /**
     * String, the quota decision: {@code allowed}, or {@code refused:} and the refusing scope; throttle and tokenBudget
     * write it, the access log and countRequest read it.
     */
    public static final String RATE_LIMIT = "assistant.rateLimit";
    /**
     * Runnable, what counts one failed authentication of this request against its address; authFailures (and
     * webhookAuthFailures) write it, the error handler's countAuthFailure runs it on a 401 (which it may turn into
     * the guard's 429, or a 503 when it cannot be counted).
     */
    public static final String AUTH_FAILURE = "assistant.authFailure";
    /**
     * {@code request.ChatRequest}, the validated question and conversation (v1 and v2 alike); validateRequest writes
     * it, resolveThread changes it (the thread's earlier turns), the search, the model and recordTurn read it.
     */
    public static final String REQUEST = "assistant.request";
    /**
     * {@code thread.ThreadRef}, the thread continued or started; resolveThread writes it, the stream and recordTurn
     * read it.
     */
    public static final String THREAD = "assistant.thread";
    /**
     * {@code search.SearchResult}, the hits for the question; searchEnrichment writes it, the model, the stream and
     * recordTurn read it.
     */
    public static final String SEARCH = "assistant.search";
    /**
     * String, {@code extractive} or {@code openai}, the model for this request only; an own step may write it (the
     * {@code assistant.model.provider} property is the default), invokeModel reads it.
     */
    public static final String MODEL_PROVIDER = "assistant.model.provider";
    /**
     * String, a note added to the prompt's instructions for this request only; an own step may write it (the
     * prompt-note-action Kamelet does), invokeModel reads it.
     */
    public static final String PROMPT_NOTE = "assistant.prompt.note";
    /**
     * {@code model.ModelReply}, the answer being produced; invokeModel writes it, the stream step reads and closes it.
     */
    public static final String REPLY = "assistant.reply";
    /**
     * {@code model.StreamedAnswer}, what reached the client (text, sources, usage, complete or cut short); the stream
     * step writes it, the access log reads it.
     */
    public static final String ANSWER = "assistant.answer";
    /**
     * String, the answer's text as streamed (cut short unless {@link #ANSWER_COMPLETE}); finishedAnswer writes it for
     * the after-answer steps, which read it.
     */
    public static final String ANSWER_TEXT = "assistant.answer.text";
    /**
     * Boolean, whether the answer was complete (not cut short by an error, a disconnect or the shutdown);
     * finishedAnswer writes it for the after-answer steps, which read it.
     */
    public static final String ANSWER_COMPLETE = "assistant.answer.complete";
    /**
     * String, the problem's {@code code} on a refused or failed request; problemResponse writes it, the access log
     * reads it.
     */
    public static final String PROBLEM_CODE = "assistant.problemCode";

    private StepContract() {
    }
}
