// PropDump prints what java.util.Properties.load reads from a UTF-8 file
// (as the admins load their i18n bundles): one "key<TAB>value" line per key,
// sorted, with backslash, tab, CR and LF escaped as \\ \t \r \n.
// Run with the JDK's source launcher: java PropDump.java FILE
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.TreeSet;

public class PropDump {
    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        try (InputStreamReader r = new InputStreamReader(new FileInputStream(args[0]), StandardCharsets.UTF_8)) {
            p.load(r);
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        for (String k : new TreeSet<>(p.stringPropertyNames())) {
            out.print(esc(k) + "\t" + esc(p.getProperty(k)) + "\n");
        }
        out.flush();
    }

    static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n");
    }
}
