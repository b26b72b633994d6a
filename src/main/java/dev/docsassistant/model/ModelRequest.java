package dev.docsassistant.model;

import dev.docsassistant.config.Tenant;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.search.SearchResult;

/** Everything a model is given: who asks, the conversation, and what the search found. */
public record ModelRequest(Tenant tenant, ChatRequest chat, SearchResult search) {
}
