// FixRateVectors prints what the 3.4.2 admin computes as a FIX_RATE job's
// next fire time (FixRateScheduleType.generateNextTriggerTime): one
// "from_ms conf next_ms" line for each "from_ms conf" line on standard
// input. (2.4.2's JobScheduleHelper cannot run outside its Spring context:
// its ScheduleTypeEnum reads the i18n bundle when loaded.)
// Run: java -cp '<jar's BOOT-INF/classes>:<BOOT-INF/lib>/*' FixRateVectors.java < input
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.util.Date;

public class FixRateVectors {
    public static void main(String[] args) throws Exception {
        Class<?> info = Class.forName("com.xxl.job.admin.business.model.XxlJobInfo");
        Class<?> cls = Class.forName("com.xxl.job.admin.business.scheduler.type.strategy.FixRateScheduleType");
        Object type = cls.getConstructor().newInstance();
        Method next = cls.getMethod("generateNextTriggerTime", info, Date.class);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split(" ");
            if (f.length != 2) continue;
            Object job = info.getConstructor().newInstance();
            info.getMethod("setScheduleType", String.class).invoke(job, "FIX_RATE");
            info.getMethod("setScheduleConf", String.class).invoke(job, f[1]);
            Date d = (Date) next.invoke(type, job, new Date(Long.parseLong(f[0])));
            System.out.println(f[0] + " " + f[1] + " " + d.getTime());
        }
    }
}
