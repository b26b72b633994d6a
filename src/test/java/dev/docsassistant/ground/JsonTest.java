package dev.docsassistant.ground;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.ser.PropertyWriter;
import com.fasterxml.jackson.databind.ser.std.BeanSerializerBase;
import dev.docsassistant.request.ChatRequest;
import dev.docsassistant.request.ChatRequestV2;
import dev.docsassistant.request.PageRequest;
import dev.docsassistant.request.RequestJson;
import dev.docsassistant.request.SearchRequest;
import dev.docsassistant.request.UiMessage;
import dev.docsassistant.request.UiMessageV2;
import dev.docsassistant.search.Discovery;
import dev.docsassistant.stream.DataStreamParts;
import dev.docsassistant.stream.UiMessageChunks;
import dev.docsassistant.thread.RedisThreadStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every mapper binds records without reflection per call: Blackbird's generated creators and accessors. */
class JsonTest {

    private static final String BLACKBIRD = "com.fasterxml.jackson.module.blackbird.";

    /** Notes whether Jackson called its constructor, then its accessor, through java.lang.reflect. */
    public record Probe(String name) {

        static final List<Boolean> REFLECTIVE = new ArrayList<>();

        public Probe {
            REFLECTIVE.add(calledReflectively());
        }

        @Override
        public String name() {
            REFLECTIVE.add(calledReflectively());
            return name;
        }

        /** Whether a reflection frame lies between here and the test (which JUnit itself calls reflectively). */
        private static boolean calledReflectively() {
            return StackWalker.getInstance(StackWalker.Option.SHOW_REFLECT_FRAMES).walk(frames -> frames
                    .takeWhile(frame -> !frame.getClassName().equals(JsonTest.class.getName()))
                    .anyMatch(frame -> frame.getClassName().startsWith("java.lang.reflect.")
                            || frame.getClassName().startsWith("jdk.internal.reflect.")));
        }
    }

    @Test
    void constructsAndReadsRecordsWithoutReflection() throws Exception {
        for (ObjectMapper mapper : List.of(Json.mapper(), RequestJson.mapper(32))) {
            Probe.REFLECTIVE.clear();
            Probe probe = mapper.readValue("{\"name\":\"a\"}", Probe.class);
            assertEquals("{\"name\":\"a\"}", mapper.writeValueAsString(probe));
            assertEquals(List.of(false, false), Probe.REFLECTIVE, "constructor, accessor");
        }
    }

    /** The request records the routes bind: each is constructed by a Blackbird creator. */
    @ParameterizedTest
    @ValueSource(classes = {ChatRequest.class, ChatRequest.Filter.class, ChatRequest.ContextItem.class,
            UiMessage.class, ChatRequestV2.class, UiMessageV2.class, SearchRequest.class, PageRequest.class})
    void requestRecordsHaveGeneratedCreators(Class<?> type) throws Exception {
        ObjectMapper mapper = RequestJson.mapper(32);
        var context = ((DefaultDeserializationContext) mapper.getDeserializationContext())
                .createDummyInstance(mapper.getDeserializationConfig());
        var deserializer = (BeanDeserializerBase) context.findRootValueDeserializer(mapper.constructType(type));
        assertTrue(deserializer.getValueInstantiator().getClass().getName().startsWith(BLACKBIRD),
                deserializer.getValueInstantiator().getClass().getName());
    }

    /** The records the service writes: Discovery's answers, the streams' chunks, turns. */
    static Stream<Class<?>> writtenRecords() {
        return Stream.concat(
                Stream.of(Discovery.Result.class, Discovery.Metadata.class, Discovery.PageContent.class),
                Stream.of(UiMessageChunks.class, DataStreamParts.class, RedisThreadStore.class)
                        .flatMap(encoder -> Arrays.stream(encoder.getDeclaredClasses())).filter(Class::isRecord));
    }

    /**
     * Each property is read by a Blackbird accessor, except where Blackbird has none: a double (or float, short,
     * byte, char); a property with a serializer of its own ({@code @JsonRawValue}) would be one too (raw JSON goes in
     * as a {@code RawValue} property, or, for the search result's cached hits, outside Jackson altogether).
     */
    @ParameterizedTest
    @MethodSource("writtenRecords")
    void writtenRecordsHaveGeneratedAccessors(Class<?> type) throws Exception {
        var serializer = (BeanSerializerBase) Json.mapper().getSerializerProviderInstance().findValueSerializer(type);
        List<String> reflective = new ArrayList<>();
        for (Iterator<PropertyWriter> it = serializer.properties(); it.hasNext(); ) {
            PropertyWriter property = it.next();
            if (!property.getClass().getName().startsWith(BLACKBIRD)) {
                reflective.add(property.getName());
            }
        }
        assertTrue(serializer.properties().hasNext(), "has properties");
        assertEquals(Arrays.stream(type.getRecordComponents())
                .filter(c -> c.getType() == double.class)
                .map(RecordComponent::getName).toList(), reflective);
    }
}
