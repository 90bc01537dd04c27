"""What a Dask worker runs for one point of a sweep (scripts/sweep.py; docs/network.md "Sweeps on a cluster").

Standard library only, and apart from sweep.py, so that sweep.py can send this file to the scheduler and the
workers of a cluster it did not start (Client.upload_file) without reloading itself. Each function returns
{"ok": True, "result", "cpu_s", "wall_s"} or {"ok": False, "error", "code", "stderr", "cpu_s", "wall_s"}; a point's
own failure never raises.
"""
import json
import os
import socket
import subprocess
import tempfile
import time
import traceback

STDERR_TAIL = 1500            # characters of a failed point's standard error kept for the message


def where():
    """(host name, process id, parent's process id) of the worker it runs on: sweep.engine_processes finds a local
    engine's workers and nannies with it."""
    return socket.gethostname(), os.getpid(), os.getppid()


def failure(error, code=None, stderr="", cpu_s=0.0, wall_s=0.0):
    return {"ok": False, "error": error, "code": code, "stderr": stderr[-STDERR_TAIL:], "cpu_s": cpu_s,
            "wall_s": wall_s}


def run_command(cmd):
    """Runs one point's command; {"ok", "result" | "error", "code", "stderr", "cpu_s", "wall_s"}. CPU seconds are
    the command's own (and its waited-for children's) user + system time from os.wait4."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        except OSError as e:
            return failure("cannot start %s: %s" % (cmd[0], e.strerror or e), wall_s=time.monotonic() - t0)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = code = os.waitstatus_to_exitcode(status)
        wall, cpu = time.monotonic() - t0, ru.ru_utime + ru.ru_stime
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if code != 0:
        what = "killed by signal %d" % -code if code < 0 else "exit status %d" % code
        return failure(what, code, stderr, cpu, wall)
    try:
        result = json.loads(stdout)
    except ValueError as e:
        return failure("printed no JSON document on stdout (%s): %r" % (e, stdout[:200]), code, stderr, cpu, wall)
    return {"ok": True, "result": result, "cpu_s": cpu, "wall_s": wall}


def run_callable(fn, args):
    """Runs one point's callable; the same dict as run_command, CPU seconds of the worker thread that ran it."""
    t0, c0 = time.monotonic(), time.thread_time()
    try:
        result = json.loads(json.dumps(fn(*args)))
    except Exception as e:  # the point's own failure, reported like a command's
        return failure("raised %s: %s" % (type(e).__name__, e), None, traceback.format_exc(),
                       time.thread_time() - c0, time.monotonic() - t0)
    return {"ok": True, "result": result, "cpu_s": time.thread_time() - c0, "wall_s": time.monotonic() - t0}


def run_point(desc, fn=None):
    """The task a worker runs for one point; never raises for the point's own failure."""
    return run_callable(fn, desc["args"]) if fn is not None else run_command(desc["cmd"])
