package dev.docsassistant.request;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import dev.docsassistant.ground.InvalidRequestException;

/**
 * A file the reader attached to a message: v1's {@code experimental_attachments} ({@code {name?, contentType?,
 * url}}) and v2's {@code file} parts ({@code {mediaType, filename?, url}}) alike. The service never fetches its URL:
 * an image is handed to a model that takes images by its URL, and only a {@code data:} URL's own bytes are ever read.
 */
public record Attachment(String name, String contentType, String url) {

    /** Attachments a message may carry. */
    static final int MAX_PER_MESSAGE = 10;
    /** Mintlify's limit on one attached file: 5 MB (what a data: URL carries, decoded). */
    static final long MAX_FILE_BYTES = 5L * 1024 * 1024;

    /** Its media type: the declared one, or a {@code data:} URL's; lower case, without parameters; "" if none. */
    public String mediaType() {
        String type = contentType;
        if ((type == null || type.isBlank()) && url.startsWith("data:")) {
            type = url.substring("data:".length(), Math.max(url.indexOf(','), "data:".length()));
        }
        return type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    }

    public boolean isImage() {
        return mediaType().startsWith("image/") && (url.startsWith("https://") || url.startsWith("http://")
                || url.startsWith("data:image/"));
    }

    /** A text file carried in a {@code data:} URL, which can be read without fetching anything. */
    public boolean isInlineText() {
        String type = mediaType();
        return url.startsWith("data:") && url.indexOf(',') > 0 && (type.startsWith("text/")
                || type.equals("application/json") || type.endsWith("+json") || type.endsWith("/xml")
                || type.equals("application/yaml") || type.equals("application/x-yaml"));
    }

    /** The text of an {@link #isInlineText() inline text file}; malformed bytes become U+FFFD, never an error. */
    public String text() {
        int comma = url.indexOf(',');
        String data = url.substring(comma + 1);
        if (url.substring(0, comma).endsWith(";base64")) {
            try {
                return new String(Base64.getMimeDecoder().decode(data), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return "";
            }
        }
        try {
            return URLDecoder.decode(data.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return data;
        }
    }

    /** A {@code data:} URL's file is at most {@link #MAX_FILE_BYTES} (a URL to fetch is never fetched). */
    static void requireFileSize(String url, String field) {
        int comma = url.indexOf(',');
        if (!url.startsWith("data:") || comma < 0) {
            return;
        }
        long encoded = url.length() - comma - 1L;
        long padding = url.endsWith("==") ? 2 : url.endsWith("=") ? 1 : 0;
        long bytes = url.substring(0, comma).endsWith(";base64") ? encoded / 4 * 3 - padding : encoded;
        if (bytes > MAX_FILE_BYTES) {
            throw new InvalidRequestException(field, field + " must carry a file of at most 5 MB (" + MAX_FILE_BYTES
                    + " bytes)");
        }
    }

    /** How the reader and the stream's notices name it. */
    public String label() {
        return name == null || name.isBlank() ? (mediaType().isEmpty() ? "attachment" : mediaType()) : name;
    }

    /** The attachments of a v1 message (its {@code experimental_attachments}, validated), in order. */
    static List<Attachment> of(JsonNode attachments) {
        List<Attachment> list = new ArrayList<>();
        if (attachments != null && attachments.isArray()) {
            for (JsonNode attachment : attachments) {
                list.add(new Attachment(attachment.path("name").textValue(),
                        attachment.path("contentType").textValue(), attachment.path("url").textValue()));
            }
        }
        return list;
    }

    /**
     * The rules of {@code experimental_attachments}: an array of at most {@value #MAX_PER_MESSAGE} objects, each
     * with a non-empty string {@code url} (required, as the AI SDK defines it) and optional string {@code name} and
     * {@code contentType}.
     */
    static void validate(JsonNode attachments, String path) {
        if (attachments == null || attachments.isNull()) {
            return;
        }
        if (!attachments.isArray() || attachments.size() > MAX_PER_MESSAGE) {
            throw new InvalidRequestException(path, path + " must be an array of at most " + MAX_PER_MESSAGE
                    + " attachments");
        }
        for (int i = 0; i < attachments.size(); i++) {
            JsonNode attachment = attachments.get(i);
            String at = path + "[" + i + "]";
            if (!attachment.isObject()) {
                throw new InvalidRequestException(at, at + " must be an object with a url");
            }
            if (!attachment.path("url").isTextual() || attachment.path("url").asText().isEmpty()) {
                throw new InvalidRequestException(at + ".url", at + ".url is required (a string)");
            }
            requireFileSize(attachment.path("url").asText(), at + ".url");
            for (String field : List.of("name", "contentType")) {
                if (attachment.has(field) && !attachment.get(field).isTextual() && !attachment.get(field).isNull()) {
                    throw new InvalidRequestException(at + "." + field, at + "." + field + " must be a string");
                }
            }
        }
    }
}
