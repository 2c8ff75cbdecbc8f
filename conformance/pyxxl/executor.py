"""A pyxxl executor for the live conformance suite (pyxxl 0.4.8 from PyPI).

Usage: python executor.py ADMIN_API_URL APP_NAME TOKEN PORT WORK_DIR

ADMIN_API_URL is the admin's /api/ base, e.g. http://127.0.0.1:8080/xxl-job-admin/api/.
Handlers: pySuccess (echoes its parameter), pyRaise (raises), pySlow (sleeps 30 s, longer than
any timeout the tests set) and pyShard (reports its shard). Each first appends "<logId> <handler>"
to WORK_DIR/runs.txt, the run ledger the tests count executed runs in (a /run sent twice runs
twice under one log id, which the log row cannot show).
"""

import asyncio
import os
import sys

from pyxxl import ExecutorConfig, PyxxlRunner
from pyxxl.ctx import g


def main() -> None:
    admin, app_name, token, port, work = sys.argv[1:6]
    os.chdir(work)
    config = ExecutorConfig(
        xxl_admin_baseurl=admin,
        executor_app_name=app_name,
        access_token=token,
        executor_listen_host="127.0.0.1",
        executor_listen_port=int(port),
        executor_log_path=os.path.join(work, "pyxxl.log"),
        log_local_dir=os.path.join(work, "logs"),
        dotenv_try=False,
    )
    runner = PyxxlRunner(config)
    ledger = os.path.join(work, "runs.txt")

    def record(handler: str) -> None:
        # Handlers run on one event loop, so the appends never interleave.
        with open(ledger, "a", encoding="utf-8") as f:
            f.write("%d %s\n" % (g.xxl_run_data.logId, handler))

    @runner.register(name="pySuccess")
    async def success() -> str:
        record("pySuccess")
        return "ok " + (g.xxl_run_data.executorParams or "")

    @runner.register(name="pyRaise")
    async def fail() -> str:
        record("pyRaise")
        raise RuntimeError("boom from python")

    @runner.register(name="pySlow")
    async def slow() -> str:
        record("pySlow")
        await asyncio.sleep(30)
        return "slept"

    @runner.register(name="pyShard")
    async def shard() -> str:
        record("pyShard")
        d = g.xxl_run_data
        return "shard %s/%s" % (d.broadcastIndex, d.broadcastTotal)

    runner.run_executor()


if __name__ == "__main__":
    main()
