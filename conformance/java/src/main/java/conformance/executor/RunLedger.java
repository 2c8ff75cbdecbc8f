package conformance.executor;

import com.xxl.job.core.context.XxlJobHelper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * The runs this executor really executed: each handler call appends one line "<logId> <handler>" to a
 * file the Go tests read (--runlog). An admin that sends a /run twice makes the job run twice under one
 * log id, yet the log row shows one run (the second callback changes nothing), so only the executor's
 * own count shows it.
 */
final class RunLedger {

    private final Path file; // null: no ledger

    RunLedger(String path) {
        this.file = path == null || path.isEmpty() ? null : Paths.get(path);
    }

    /**
     * Records a run of handler under the current job's log id. The line is written and the file closed
     * before the handler goes on, so it is on disk before the run's callback leaves.
     */
    synchronized void record(String handler) {
        if (file == null) {
            return;
        }
        byte[] line = (currentLogId() + " " + handler + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            Files.write(file, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("run ledger " + file, e);
        }
    }

    /**
     * The log id of the running job: XxlJobHelper.getLogId() from 3.3 on; before that the library only
     * exposes the job's log file, named "<logId>.log". Looked up by reflection so one source compiles
     * against every version.
     */
    static long currentLogId() {
        try {
            Method m = XxlJobHelper.class.getMethod("getLogId");
            return (Long) m.invoke(null);
        } catch (NoSuchMethodException e) {
            // 2.x: parse the log file name below
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("XxlJobHelper.getLogId", e);
        }
        try {
            Method m = XxlJobHelper.class.getMethod("getJobLogFileName");
            return logIdOfFile((String) m.invoke(null));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("XxlJobHelper.getJobLogFileName", e);
        }
    }

    /** "…/2024-05-01/123.log" → 123; -1 when the name is not of that form. */
    static long logIdOfFile(String name) {
        if (name == null) {
            return -1;
        }
        String base = Paths.get(name).getFileName().toString();
        if (!base.endsWith(".log")) {
            return -1;
        }
        try {
            return Long.parseLong(base.substring(0, base.length() - ".log".length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
