package dev.docsassistant.config;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.camel.spi.PropertiesFunction;

/**
 * {@code {{routes-dir:assistant.routes-dir}}}: the route-include entry for the external routes folder. camel-main
 * fails to start on a {@code file:} pattern whose folder is missing, so an unset folder contributes nothing (the
 * service runs on its bundled routes) and a folder that is set but missing fails with a message naming the property.
 * Found by Camel through {@code META-INF/services/org/apache/camel/properties-function/routes-dir}.
 */
public class RoutesDirFunction implements PropertiesFunction {

    @Override
    public String getName() {
        return "routes-dir";
    }

    /** The argument names a property; its value is what {@link #apply} receives. */
    @Override
    public boolean lookupFirst(String remainder) {
        return true;
    }

    @Override
    public String apply(String folder) {
        if (folder == null || folder.isBlank()) {
            return "";
        }
        Path dir = Path.of(folder.trim()).toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("assistant.routes-dir " + dir + " is not a folder");
        }
        return "file:" + dir + "/*.yaml";
    }
}
