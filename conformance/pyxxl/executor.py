"""A pyxxl executor for the live conformance suite (pyxxl 0.4.8 from PyPI).

Usage: python executor.py ADMIN_API_URL APP_NAME TOKEN PORT WORK_DIR

ADMIN_API_URL is the admin's /api/ base, e.g. http://127.0.0.1:8080/xxl-job-admin/api/.
Handlers: pySuccess (echoes its parameter), pyRaise (raises), pySlow (sleeps 30 s, longer than
any timeout the tests set) and pyShard (reports its shard).
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

    @runner.register(name="pySuccess")
    async def success() -> str:
        return "ok " + (g.xxl_run_data.executorParams or "")

    @runner.register(name="pyRaise")
    async def fail() -> str:
        raise RuntimeError("boom from python")

    @runner.register(name="pySlow")
    async def slow() -> str:
        await asyncio.sleep(30)
        return "slept"

    @runner.register(name="pyShard")
    async def shard() -> str:
        d = g.xxl_run_data
        return "shard %s/%s" % (d.broadcastIndex, d.broadcastTotal)

    runner.run_executor()


if __name__ == "__main__":
    main()
