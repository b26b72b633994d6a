package dev.docsassistant.request;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.docsassistant.ground.InvalidRequestException;

/**
 * Turns Jackson's binding failures into a message that names the field path and the rule it broke, e.g.
 * {@code messages[0].role must be one of: system, user, assistant, data}. Runs only on the error path.
 */
public final class JsonErrors {

    // What a type accepts, read from its annotations and constants once per type, not on every bad request.
    private static final ClassValue<String> DISCRIMINATORS = perType(JsonErrors::discriminator);
    private static final ClassValue<String> SUBTYPE_NAMES = perType(JsonErrors::subtypeNames);
    private static final ClassValue<String> ENUM_VALUES = perType(JsonErrors::enumValues);

    private JsonErrors() {
    }

    private static ClassValue<String> perType(Function<Class<?>, String> read) {
        return new ClassValue<>() {
            @Override
            protected String computeValue(Class<?> type) {
                return read.apply(type);
            }
        };
    }

    public static InvalidRequestException describe(JsonProcessingException error) {
        if (!(error instanceof JsonMappingException mapping)) {
            return new InvalidRequestException(null, "The request body is not valid JSON: " + error.getOriginalMessage());
        }
        String path = path(mapping.getPath());
        if (error instanceof InvalidTypeIdException typeId) {
            Class<?> base = typeId.getBaseType().getRawClass();
            String field = join(path, DISCRIMINATORS.get(base));
            String known = SUBTYPE_NAMES.get(base);
            return new InvalidRequestException(field, typeId.getTypeId() == null
                    ? field + " is required (one of: " + known + ")"
                    : field + " must be one of: " + known + " (got '" + typeId.getTypeId() + "')");
        }
        if (path.isEmpty()) {
            return new InvalidRequestException(null, "The request body must be a JSON object");
        }
        if (error instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            Class<?> type = mismatch.getTargetType();
            return new InvalidRequestException(path, type.isEnum()
                    ? path + " must be one of: " + ENUM_VALUES.get(type)
                    : path + " must be " + kind(type));
        }
        return new InvalidRequestException(path, path + " is invalid: " + mapping.getOriginalMessage());
    }

    private static String discriminator(Class<?> base) {
        JsonTypeInfo info = base.getAnnotation(JsonTypeInfo.class);
        return info == null ? "type" : info.property();
    }

    private static String subtypeNames(Class<?> base) {
        return Arrays.stream(base.getAnnotation(JsonSubTypes.class).value())
                .map(JsonSubTypes.Type::name).collect(Collectors.joining(", "));
    }

    private static String enumValues(Class<?> type) {
        return Arrays.stream(type.getFields())
                .filter(java.lang.reflect.Field::isEnumConstant)
                .map(constant -> {
                    JsonProperty json = constant.getAnnotation(JsonProperty.class);
                    return json != null ? json.value() : constant.getName();
                })
                .collect(Collectors.joining(", "));
    }

    private static String kind(Class<?> type) {
        if (type == String.class) {
            return "a string";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive() && type != boolean.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "a boolean";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "an object";
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static String path(List<JsonMappingException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }
}
