package dev.docsassistant.search;

import dev.docsassistant.ground.ApiException;

/** A status id no update of this service has (unknown, or forgotten after {@code assistant.sources.kept-updates}). */
public class UpdateNotFoundException extends ApiException {

    public UpdateNotFoundException() {
        super("update_not_found", "No update has this statusId", "statusId");
    }
}
