// CronVectors prints reference answers of an xxl-job admin's
// CronExpression class as JSON vectors (the quartz-vectors.json format of
// conformance/testdata/cron): for each expression read from standard input
// (one per line) and each start time given, whether the class parses it
// (else "ParseException: " and its message), up to ten successive fire
// times, and the exception that ended the search early, if one did
// ("eval_error").
// Run: java -cp <admin jar's BOOT-INF/classes> CronVectors.java CLASS TZ FROM_MS...
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.TimeZone;

public class CronVectors {
    public static void main(String[] args) throws Exception {
        Class<?> cls = Class.forName(args[0]);
        TimeZone tz = TimeZone.getTimeZone(args[1]);
        TimeZone.setDefault(tz);
        Constructor<?> ctor = cls.getConstructor(String.class);
        Method next = cls.getMethod("getNextValidTimeAfter", Date.class);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        List<String> rows = new ArrayList<>();
        String expr;
        while ((expr = in.readLine()) != null) {
            if (expr.isEmpty()) continue;
            for (int a = 2; a < args.length; a++) {
                long from = Long.parseLong(args[a]);
                StringBuilder row = new StringBuilder();
                row.append("{\"expr\":").append(q(expr)).append(",\"tz\":").append(q(args[1]));
                Object ce;
                try {
                    ce = ctor.newInstance(expr);
                } catch (InvocationTargetException e) {
                    row.append(",\"valid\":false,\"from_ms\":").append(from).append(",\"next_ms\":[],\"error\":")
                       .append(q(e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage())).append("}");
                    rows.add(row.toString());
                    continue;
                }
                row.append(",\"valid\":true,\"from_ms\":").append(from).append(",\"next_ms\":[");
                Date d = new Date(from);
                String evalError = "";
                for (int i = 0; i < 10; i++) {
                    try {
                        d = (Date) next.invoke(ce, d);
                    } catch (InvocationTargetException e) {
                        evalError = e.getCause().toString();
                        break;
                    }
                    if (d == null) break;
                    if (i > 0) row.append(",");
                    row.append(d.getTime());
                }
                row.append("],\"error\":\"\",\"eval_error\":").append(q(evalError)).append("}");
                rows.add(row.toString());
            }
        }
        System.out.print("[\n" + String.join(",\n", rows) + "\n]\n");
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
