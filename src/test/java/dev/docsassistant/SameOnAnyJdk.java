package dev.docsassistant;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test whose outcome does not depend on the JDK running the suite: it runs no service code in this JVM (docs,
 * manifests, alert rules, the architecture's bytecode), or starts the service on the JDK it picks itself. .ci/run's
 * second pass, on a JDK 21+, leaves these out ({@code -DexcludedGroups=same-on-any-jdk}): the first ran them.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("same-on-any-jdk")
public @interface SameOnAnyJdk {
}
