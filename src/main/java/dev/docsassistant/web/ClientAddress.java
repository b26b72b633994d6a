package dev.docsassistant.web;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.netty.util.NetUtil;
import io.vertx.core.http.HttpServerRequest;
import org.apache.camel.Exchange;
import org.apache.camel.component.platform.http.vertx.HttpMessage;

/**
 * The client's IP address, for the per-IP quota and the request log: the socket's peer, unless that peer is one of
 * {@code assistant.trusted-proxies} (CIDRs), in which case the address it forwarded ({@code Forwarded: for=…},
 * else {@code X-Forwarded-For}) is taken, walking the chain from the right past further trusted proxies. Headers
 * from any other peer are ignored, so a client cannot choose its own address. Addresses are parsed as literals only
 * (never resolved) and returned in one canonical spelling, so {@code ::1} and {@code 0:0::1} count as one client.
 */
public class ClientAddress {

    /** The exchange property the request-log step sets. */
    public static final String PROPERTY = "assistant.clientIp";

    private record Cidr(byte[] network, int prefixBits) {

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefixBits / 8;
            int rest = prefixBits % 8;
            if (!Arrays.equals(address, 0, full, network, 0, full)) {
                return false;
            }
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return rest == 0 || (address[full] & mask) == (network[full] & mask);
        }
    }

    private final List<Cidr> trustedProxies;

    /** @param trustedProxies CIDRs or single addresses, separated by commas or spaces; empty trusts no proxy */
    public ClientAddress(String trustedProxies) {
        List<Cidr> cidrs = new ArrayList<>();
        for (String entry : trustedProxies == null ? new String[0] : trustedProxies.split("[,\\s]+")) {
            if (!entry.isBlank()) {
                cidrs.add(cidr(entry.trim()));
            }
        }
        this.trustedProxies = List.copyOf(cidrs);
    }

    /** The address the request-log step resolved, or the socket's peer in a route without that step. */
    public static String of(Exchange exchange) {
        String resolved = exchange.getProperty(PROPERTY, String.class);
        return resolved != null ? resolved : peer(exchange.getMessage(HttpMessage.class).getRequest());
    }

    public String resolve(HttpServerRequest request) {
        String peer = peer(request);
        byte[] hop = NetUtil.createByteArrayFromIpAddressString(peer);
        if (hop == null || !trusted(hop)) {
            return peer;
        }
        List<String> chain = forwardedFor(request);
        for (int i = chain.size() - 1; i >= 0; i--) {
            byte[] address = NetUtil.createByteArrayFromIpAddressString(stripPort(chain.get(i)));
            if (address == null) {
                break; // garbage (or "unknown"): the last trusted hop is the best we know
            }
            hop = canonical(address);
            if (!trusted(hop)) {
                break;
            }
        }
        return NetUtil.bytesToIpAddress(hop);
    }

    private boolean trusted(byte[] address) {
        return trustedProxies.stream().anyMatch(cidr -> cidr.contains(address));
    }

    private static String peer(HttpServerRequest request) {
        var remote = request.remoteAddress();
        if (remote == null || remote.hostAddress() == null) {
            return "unknown";
        }
        byte[] address = NetUtil.createByteArrayFromIpAddressString(remote.hostAddress());
        return address == null ? remote.hostAddress() : NetUtil.bytesToIpAddress(canonical(address));
    }

    /** The forwarded-for chain, client first: RFC 7239 {@code Forwarded} when present, else X-Forwarded-For. */
    private static List<String> forwardedFor(HttpServerRequest request) {
        List<String> chain = new ArrayList<>();
        List<String> forwarded = request.headers().getAll("Forwarded");
        if (!forwarded.isEmpty()) {
            for (String header : forwarded) {
                for (String element : header.split(",")) {
                    String node = "";
                    for (String pair : element.split(";")) {
                        String[] nameValue = pair.trim().split("=", 2);
                        if (nameValue.length == 2 && nameValue[0].trim().toLowerCase(Locale.ROOT).equals("for")) {
                            node = nameValue[1].trim().replace("\"", "");
                        }
                    }
                    chain.add(node);
                }
            }
            return chain;
        }
        for (String header : request.headers().getAll("X-Forwarded-For")) {
            for (String node : header.split(",")) {
                chain.add(node.trim());
            }
        }
        return chain;
    }

    /** {@code [2001:db8::1]:4711} → {@code 2001:db8::1}; {@code 192.0.2.1:80} → {@code 192.0.2.1}. */
    private static String stripPort(String node) {
        if (node.startsWith("[")) {
            int end = node.indexOf(']');
            return end < 0 ? node : node.substring(1, end);
        }
        int colon = node.indexOf(':');
        return colon > 0 && colon == node.lastIndexOf(':') ? node.substring(0, colon) : node;
    }

    /** IPv4-mapped IPv6 ({@code ::ffff:10.0.0.1}) as plain IPv4, so one CIDR covers both spellings. */
    private static byte[] canonical(byte[] address) {
        if (address.length == 16) {
            boolean mapped = address[10] == (byte) 0xFF && address[11] == (byte) 0xFF;
            for (int i = 0; i < 10 && mapped; i++) {
                mapped = address[i] == 0;
            }
            if (mapped) {
                return Arrays.copyOfRange(address, 12, 16);
            }
        }
        return address;
    }

    private static Cidr cidr(String entry) {
        int slash = entry.indexOf('/');
        byte[] network = NetUtil.createByteArrayFromIpAddressString(slash < 0 ? entry : entry.substring(0, slash));
        if (network == null) {
            throw new IllegalArgumentException("assistant.trusted-proxies: '" + entry + "' is not an IP address or CIDR");
        }
        network = canonical(network);
        int bits = network.length * 8;
        if (slash >= 0) {
            try {
                bits = Integer.parseInt(entry.substring(slash + 1));
            } catch (NumberFormatException e) {
                bits = -1;
            }
            if (bits < 0 || bits > network.length * 8) {
                throw new IllegalArgumentException("assistant.trusted-proxies: '" + entry + "' has a bad prefix length");
            }
        }
        return new Cidr(network, bits);
    }
}
