package dev.docsassistant;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

/** Every log event of the JVM from now on, as the text a log file would hold (message and stack trace). */
final class CapturedLogs extends AppenderBase<ILoggingEvent> {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<String> access = new CopyOnWriteArrayList<>();

    static CapturedLogs capture() {
        CapturedLogs logs = new CapturedLogs();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        logs.setContext(root.getLoggerContext());
        logs.start();
        root.addAppender(logs);
        return logs;
    }

    @Override
    protected void append(ILoggingEvent event) {
        String text = event.getLevel() + " " + event.getLoggerName() + " " + event.getFormattedMessage()
                + (event.getThrowableProxy() == null ? "" : "\n" + ThrowableProxyUtil.asString(event.getThrowableProxy()));
        lines.add(text);
        if (event.getLoggerName().equals("dev.docsassistant.access")) {
            access.add(event.getFormattedMessage());
        }
    }

    List<String> lines() {
        return lines;
    }

    /** The request log's JSON lines. */
    List<String> access() {
        return access;
    }
}
