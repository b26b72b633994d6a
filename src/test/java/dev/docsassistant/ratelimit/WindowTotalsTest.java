package dev.docsassistant.ratelimit;

import java.time.Duration;

import dev.docsassistant.store.Store;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an instance keeps of its totals is bounded in bytes (16 MiB), however many keys clients make: an address per
 * failed authentication here, as a client spread over many IPv6 /64s makes them.
 */
class WindowTotalsTest {

    private static final Duration WINDOW = Duration.ofMinutes(10);

    @Test
    void keysMadeByClientsTakeAtMostSixteenMebibytes() {
        WindowTotals totals = new WindowTotals(new Store("memory", null, "closed", 60));
        int made = 200_000;
        for (int i = 0; i < made; i++) {
            assertEquals(1, totals.add(key(i), 1, WINDOW)[0]);
        }
        int kept = 0;
        for (int i = 0; i < made; i++) {
            kept += (int) totals.seen(key(i), WINDOW)[0];
        }
        // each kept total takes its key (over 50 characters in its window: over 160 bytes), its record and counter
        // (64) and Caffeine's entry (96): over 320 bytes
        long atMost = (16L << 20) / 320;
        assertTrue(kept <= atMost, kept + " of " + made + " totals kept, at most " + atMost);
        assertTrue(kept >= atMost / 4, "still counting: " + kept + " kept");
    }

    /** An address's failed authentications' key, as AuthFailures names them (an IPv6 /64 per client). */
    private static String key(int client) {
        return "auth-failures:2001:db8:" + Integer.toHexString(client >>> 16) + ':' + Integer.toHexString(client & 0xFFFF)
                + "::/64";
    }
}
