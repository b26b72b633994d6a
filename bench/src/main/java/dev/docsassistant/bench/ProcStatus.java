package dev.docsassistant.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads a process's memory and thread count from {@code /proc/<pid>/status} (Linux). */
final class ProcStatus {

    private ProcStatus() {
    }

    /** A field such as {@code VmRSS} or {@code VmHWM} in KiB, or {@code Threads}; 0 when unknown. */
    static long kib(int pid, String field) {
        if (pid <= 0) {
            return 0;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.substring(field.length() + 1).replace("kB", "").trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
