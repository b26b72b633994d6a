package dev.docsassistant.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One sync per domain at a time, with no thread waiting for another: a sync asked for while the domain's runs is
 * remembered and run right after it, on the same thread, so a burst of triggers for one domain holds one thread and
 * never a second one parked on a lock, and no other domain waits behind it.
 */
final class SyncGate {

    /** Per domain with a sync running: what was asked for meanwhile (an update's trigger, or null for a refresh). */
    private final Map<String, List<DocsUpdate>> waiting = new HashMap<>();

    /** Whether the caller runs the sync now; otherwise it is remembered for when the one running ends. */
    synchronized boolean enter(String domain, DocsUpdate update) {
        List<DocsUpdate> asked = waiting.get(domain);
        if (asked == null) {
            waiting.put(domain, new ArrayList<>());
            return true;
        }
        if (!asked.contains(update)) {
            asked.add(update); // null once: refreshes and reloads asked meanwhile are all one sync
        }
        return false;
    }

    /** After a sync: what to run next on the same thread, or null when nothing was asked (the gate opens). */
    synchronized List<DocsUpdate> leave(String domain) {
        List<DocsUpdate> asked = waiting.get(domain);
        if (asked == null || asked.isEmpty()) {
            waiting.remove(domain);
            return null;
        }
        waiting.put(domain, new ArrayList<>());
        return asked;
    }

    synchronized boolean busy(String domain) {
        return waiting.containsKey(domain);
    }
}
