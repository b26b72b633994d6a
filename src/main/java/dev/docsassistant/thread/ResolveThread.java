package dev.docsassistant.thread;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.ground.ResponseHeaders;
import dev.docsassistant.ground.Secrets;
import dev.docsassistant.ground.StepContract;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.Role;
import dev.docsassistant.request.UiMessage;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Continues the thread the request names, or starts a new one. The {@code threadId} is the capability, as Mintlify's
 * widget sends only that: unguessable, and handed only to its reader (in the stream's finish and
 * {@code X-Thread-Id}), it continues the thread as long as the thread belongs to this organization, domain and
 * {@code fp}. A {@code threadKey}, when sent, must match (with {@code requireKey}, or the organization's
 * {@code requireThreadKey} in the tenants file, which wins, one must be sent). A thread
 * this reader does not own, or that does not exist (expired, erased, chosen by the client), is answered as a new
 * thread with a new id, so a request cannot tell another reader's thread from none.
 * <p>
 * Server-side history: a request that continues a thread and carries only its newest message gets the thread's
 * recorded turns as the conversation the search and the model see; a client that sends its own history keeps it.
 */
public class ResolveThread implements Processor {

    /** Follows a recorded answer that was cut short, so the model knows what it reads is incomplete. */
    static final String CUT_SHORT = "\n\n[This answer was cut short before it was complete.]";

    private final ThreadStore threads;
    private final boolean requireKey;

    public ResolveThread(ThreadStore threads, boolean requireKey) {
        this.threads = threads;
        this.requireKey = requireKey;
    }

    @Override
    public void process(Exchange exchange) {
        Tenant tenant = exchange.getProperty(StepContract.TENANT, Tenant.class);
        ChatRequest request = exchange.getProperty(StepContract.REQUEST, ChatRequest.class);
        ThreadRef ref = request.threadId() == null ? null : resume(tenant, request);
        if (ref == null) {
            ref = start(tenant, request.fp());
        } else if (request.messages().size() == 1) {
            exchange.setProperty(StepContract.REQUEST, request.withMessages(recorded(ref.id(), request)));
        }
        exchange.setProperty(StepContract.THREAD, ref);
        ResponseHeaders.set(exchange, "X-Thread-Id", ref.id());
        if (ref.isNew()) {
            ResponseHeaders.set(exchange, "X-Thread-Key", ref.key());
        }
    }

    private ThreadRef start(Tenant tenant, String fp) {
        String id = "thr_" + Secrets.token(16);
        String key = "tk_" + Secrets.token(32);
        threads.save(new ChatThread(id, tenant.organizationId(), tenant.domainId(), fp, Secrets.sha256(key),
                Instant.now(), List.of()));
        return new ThreadRef(id, key, messageId());
    }

    /** The reader's thread, null if they have none by that id; a missing or wrong key is refused (404). */
    private ThreadRef resume(Tenant tenant, ChatRequest request) {
        ChatThread.Owner owner = owned(threads.owner(request.threadId()).orElse(null), tenant, request.fp());
        if (owner == null) {
            return null;
        }
        Boolean required = tenant.organization().requireThreadKey();
        if (request.threadKey() == null ? required != null ? required : requireKey
                : !Secrets.sameHash(Secrets.sha256(request.threadKey()), owner.keyHash())) {
            throw new ThreadNotFoundException();
        }
        return new ThreadRef(request.threadId(), null, messageId());
    }

    private static String messageId() {
        return "msg-" + Secrets.id(12);
    }

    /** The owner, if the thread belongs to this organization, domain and fp; else null. */
    static ChatThread.Owner owned(ChatThread.Owner owner, Tenant tenant, String fp) {
        return owner != null && owner.organizationId().equals(tenant.organizationId())
                && owner.domainId().equals(tenant.domainId()) && fp.equals(owner.fp()) ? owner : null;
    }

    /** The thread's recorded turns as user and assistant messages, then the request's newest message. */
    private List<UiMessage> recorded(String threadId, ChatRequest request) {
        List<UiMessage> conversation = new ArrayList<>();
        for (ChatThread.Turn turn : threads.find(threadId).map(ChatThread::turns).orElse(List.of())) {
            conversation.add(message(turn.messageId() + "-q", Role.USER, turn.question()));
            conversation.add(message(turn.messageId(), Role.ASSISTANT,
                    turn.complete() ? turn.answer() : turn.answer() + CUT_SHORT));
        }
        conversation.addAll(request.messages());
        return conversation;
    }

    private static UiMessage message(String id, Role role, String text) {
        return new UiMessage(id, role, text, null, null, null, null);
    }
}
