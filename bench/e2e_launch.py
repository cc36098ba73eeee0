"""Run one command and write its resource use to a file: ``e2e_launch.py RESULT CMD...``.

``bench/e2e.py`` starts this small process (``python -I -S``) rather than the command
itself, because Linux records the peak RSS of the process a command is started from into
the command's own ``ru_maxrss`` at ``exec``: started from the bench, whose inputs made it
large, every command would show at least the bench's peak. From here the floor is this
launcher's (the report gives it). The launcher makes itself a child subreaper, so a
worker that outlives the command is reparented here and its CPU counted.

RESULT gets one line: CPU seconds (user + sys of the command and every descendant), wall
seconds (spawn to exit), peak RSS in kB (largest single process), exit status, and the
number of orphaned descendants reaped.
"""

import ctypes
import os
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main() -> None:
    result, argv = sys.argv[1], sys.argv[2:]
    # Before the command starts: a worker may be orphaned within milliseconds.
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    started = time.perf_counter()
    try:
        pid = os.posix_spawnp(argv[0], argv, os.environ)
    except OSError as exc:
        print(f"e2e_launch: {argv[0]}: {exc.strerror}", file=sys.stderr)
        with open(result, "w") as fh:
            fh.write("0 0 0 127 0\n")
        return
    _pid, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - started
    cpu, rss, orphans = usage.ru_utime + usage.ru_stime, usage.ru_maxrss, 0
    while True:
        try:
            _pid, _status, more = os.wait4(-1, 0)
        except ChildProcessError:
            break
        cpu, rss, orphans = (
            cpu + more.ru_utime + more.ru_stime,
            max(rss, more.ru_maxrss),
            orphans + 1,
        )
    with open(result, "w") as fh:
        fh.write(f"{cpu} {wall} {rss} {os.waitstatus_to_exitcode(status)} {orphans}\n")


if __name__ == "__main__":
    main()
