package dev.docsassistant.thread;

import java.time.Instant;
import java.util.List;

import dev.docsassistant.config.Secrets;
import dev.docsassistant.config.Tenant;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.web.ResponseHeaders;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * Continues the thread the request names, if its key matches and it belongs to this organization, domain and
 * {@code fp}, or starts a new one. A thread that exists elsewhere is answered exactly like one that does not.
 * With {@code requireKey} false (legacy clients that send only the {@code threadId}), a missing key is accepted, but
 * the thread must still belong to the same {@code fp}, and a wrong key is still refused.
 */
public class ResolveThread implements Processor {

    private final ThreadStore threads;
    private final boolean requireKey;

    public ResolveThread(ThreadStore threads, boolean requireKey) {
        this.threads = threads;
        this.requireKey = requireKey;
    }

    @Override
    public void process(Exchange exchange) {
        Tenant tenant = exchange.getProperty(Tenant.PROPERTY, Tenant.class);
        ChatRequest request = exchange.getProperty(ChatRequest.PROPERTY, ChatRequest.class);
        ThreadRef ref = request.threadId() == null ? start(tenant, request.fp()) : resume(tenant, request);
        exchange.setProperty(ThreadRef.PROPERTY, ref);
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
        return new ThreadRef(id, key);
    }

    private ThreadRef resume(Tenant tenant, ChatRequest request) {
        ChatThread.Owner owner = threads.owner(request.threadId())
                .filter(t -> t.organizationId().equals(tenant.organizationId()))
                .filter(t -> t.domainId().equals(tenant.domainId()))
                .filter(t -> t.fp().equals(request.fp()))
                .orElseThrow(ThreadNotFoundException::new);
        if (request.threadKey() == null ? requireKey
                : !Secrets.sameHash(Secrets.sha256(request.threadKey()), owner.keyHash())) {
            throw new ThreadNotFoundException();
        }
        return new ThreadRef(request.threadId(), null);
    }
}
