# A target tree of known host memory for the monitor's host-memory tests: this process (a child of the runner's bash)
# fills SHARED_MIB of its own, then fork()s a grandchild that shares those pages copy-on-write (as a DataLoader worker
# shares its parent's) and fills OWN_MIB more. Both hold for HOLD_S seconds. Each prints its VmRSS once filled.
import os
import sys
import time

MIB = 1 << 20
shared_mib, own_mib, hold_s = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])


def vm_rss_kib():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


shared = bytearray(b"\x01") * (shared_mib * MIB)  # repetition writes every byte: every page is resident
pid = os.fork()
if pid == 0:
    own = bytearray(b"\x02") * (own_mib * MIB)
    print(f"grandchild rss_kib={vm_rss_kib()}", flush=True)
    time.sleep(hold_s)
    os._exit(0)
print(f"child rss_kib={vm_rss_kib()}", flush=True)
time.sleep(hold_s)
os.waitpid(pid, 0)
