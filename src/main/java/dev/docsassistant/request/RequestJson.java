package dev.docsassistant.request;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The strict-but-tolerant JSON binding the unmarshal step uses for request bodies. */
public final class RequestJson {

    private RequestJson() {
    }

    public static ObjectMapper mapper() {
        JsonMapper mapper = JsonMapper.builder()
                // useChat sends fields we do not use (id, revisionId, toolInvocations, …)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                // …but a value of the wrong type is an error, not something to coerce ("fp": 1 is not a string)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
        // ALLOW_COERCION_OF_SCALARS does not cover numbers and booleans read as strings
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }
}
