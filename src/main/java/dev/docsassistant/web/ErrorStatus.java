package dev.docsassistant.web;

import java.util.HashMap;
import java.util.Map;

import org.apache.camel.Exchange;
import org.apache.camel.support.ExpressionAdapter;

/**
 * The error table of {@code errors.yaml}: the HTTP status of the caught exception. Each line of the table is
 * {@code <status> <exception class>}, {@code #} starting a comment. An exception is matched as Camel's
 * {@code onException} matches: its innermost cause first, each by its class or the nearest superclass listed; a
 * class the table names must exist (checked at start-up).
 */
public class ErrorStatus extends ExpressionAdapter {

    private final Map<Class<?>, Integer> statuses = new HashMap<>();

    public ErrorStatus(String table) {
        for (String line : table.split("\n")) {
            String row = line.replaceFirst("#.*", "").strip();
            if (row.isEmpty()) {
                continue;
            }
            String[] cells = row.split("\\s+");
            if (cells.length != 2) {
                throw new IllegalArgumentException("errors.yaml: expected '<status> <exception class>', got '"
                        + row + "'");
            }
            try {
                statuses.put(Class.forName(cells[1]), Integer.valueOf(cells[0]));
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException("errors.yaml: no exception class " + cells[1], e);
            }
        }
    }

    @Override
    public Object evaluate(Exchange exchange) {
        Throwable caught = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        return status(caught);
    }

    Integer status(Throwable caught) {
        if (caught == null) {
            return null;
        }
        Integer inner = status(caught.getCause());
        if (inner != null) {
            return inner;
        }
        for (Class<?> type = caught.getClass(); type != null; type = type.getSuperclass()) {
            Integer status = statuses.get(type);
            if (status != null) {
                return status;
            }
        }
        return null;
    }
}
