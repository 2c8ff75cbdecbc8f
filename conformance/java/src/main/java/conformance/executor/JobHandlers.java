package conformance.executor;

import com.xxl.job.core.context.XxlJobHelper;
import com.xxl.job.core.handler.annotation.XxlJob;

import java.util.concurrent.TimeUnit;

/**
 * The job handlers the conformance tests trigger. Only APIs present in every supported xxl-job-core
 * version (2.3.x, 2.4.x, 3.x) are used, so one source tree serves all of them. Each records its run in
 * the run ledger first, so a run that is killed or fails still counts.
 */
public class JobHandlers {

    private final RunLedger ledger;

    /** ledger records each run (log id and handler) for the tests to count. */
    JobHandlers(RunLedger ledger) {
        this.ledger = ledger;
    }

    /** Succeeds with a message that echoes the parameter, so tests can see it in the callback. */
    @XxlJob("successHandler")
    public void successHandler() {
        ledger.record("successHandler");
        String param = XxlJobHelper.getJobParam();
        XxlJobHelper.log("successHandler ran, param={}", param);
        XxlJobHelper.handleSuccess("success param=" + param);
    }

    /** Fails with a fixed message. */
    @XxlJob("failHandler")
    public void failHandler() {
        ledger.record("failHandler");
        XxlJobHelper.log("failHandler ran");
        XxlJobHelper.handleFail("boom");
    }

    /**
     * Runs for N seconds (param, default 30), one log line a second. Sleeping lets /kill interrupt it:
     * the InterruptedException ends the job the way the library expects.
     */
    @XxlJob("slowHandler")
    public void slowHandler() throws InterruptedException {
        ledger.record("slowHandler");
        int seconds = parseSeconds(XxlJobHelper.getJobParam(), 30);
        for (int i = 0; i < seconds; i++) {
            XxlJobHelper.log("slowHandler tick {}/{}", i + 1, seconds);
            TimeUnit.SECONDS.sleep(1);
        }
        XxlJobHelper.handleSuccess("slept " + seconds + "s");
    }

    /** Reports its shard so broadcast tests can check each executor got a distinct index. */
    @XxlJob("shardingHandler")
    public void shardingHandler() {
        ledger.record("shardingHandler");
        int index = XxlJobHelper.getShardIndex();
        int total = XxlJobHelper.getShardTotal();
        XxlJobHelper.log("shardingHandler shard {}/{}", index, total);
        XxlJobHelper.handleSuccess("shard " + index + "/" + total);
    }

    static int parseSeconds(String param, int fallback) {
        if (param == null || param.trim().isEmpty()) {
            return fallback;
        }
        try {
            return Integer.parseInt(param.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
