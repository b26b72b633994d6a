package dev.docsassistant.request;

import java.util.List;

import dev.docsassistant.ground.InvalidRequestException;

/**
 * The body {@code useChat} posts to {@code /v1/assistant/{domain}/message}: the whole conversation plus the widget's
 * extra {@code body} fields. Unknown fields (the chat {@code id}, {@code revisionId}, …) are ignored.
 */
public record ChatRequest(
        String fp,
        List<UiMessage> messages,
        String threadId,
        String threadKey,
        Integer retrievalPageSize,
        Filter filter,
        List<ContextItem> context,
        String currentPath) {

    public static final int DEFAULT_PAGE_SIZE = 5;

    /** This request with another conversation (the thread's recorded turns before the question, say). */
    public ChatRequest withMessages(List<UiMessage> conversation) {
        return new ChatRequest(fp, conversation, threadId, threadKey, retrievalPageSize, filter, context, currentPath);
    }

    public int pageSize() {
        return retrievalPageSize == null ? DEFAULT_PAGE_SIZE : retrievalPageSize;
    }

    /** The question being asked: the text of the last user message. */
    public String question() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            UiMessage message = messages.get(i);
            if (message.role() == Role.USER) {
                return message.text();
            }
        }
        return "";
    }

    /**
     * What to search within. {@code groups} are the reader's user groups: pages whose frontmatter {@code groups}
     * names one of them are found besides the public ones; none (the default) finds public pages only. {@code tag}
     * (the discovery search's) keeps pages whose frontmatter {@code tag} is that one.
     */
    public record Filter(String version, String language, List<String> groups, String tag) {

        /** A reader belongs to a handful of groups in practice; each becomes a clause of the search. */
        static final int MAX_GROUPS = 50;
        static final int MAX_GROUP = 200;

        public Filter {
            groups = groups == null ? List.of() : groups;
        }

        public Filter(String version, String language, List<String> groups) {
            this(version, language, groups, null);
        }

        /** The filter of a request that may have none. */
        public static Filter of(Filter filter) {
            return filter == null ? new Filter(null, null, null) : filter;
        }

        /** The rules of {@code filter.groups}: at most {@value #MAX_GROUPS} names, each a short non-blank string. */
        static void validate(Filter filter) {
            validateGroups(of(filter).groups(), "filter.groups");
            for (String[] field : new String[][] {{"filter.version", of(filter).version()},
                    {"filter.language", of(filter).language()}, {"filter.tag", of(filter).tag()}}) {
                if (field[1] != null && field[1].length() > MAX_GROUP) {
                    throw new InvalidRequestException(field[0], field[0] + " must be at most " + MAX_GROUP
                            + " characters");
                }
            }
        }

        /** The same rules for a list of groups named {@code name} ({@code /v1/page}'s top-level {@code groups}). */
        static void validateGroups(List<String> groups, String name) {
            if (groups.size() > MAX_GROUPS) {
                throw new InvalidRequestException(name, name + " must hold at most " + MAX_GROUPS + " groups");
            }
            for (int i = 0; i < groups.size(); i++) {
                String group = groups.get(i);
                if (group == null || group.isBlank() || group.length() > MAX_GROUP) {
                    String field = name + "[" + i + "]";
                    throw new InvalidRequestException(field, field + " must be a group name: a non-blank string of at"
                            + " most " + MAX_GROUP + " characters");
                }
            }
        }
    }

    public record ContextItem(ContextType type, String value, String path, String elementId) {
    }
}
