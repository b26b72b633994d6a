package dev.docsassistant.sources;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.UnknownHostException;

/**
 * The rule every source's host passes (a site's, each of its redirects', a Git remote's and each URL JGit opens):
 * none of its addresses may be loopback, unspecified, link-local (169.254.0.0/16: cloud metadata), private
 * (10/8, 172.16/12, 192.168/16, fc00::/7), shared (100.64.0.0/10, carrier-grade NAT), benchmarking (198.18/15),
 * IETF (192.0.0/24), reserved (240/4) or multicast, nor an IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4 (2002::/16)
 * address embedding one, nor a local-use NAT64 (64:ff9b:1::/48) or Teredo (2001::/32) address at all (tunnels whose
 * far end this rule cannot see); unless the operator allows it ({@code assistant.sources.allow-private-addresses}).
 */
final class PrivateAddresses {

    private PrivateAddresses() {
    }

    /** @throws SyncException the host is unknown or on an address the rule refuses */
    static void check(String host, boolean allowPrivate) throws SyncException {
        if (!allowPrivate) {
            resolve(host);
        }
    }

    /**
     * The host's addresses, resolved once and each checked: a client that connects to these, and to nothing it
     * resolves itself, connects only where the rule allows, whatever the name resolves to a moment later (DNS
     * rebinding).
     *
     * @throws SyncException the host is unknown or on an address the rule refuses
     */
    static InetAddress[] resolve(String host) throws SyncException {
        try {
            InetAddress[] addresses = InetAddress.getAllByName(host);
            for (InetAddress address : addresses) {
                if (refused(address.getAddress())) {
                    throw refusal(host);
                }
            }
            return addresses;
        } catch (UnknownHostException e) {
            throw new SyncException("unknown host " + host);
        }
    }

    /**
     * A socket connected to one of the host's addresses, resolved once here and each checked unless the operator
     * allows private ones, tried in turn: the name is never resolved again for the connection (DNS rebinding).
     */
    static Socket connect(String host, int port, int timeoutMillis, boolean allowPrivate) throws IOException {
        IOException failure = null;
        for (InetAddress address : addresses(host, allowPrivate)) {
            Socket socket = new Socket(Proxy.NO_PROXY);
            try {
                socket.connect(new InetSocketAddress(address, port), timeoutMillis);
                return socket;
            } catch (IOException e) {
                socket.close();
                failure = e;
            }
        }
        throw failure;
    }

    /**
     * The host's addresses, resolved once, each checked unless the operator allows private ones; as bare addresses
     * (no host name kept), so a client given one connects to it without resolving the name again.
     *
     * @throws SyncException the host is unknown or on an address the rule refuses
     */
    static InetAddress[] addresses(String host, boolean allowPrivate) throws SyncException {
        try {
            InetAddress[] addresses = allowPrivate ? InetAddress.getAllByName(host) : resolve(host);
            InetAddress[] bare = new InetAddress[addresses.length];
            for (int i = 0; i < addresses.length; i++) {
                bare[i] = InetAddress.getByAddress(addresses[i].getAddress());
            }
            return bare;
        } catch (UnknownHostException e) {
            throw new SyncException("unknown host " + host);
        }
    }

    /**
     * Checks the address a socket is about to connect to, as resolved for that connection.
     *
     * @throws SyncException it is unresolved or one the rule refuses
     */
    static void checkConnecting(SocketAddress endpoint) throws SyncException {
        if (!(endpoint instanceof InetSocketAddress address)) {
            throw refusal(String.valueOf(endpoint));
        }
        if (address.isUnresolved() || refused(address.getAddress().getAddress())) {
            throw refusal(address.getHostString());
        }
    }

    private static SyncException refusal(String host) {
        return new SyncException(host + " is on a loopback, link-local or private address "
                + "(assistant.sources.allow-private-addresses)");
    }

    static boolean refused(byte[] raw) {
        if (raw.length == 4) {
            return refusedV4(raw[0] & 0xff, raw[1] & 0xff, raw[2] & 0xff);
        }
        boolean wellKnownNat64 = raw[0] == 0 && raw[1] == 0x64 && (raw[2] & 0xff) == 0xff && (raw[3] & 0xff) == 0x9b;
        boolean teredo = raw[0] == 0x20 && raw[1] == 0x01 && raw[2] == 0 && raw[3] == 0;
        if (wellKnownNat64 && raw[4] == 0 && raw[5] == 1 || teredo) {
            return true; // local-use NAT64 (64:ff9b:1::/48), Teredo (2001::/32)
        }
        if (wellKnownNat64) { // 64:ff9b::/96 and the rest of 64:ff9b::/32: the IPv4 address is the last four bytes
            return refusedV4(raw[12] & 0xff, raw[13] & 0xff, raw[14] & 0xff);
        }
        if ((raw[0] & 0xff) == 0x20 && raw[1] == 0x02) { // 6to4: the IPv4 address follows the prefix
            return refusedV4(raw[2] & 0xff, raw[3] & 0xff, raw[4] & 0xff);
        }
        boolean zeroPrefix = true; // ::, ::1, and IPv4-compatible/mapped addresses
        for (int i = 0; i < 10; i++) {
            zeroPrefix &= raw[i] == 0;
        }
        if (zeroPrefix && (raw[10] == 0 && raw[11] == 0 || raw[10] == (byte) 0xff && raw[11] == (byte) 0xff)) {
            return raw[12] == 0 && raw[13] == 0 && raw[14] == 0 && (raw[15] & 0xfe) == 0
                    || refusedV4(raw[12] & 0xff, raw[13] & 0xff, raw[14] & 0xff);
        }
        int first = raw[0] & 0xff;
        return (first & 0xfe) == 0xfc // unique local
                || first == 0xfe && (raw[1] & 0xc0) == 0x80 // link-local
                || first == 0xfe && (raw[1] & 0xc0) == 0xc0 // site-local (deprecated)
                || first == 0xff; // multicast
    }

    private static boolean refusedV4(int a, int b, int c) {
        return a == 0 || a == 10 || a == 127 || a >= 224
                || a == 100 && b >= 64 && b < 128
                || a == 169 && b == 254
                || a == 172 && b >= 16 && b < 32
                || a == 192 && b == 168
                || a == 192 && b == 0 && c == 0
                || a == 198 && (b == 18 || b == 19);
    }
}
