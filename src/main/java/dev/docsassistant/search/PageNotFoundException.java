package dev.docsassistant.search;

import dev.docsassistant.ground.ApiException;

public class PageNotFoundException extends ApiException {
    public PageNotFoundException(String path) {
        super("page_not_found", "No page at '" + path + "' in this documentation", "path");
    }
}
