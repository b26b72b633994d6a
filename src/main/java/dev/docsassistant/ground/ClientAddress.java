package dev.docsassistant.ground;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.netty.util.NetUtil;
import io.vertx.core.http.HttpServerRequest;
import org.apache.camel.Exchange;
import org.apache.camel.component.platform.http.vertx.HttpMessage;

/**
 * The client's IP address, for the per-address limits and the request log: the socket's peer, unless that peer is one
 * of {@code assistant.trusted-proxies} (CIDRs), in which case the one header {@code assistant.client-ip-header} names
 * ({@code X-Forwarded-For}, or RFC 7239 {@code Forwarded}) is read from the right: the first address that is not a
 * trusted proxy is the client. Only that header counts, and only its right end, which the trusted proxies wrote: a
 * client can put anything on the left of either header, or send the other header whole, and change nothing. Headers
 * from any other peer are ignored. Addresses are parsed as literals only (never resolved) and returned in one
 * canonical spelling, so {@code ::1} and {@code 0:0::1} count as one client.
 */
public class ClientAddress {

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
    private final boolean rfc7239;

    /**
     * @param trustedProxies CIDRs or single addresses, separated by commas or spaces; empty trusts no proxy
     * @param header         the header the trusted proxies write: {@code X-Forwarded-For} or {@code Forwarded}
     */
    public ClientAddress(String trustedProxies, String header) {
        this.rfc7239 = switch (header.trim().toLowerCase(Locale.ROOT)) {
            case "x-forwarded-for" -> false;
            case "forwarded" -> true;
            default -> throw new IllegalArgumentException(
                    "assistant.client-ip-header must be 'X-Forwarded-For' or 'Forwarded', not '" + header + "'");
        };
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
        String resolved = exchange.getProperty(StepContract.CLIENT_IP, String.class);
        return resolved != null ? resolved : peer(exchange.getMessage(HttpMessage.class).getRequest());
    }

    public String resolve(HttpServerRequest request) {
        return resolve(peer(request), request.headers().getAll(rfc7239 ? "Forwarded" : "X-Forwarded-For"));
    }

    /** @param headers the configured header's values, in the order they came */
    String resolve(String peer, List<String> headers) {
        byte[] hop = NetUtil.createByteArrayFromIpAddressString(peer);
        if (hop == null || !trusted(hop)) {
            return peer;
        }
        List<String> chain = rfc7239 ? forwardedFor(headers) : xForwardedFor(headers);
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

    /** The {@code for=} nodes of RFC 7239 {@code Forwarded} values, client first; a node without one is blank. */
    private static List<String> forwardedFor(List<String> headers) {
        List<String> chain = new ArrayList<>();
        for (String header : headers) {
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

    /** The addresses of {@code X-Forwarded-For} values, client first. */
    private static List<String> xForwardedFor(List<String> headers) {
        List<String> chain = new ArrayList<>();
        for (String header : headers) {
            for (String node : header.split(",")) {
                chain.add(node.trim());
            }
        }
        return chain;
    }

    /**
     * The unit every per-address limit counts: an IPv4 address, or an IPv6 address's /64 (written {@code
     * 2001:db8:1:2::/64}), since one subscriber is routinely given a whole /64 and could otherwise take a fresh
     * address, and a fresh quota, for every request. Anything that is not an address literal is its own unit.
     */
    public static String limitUnit(String address) {
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
        if (bytes == null || bytes.length == 4) {
            return address;
        }
        Arrays.fill(bytes, 8, 16, (byte) 0);
        return NetUtil.bytesToIpAddress(bytes) + "/64";
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
