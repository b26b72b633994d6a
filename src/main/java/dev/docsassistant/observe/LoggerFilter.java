package dev.docsassistant.observe;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.AbstractMatcherFilter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * A logback filter on the logger's name: in logback.xml, keeps the access lines, which have an appender of their
 * own, out of the appender every other line goes to (without Janino for an expression filter).
 */
public class LoggerFilter extends AbstractMatcherFilter<ILoggingEvent> {

    private String logger;

    public void setLogger(String logger) {
        this.logger = logger;
    }

    @Override
    public FilterReply decide(ILoggingEvent event) {
        return event.getLoggerName().equals(logger) ? onMatch : onMismatch;
    }
}
