package dev.docsassistant.agents;

import dev.docsassistant.ground.ApiException;

/**
 * A GET (or any method but POST) on a domain's MCP server: it offers no stream of its own (Streamable HTTP's 405),
 * and no page may sit at {@code /mcp}, which Mintlify reserves too.
 */
public class McpMethodNotAllowedException extends ApiException {

    public McpMethodNotAllowedException() {
        super("method_not_allowed", "The MCP server answers POST only: it keeps no stream open", null);
    }
}
