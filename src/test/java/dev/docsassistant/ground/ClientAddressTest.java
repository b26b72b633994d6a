package dev.docsassistant.ground;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The client address with {@code assistant.client-ip-header=Forwarded} (the service tests cover X-Forwarded-For), and
 * the unit the per-address limits count.
 */
class ClientAddressTest {

    private final ClientAddress forwarded = new ClientAddress("10.0.0.0/8", "Forwarded");

    @Test
    void readsTheRightmostForNodeThatIsNotATrustedProxy() {
        assertEquals("192.0.2.60", forwarded.resolve("10.0.0.1", List.of("for=192.0.2.60;proto=https;by=10.0.0.1")));
        assertEquals("2001:db8::1", forwarded.resolve("10.0.0.1", List.of("for=\"[2001:db8::1]:4711\"")));
        assertEquals("192.0.2.61", forwarded.resolve("10.0.0.1", List.of("for=192.0.2.61, for=10.9.9.9")));
        assertEquals("192.0.2.62", forwarded.resolve("10.0.0.1", List.of("for=192.0.2.1", "for=192.0.2.62")),
                "one element per header line, in order");
    }

    @Test
    void aClientCannotChooseItsAddressOnTheLeft() {
        // The client sent "for=198.51.100.1"; the proxy appended the address it saw.
        assertEquals("203.0.113.5", forwarded.resolve("10.0.0.1", List.of("for=198.51.100.1, for=203.0.113.5")));
        assertEquals("203.0.113.5", forwarded.resolve("10.0.0.1", List.of("for=10.1.1.1, for=203.0.113.5")),
                "a trusted address on the client's side of the chain is the client's word too");
        assertEquals("10.0.0.1", forwarded.resolve("10.0.0.1", List.of("for=unknown")),
                "an obfuscated node: the last trusted hop is the best known");
        assertEquals("192.0.2.9", forwarded.resolve("192.0.2.9", List.of("for=198.51.100.1")),
                "from an untrusted peer the header is ignored");
    }

    @Test
    void aNameOtherThanTheTwoHeadersStopsTheServiceAtStart() {
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> new ClientAddress("", "X-Real-IP"));
        assertEquals("assistant.client-ip-header must be 'X-Forwarded-For' or 'Forwarded', not 'X-Real-IP'",
                wrong.getMessage());
    }

    @Test
    void anIpv6SubscribersWhole64IsOneUnitAndAnIpv4AddressIsItsOwn() {
        assertEquals("2001:db8:1:2::/64", ClientAddress.limitUnit("2001:db8:1:2::a"));
        assertEquals(ClientAddress.limitUnit("2001:db8:1:2::a"), ClientAddress.limitUnit("2001:db8:1:2:ffff:1:2:3"));
        assertNotEquals(ClientAddress.limitUnit("2001:db8:1:2::a"), ClientAddress.limitUnit("2001:db8:1:3::a"));
        assertEquals("203.0.113.7", ClientAddress.limitUnit("203.0.113.7"));
        assertEquals("unknown", ClientAddress.limitUnit("unknown"));
    }
}
