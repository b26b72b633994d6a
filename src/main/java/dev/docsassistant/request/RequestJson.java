package dev.docsassistant.request;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.docsassistant.ground.Json;

/** The strict-but-tolerant JSON binding the unmarshal step uses for request bodies. */
public final class RequestJson {

    private RequestJson() {
    }

    /** @param maxNestingDepth how deeply arrays and objects may nest; deeper bodies fail while parsing, cheaply */
    public static ObjectMapper mapper(int maxNestingDepth) {
        JsonFactory factory = Json.factory()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(maxNestingDepth).build())
                // {"fp":"a","fp":"b"} is ambiguous: refuse it rather than silently keep one
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        JsonMapper mapper = Json.mapperBuilder(factory)
                // useChat sends fields we do not use (id, revisionId, toolInvocations, …)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                // …but a value of the wrong type is an error, not something to coerce ("fp": 1 is not a string)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                // "retrievalPageSize": 1.5 is not 1 (5.0 and 1e1 are 5 and 10: WholeIntegers), and "role": 1 is
                // not the second role
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .addModule(new SimpleModule("no-nul-strings").addDeserializer(String.class, new NoNulStrings()))
                .addModule(new SimpleModule("whole-integers").addDeserializer(Integer.class, new WholeIntegers()))
                .build();
        // ALLOW_COERCION_OF_SCALARS does not cover numbers and booleans read as strings
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }

    /** A NUL character ({@code \u0000}) is never text a person typed; downstream C strings and logs choke on it. */
    private static final class NoNulStrings extends StringDeserializer {

        @Override
        public String deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            String value = super.deserialize(parser, context);
            if (value != null && value.indexOf('\0') >= 0) {
                throw JsonMappingException.from(parser, "must not contain NUL (\\u0000) characters");
            }
            return value;
        }
    }

    /**
     * An integer written as any JSON number with an integral value: {@code 5.0} and {@code 1e1} are valid JSON for 5
     * and 10 (Python's {@code json.dumps(5.0)} writes the first); {@code 1.5} is refused, never truncated.
     */
    private static final class WholeIntegers extends StdScalarDeserializer<Integer> {

        private final NumberDeserializers.IntegerDeserializer integers =
                new NumberDeserializers.IntegerDeserializer(Integer.class, null);

        WholeIntegers() {
            super(Integer.class);
        }

        @Override
        public Integer deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (!parser.hasToken(JsonToken.VALUE_NUMBER_FLOAT)) {
                return integers.deserialize(parser, context);
            }
            try {
                return parser.getDecimalValue().intValueExact();
            } catch (ArithmeticException e) {
                return (Integer) context.handleWeirdNumberValue(Integer.class, parser.getNumberValue(),
                        "not a whole number in the range of an integer");
            }
        }
    }
}
