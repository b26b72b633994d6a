package dev.docsassistant.request;

import com.fasterxml.jackson.annotation.JsonProperty;

public enum ContextType {
    @JsonProperty("code") CODE,
    @JsonProperty("textSelection") TEXT_SELECTION
}
