package dev.docsassistant.sources;

import java.net.InetAddress;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The address rule of every source's host: the ranges a tenants file must not make the service reach. */
class PrivateAddressesTest {

    /** Each range the rule refuses, by its first, an inner and its last address where they differ. */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
            "0.0.0.0/8 this network, 0.0.0.0", "0.0.0.0/8 this network, 0.255.255.255",
            "10/8 private, 10.0.0.0", "10/8 private, 10.255.255.255",
            "100.64/10 shared (CGNAT), 100.64.0.1", "100.64/10 shared (CGNAT), 100.127.255.254",
            "127/8 loopback, 127.0.0.1", "127/8 loopback, 127.255.255.254",
            "169.254/16 link-local (metadata), 169.254.169.254",
            "172.16/12 private, 172.16.0.1", "172.16/12 private, 172.31.255.255",
            "192.0.0.0/24 IETF, 192.0.0.170", "192.168/16 private, 192.168.1.1",
            "198.18/15 benchmarking, 198.18.0.1", "198.18/15 benchmarking, 198.19.255.255",
            "224/4 multicast, 224.0.0.1", "224/4 multicast, 239.255.255.255",
            "240/4 reserved, 240.0.0.1", "255.255.255.255 broadcast, 255.255.255.255",
            ":: unspecified, ::", "::1 loopback, ::1", "IPv4-compatible loopback, ::127.0.0.1",
            "fc00::/7 unique local, fc00::1", "fc00::/7 unique local, fd12:3456::1",
            "fe80::/10 link-local, fe80::1", "fe80::/10 link-local, febf::1",
            "ff00::/8 multicast, ff02::1",
            "IPv4-mapped private, ::ffff:10.0.0.1", "IPv4-mapped loopback, ::ffff:127.0.0.1",
            "IPv4-mapped metadata, ::ffff:169.254.169.254",
            "NAT64 64:ff9b::/96 of metadata, 64:ff9b::a9fe:a9fe", "NAT64 64:ff9b::/96 of loopback, 64:ff9b::7f00:1",
            "NAT64 64:ff9b::/96 of CGNAT, 64:ff9b::6440:1",
            "local-use NAT64 64:ff9b:1::/48, 64:ff9b:1::a00:1", "local-use NAT64 64:ff9b:1::/48, 64:ff9b:1:ffff::1",
            "6to4 2002::/16 of 192.168.1.1, 2002:c0a8:0101::1", "6to4 2002::/16 of 10.0.0.1, 2002:0a00:0001::1",
            "6to4 2002::/16 of 127.0.0.1, 2002:7f00:0001::1",
            "Teredo 2001::/32, 2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo 2001::/32, 2001::1"})
    void refusesInsideAddresses(String range, String address) throws Exception {
        assertTrue(PrivateAddresses.refused(InetAddress.getByName(address).getAddress()), range + ": " + address);
        SyncException refused = assertThrows(SyncException.class, () -> PrivateAddresses.check(address, false));
        assertTrue(refused.getMessage().contains("assistant.sources.allow-private-addresses"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.32.0.1", "192.169.0.1",
            "2606:4700::1111", "64:ff9b::808:808", "2002:0808:0808::1", "2001:4860:4860::8888", "2001:1::1",
            "2003::1", "fbff::1"})
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
