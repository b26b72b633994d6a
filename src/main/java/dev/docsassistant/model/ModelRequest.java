package dev.docsassistant.model;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.search.SearchResult;

/**
 * Everything a model is given: who asks, the conversation, what the search found, the operator's note for this
 * request's prompt (null for none), the docs team's instructions (their Assistant.md, "" for none), and the signal
 * that the client went away.
 */
public record ModelRequest(Tenant tenant, ChatRequest chat, SearchResult search, String note, String instructions,
        Cancellation cancellation) {

    public ModelRequest(Tenant tenant, ChatRequest chat, SearchResult search) {
        this(tenant, chat, search, null, "", new Cancellation());
    }
}
