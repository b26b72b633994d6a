package dev.docsassistant.sources;

import java.net.InetAddress;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The address rule of every source's host: the ranges a tenants file must not make the service reach. */
class PrivateAddressesTest {

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "0.0.0.0", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1",
            "169.254.169.254", "100.64.0.1", "100.127.255.254", "198.18.0.1", "192.0.0.170", "224.0.0.1",
            "240.0.0.1", "255.255.255.255", "::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1",
            "::ffff:10.0.0.1", "64:ff9b::a9fe:a9fe", "64:ff9b::7f00:1", "2002:c0a8:0101::1", "::127.0.0.1"})
    void refusesInsideAddresses(String address) throws Exception {
        assertTrue(PrivateAddresses.refused(InetAddress.getByName(address).getAddress()), address);
        SyncException refused = assertThrows(SyncException.class, () -> PrivateAddresses.check(address, false));
        assertTrue(refused.getMessage().contains("assistant.sources.allow-private-addresses"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.32.0.1", "192.169.0.1",
            "2606:4700::1111", "64:ff9b::808:808", "2002:0808:0808::1"})
    void allowsPublicAddresses(String address) throws Exception {
        assertFalse(PrivateAddresses.refused(InetAddress.getByName(address).getAddress()), address);
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "10.0.0.1"})
    void anOperatorMayAllowThem(String address) throws Exception {
        PrivateAddresses.check(address, true);
        assertEquals(address, InetAddress.getByName(address).getHostAddress());
    }
}
