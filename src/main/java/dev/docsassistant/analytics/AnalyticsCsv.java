package dev.docsassistant.analytics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.docsassistant.ground.Json;
import dev.docsassistant.ground.ResponseHeaders;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;

/**
 * A listing of the analytics API as CSV ({@code /v1/analytics/{domain}/assistant.csv} and each view's likewise): the
 * page of rows its JSON view answers, one column per field in Mintlify's names, a header row first; a list (an
 * answer's sources) as its URLs, space-separated, another value as JSON. The next page's cursor, when there is one, in
 * {@code X-Next-Cursor}. A cell a spreadsheet would read as a formula (a reader's question starting with {@code =},
 * {@code +}, {@code -}, {@code @}) is prefixed with {@code '}: the docs team opens these files.
 */
public class AnalyticsCsv implements Processor {

    private static final CsvMapper CSV = new CsvMapper();
    private static final ObjectMapper JSON = Json.mapper();

    /** After the view's step: the JSON view's body, its first list, as the response's CSV. */
    @Override
    public void process(Exchange exchange) throws JsonProcessingException {
        Message message = exchange.getMessage();
        @SuppressWarnings("unchecked")
        Map<String, Object> body = message.getBody(Map.class);
        List<?> rows = body.values().stream().filter(List.class::isInstance).map(List.class::cast).findFirst()
                .orElseThrow(() -> new IllegalStateException("no rows in the analytics view"));
        Set<String> columns = new LinkedHashSet<>();
        List<Map<String, String>> cells = new ArrayList<>();
        for (Object row : rows) {
            Map<String, String> line = new LinkedHashMap<>();
            JSON.<Map<String, Object>>convertValue(row, JSON.getTypeFactory().constructMapType(Map.class,
                    String.class, Object.class)).forEach((column, value) -> {
                        columns.add(column);
                        line.put(column, cell(value));
                    });
            cells.add(line);
        }
        CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
        columns.forEach(schema::addColumn);
        Object cursor = body.get("nextCursor");
        if (cursor != null) {
            ResponseHeaders.set(exchange, "X-Next-Cursor", cursor);
        }
        String view = exchange.getProperty(Analytics.VIEW, String.class);
        ResponseHeaders.set(exchange, "Content-Disposition", "attachment; filename=\"" + view + ".csv\"");
        message.removeHeaders("*");
        ResponseHeaders.of(exchange).forEach(message::setHeader);
        message.setHeader(Exchange.HTTP_RESPONSE_CODE, 200);
        message.setHeader(Exchange.CONTENT_TYPE, "text/csv; charset=utf-8");
        message.setBody(CSV.writer(schema.build()).writeValueAsString(cells));
    }

    private static String cell(Object value) {
        String text;
        if (value == null) {
            return "";
        } else if (value instanceof List<?> list) {
            List<String> urls = new ArrayList<>();
            list.forEach(item -> urls.add(item instanceof Map<?, ?> map && map.get("url") != null
                    ? map.get("url").toString() : String.valueOf(item)));
            text = String.join(" ", urls);
        } else if (value instanceof Map<?, ?> map) {
            text = JSON.valueToTree(map).toString();
        } else {
            text = value.toString();
        }
        return !text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0 ? "'" + text : text;
    }
}
