package dev.docsassistant.request;

import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.DatabindContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.jsontype.impl.TypeIdResolverBase;

/**
 * Type ids as {@link JsonSubTypes} names, where a name ending in {@code *} matches every id with that prefix: AI SDK
 * v5 names tool parts {@code tool-<toolName>} and data parts {@code data-<name>}. An id matching no name is still an
 * error (Jackson's {@code InvalidTypeIdException}, which {@link JsonErrors} turns into a 400 listing the names).
 */
public class PrefixTypeIdResolver extends TypeIdResolverBase {

    private final Map<String, Class<?>> exact = new TreeMap<>();
    private final Map<String, Class<?>> prefixes = new TreeMap<>();
    private JavaType base;

    @Override
    public void init(JavaType baseType) {
        base = baseType;
        for (JsonSubTypes.Type type : baseType.getRawClass().getAnnotation(JsonSubTypes.class).value()) {
            if (type.name().endsWith("*")) {
                prefixes.put(type.name().substring(0, type.name().length() - 1), type.value());
            } else {
                exact.put(type.name(), type.value());
            }
        }
    }

    @Override
    public JavaType typeFromId(DatabindContext context, String id) {
        Class<?> type = exact.get(id);
        if (type == null) {
            type = prefixes.entrySet().stream()
                    .filter(prefix -> id.startsWith(prefix.getKey()) && id.length() > prefix.getKey().length())
                    .map(Map.Entry::getValue).findFirst().orElse(null);
        }
        return type == null ? null : context.constructSpecializedType(base, type);
    }

    @Override
    public String idFromValue(Object value) {
        throw new UnsupportedOperationException("request parts are only read");
    }

    @Override
    public String idFromValueAndType(Object value, Class<?> suggestedType) {
        return idFromValue(value);
    }

    @Override
    public JsonTypeInfo.Id getMechanism() {
        return JsonTypeInfo.Id.CUSTOM;
    }
}
