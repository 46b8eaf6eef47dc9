#!/usr/bin/python3
"""Makes sadf-restart.csv with the REAL sysstat (12.6.1, Debian 12): a recording with a
LINUX RESTART record between two runs of sadc with different intervals.

    TZ=UTC LC_ALL=C /usr/bin/python3 make_restart.py      (as root: sadc - writes the daily file)

sadc writes the restart mark only into the daily file (`sadc -`: /var/log/sysstat/saDD), so the
three sadc runs write there; the file is copied and removed. A CPU load runs meanwhile.
    sadc 1 4 -    three 1 s records
    sadc -        the LINUX RESTART record
    sadc 2 4 -    three 2 s records
    sadf -d sa -- -u > sadf-restart.csv
sar -u -f sa prints one Average: per segment; over the whole file the interval-weighted mean is
what their time-weighted mean gives (profreport's series mean_weighted).
"""
import os
import shutil
import subprocess
import time

here = os.path.dirname(os.path.abspath(__file__))
env = dict(os.environ, TZ="UTC", LC_ALL="C")
daily = "/var/log/sysstat/sa" + time.strftime("%d", time.gmtime())
if os.path.exists(daily):
    raise SystemExit("%s exists: this script would mix its records in" % daily)
load = subprocess.Popen(["/usr/bin/python3", "-c",
                         "import time\nt = time.time()\n"
                         "while time.time() - t < 13: sum(i * i for i in range(20000))\n"])
time.sleep(0.2)
sadc = "/usr/lib/sysstat/sadc"
subprocess.run([sadc, "1", "4", "-"], check=True, env=env)
subprocess.run([sadc, "-"], check=True, env=env)
subprocess.run([sadc, "2", "4", "-"], check=True, env=env)
load.wait()
sa = os.path.join(here, "sa.restart")
shutil.move(daily, sa)
with open(os.path.join(here, "sadf-restart.csv"), "w") as f:
    subprocess.run(["sadf", "-d", sa, "--", "-u"], check=True, env=env, stdout=f)
print(subprocess.run(["sar", "-u", "-f", sa], env=env, capture_output=True, text=True).stdout)
os.remove(sa)
