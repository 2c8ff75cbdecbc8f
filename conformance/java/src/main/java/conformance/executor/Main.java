package conformance.executor;

import com.xxl.job.core.executor.impl.XxlJobSimpleExecutor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Starts an XxlJobSimpleExecutor configured from --key=value arguments (or -Dxxl.job.key=value),
 * prints STARTED_MARKER on stdout once the embedded server accepts connections, and calls
 * destroy() from a shutdown hook so SIGTERM makes the library send registryRemove.
 *
 * Keys: admin, token, appname, port, address, ip, logpath, logretention, runlog.
 *
 * admin is passed to the library unchanged: every supported version calls "{admin}/api/{method}". For a
 * 2.x admin that is the address with its context path (http://host:8080/xxl-job-admin); a 3.4 admin
 * serves at its root, so 3.4.1+ executors are configured with http://host:8080 — the same program
 * serves both, only the argument differs.
 */
public final class Main {

    /** Line the Go harness (conformance/javaexec) waits for. */
    static final String STARTED_MARKER = "EXECUTOR STARTED";
    static final String STOPPED_MARKER = "EXECUTOR STOPPED";

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> cfg = parseArgs(args);

        // slf4j-simple reads these when the first logger is created, so set them before touching the library.
        setDefault("org.slf4j.simpleLogger.defaultLogLevel", "info");
        setDefault("org.slf4j.simpleLogger.showDateTime", "true");
        setDefault("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");

        int port = Integer.parseInt(get(cfg, "port", "9999"));
        String ip = get(cfg, "ip", "127.0.0.1");
        String address = get(cfg, "address", "");

        XxlJobSimpleExecutor executor = new XxlJobSimpleExecutor();
        executor.setAdminAddresses(get(cfg, "admin", "http://127.0.0.1:8080/xxl-job-admin"));
        executor.setAccessToken(get(cfg, "token", ""));
        executor.setAppname(get(cfg, "appname", "xxl-job-executor-sample"));
        executor.setIp(ip);
        executor.setPort(port);
        if (!address.isEmpty()) {
            executor.setAddress(address);
        }
        executor.setLogPath(get(cfg, "logpath", System.getProperty("java.io.tmpdir") + "/xxl-job-conformance"));
        executor.setLogRetentionDays(Integer.parseInt(get(cfg, "logretention", "30")));
        executor.setXxlJobBeanList(Collections.singletonList(new JobHandlers(new RunLedger(get(cfg, "runlog", "")))));

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                executor.destroy();
            } finally {
                System.out.println(STOPPED_MARKER);
                System.out.flush();
                stopped.countDown();
            }
        }, "conformance-executor-shutdown"));

        executor.start();

        // start() returns before the embedded server's thread has bound the port; the harness must not
        // talk to the executor before it listens, so wait for the port here.
        if (!waitForPort(port, 20_000)) {
            System.out.println("EXECUTOR FAILED: port " + port + " not listening");
            System.out.flush();
            System.exit(2);
        }
        System.out.println(STARTED_MARKER + " version=" + libraryVersion() + " port=" + port);
        System.out.flush();

        // The embedded server runs on daemon threads; keep the JVM alive until a signal arrives.
        stopped.await();
    }

    static Map<String, String> parseArgs(String[] args) {
        Map<String, String> out = new HashMap<>();
        for (String a : args) {
            if (!a.startsWith("--") || !a.contains("=")) {
                throw new IllegalArgumentException("argument must look like --key=value: " + a);
            }
            int eq = a.indexOf('=');
            out.put(a.substring(2, eq), a.substring(eq + 1));
        }
        return out;
    }

    private static String get(Map<String, String> cfg, String key, String fallback) {
        String v = cfg.get(key);
        if (v == null) {
            v = System.getProperty("xxl.job." + key);
        }
        return v == null ? fallback : v;
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    private static boolean waitForPort(int port, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return true;
            } catch (IOException e) {
                Thread.sleep(20);
            }
        }
        return false;
    }

    private static String libraryVersion() {
        Package p = Main.class.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        if (v != null) {
            return v;
        }
        try (java.io.InputStream in = Main.class.getResourceAsStream("/META-INF/MANIFEST.MF")) {
            if (in != null) {
                java.util.jar.Manifest m = new java.util.jar.Manifest(in);
                String lib = m.getMainAttributes().getValue("Xxl-Job-Version");
                if (lib != null) {
                    return lib;
                }
            }
        } catch (IOException ignored) {
            // version is informational only
        }
        return "unknown";
    }
}
