package dev.docsassistant.model;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.search.SearchResult;

/**
 * Everything a model is given: who asks, the conversation, what the search found, and the signal that the client
 * went away.
 */
public record ModelRequest(Tenant tenant, ChatRequest chat, SearchResult search, Cancellation cancellation) {

    public ModelRequest(Tenant tenant, ChatRequest chat, SearchResult search) {
        this(tenant, chat, search, new Cancellation());
    }
}
