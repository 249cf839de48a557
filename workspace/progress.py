#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Run one long step of the pipeline and show that it progresses.

    progress.py run --key KEY [--label TEXT] [--lock FILE] [--objects DIR]
                    [--follow LOG] [--then KEY,...] -- COMMAND...

Runs COMMAND, passes its output through, and shows the step's elapsed
time and an estimate of the time left: on a terminal as one status line
that keeps being rewritten, otherwise (CI logs) as a line when the step
has run for QUIET seconds, one whenever nothing was printed for HEARTBEAT
seconds, and one when it ends (a step done within QUIET seconds prints
nothing of its own).  The estimate is the step's time in the previous
successful run, kept in build/progress/times.json (on the first run: the
figures measured for the README, DEFAULTS below).  The step's output is also
kept in build/progress/<KEY>.log (for the summary of make check).

--objects DIR counts the .o files written under DIR since the start (a
kernel build): with the count of the previous run the estimate follows
the build's own pace.  --follow LOG streams the milestones of a guest's
console log (PB-PROGRESS lines of the plans, each check step's result,
each selftest's result, the KUnit suite's) while the guest runs.
--lock FILE takes an exclusive flock(2) on FILE first, as flock(1) does
(build/cpu.lock), and says so while it waits.  --then lists the keys of
the steps still to come after this one, for an estimate of the whole
(the bench boots).  The exit code is COMMAND's.
"""

import argparse
import fcntl
import json
import os
import re
import selectors
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(os.environ.get("BUILD", os.path.join(REPO, "build")), "progress")
TIMES = os.path.join(DIR, "times.json")
HEARTBEAT = int(os.environ.get("PB_HEARTBEAT", 55))
QUIET = 5	# a step that ends sooner prints nothing of its own

# First-run estimates in seconds, measured on cold make checks of a clean
# clone (2-core machine, TCG): the first pattern that matches the key wins.
# A cold test kernel took 6.6 to 10 min (x86_64) and 6.4 to 9 min (arm64)
# on this machine kind: the estimates sit between.
DEFAULTS = (
    (r"^kernel-x86_64-", 540), (r"^kernel-arm64-", 500), (r"^base$", 85),
    # riscv64: 9.4 min for its test kernel with ccache misses throughout.
    (r"^kernel-riscv64-", 565),
    (r"^guest-x86_64-.*-selftests", 290), (r"^guest-arm64-.*-selftests", 280),
    (r"^guest-.*-check$", 255), (r"^guest-.*-check-gate$", 420),
    (r"^guest-x86_64-.*-bench-quick(-b\d+)?$", 75),
    (r"^guest-arm64-.*-bench-quick(-b\d+)?$", 105),
    (r"^guest-riscv64-.*-bench-quick(-b\d+)?$", 45),
    (r"^guest-x86_64-.*-bench(-b\d+)?$", 120), (r"^guest-arm64-.*-bench(-b\d+)?$", 180),
    (r"^guest-x86_64-.*-verify", 170), (r"^guest-arm64-.*-verify", 245),
    (r"^guest-bin-", 60), (r"^lint$", 240), (r"^tree$", 26),
    (r"^test-harness$", 30), (r"^test-cocci$", 20), (r"^test-bench-unit$", 10),
    # make check's guest boots (check 4.3, 3.8 and 4.1 min on x86_64,
    # arm64 and riscv64, selftests 5.1 and 4.8 min with migration and
    # split_huge_page_test on three vCPUs) and quick bench (one boot of
    # each patched kernel, about 3 min).
    (r"^test-guest$", 1340), (r"^bench-quick$", 180),
    # make check's (the gate's) boots: 12:32 in its first cold run, 2:50
    # of it waiting for the arm64 kernel built beside the boots.
    (r"^test-guest-gate$", 750),
)
# Objects of a full guest kernel build (tinyconfig plus the fragments,
# host programs included): 887 for the x86_64 test kernel, 811 for arm64,
# about 900 for riscv64.
DEFAULT_OBJECTS = ((r"-arm64-", 811), (r"-riscv64-", 900), (r"", 887))


def default_objects(key):
    return next(n for pat, n in DEFAULT_OBJECTS if re.search(pat, key))

MILESTONE = re.compile(
    r"PB-PROGRESS|^PB-BEGIN|^PB-END|^# check: |^PB-SELFTEST \S+ pass=|"
    r"^# SUMMARY|^(\[ *[0-9.]+\] )?\s*# \S+: pass:\d+ fail:\d+")


def mmss(secs):
    secs = int(round(secs))
    if secs >= 3600:
        return "%d:%02d:%02d" % (secs // 3600, secs // 60 % 60, secs % 60)
    return "%d:%02d" % (secs // 60, secs % 60)


def minutes(secs):
    if secs < 90:
        return "~%d s" % max(5, round(secs / 5) * 5)
    return "~%d min" % round(secs / 60)


def load_times():
    try:
        with open(TIMES) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def record(key, **entry):
    """Store this run of KEY (read, update, rename: other steps write too).

    The entry is the estimate of the next run; "runs" keeps the time and
    end of the last few, so that a summary can tell a step's real work
    from the quick check that a later step does again (make bench checks
    the kernels that make check built).
    """
    os.makedirs(DIR, exist_ok=True)
    with open(os.path.join(DIR, "times.lock"), "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        times = load_times()
        runs = times.get(key, {}).get("runs", [])[-4:]
        entry["runs"] = runs + [[entry["secs"], entry["end"]]]
        times[key] = entry
        tmp = TIMES + ".%d" % os.getpid()
        with open(tmp, "w") as f:
            json.dump(times, f, indent=1, sort_keys=True)
        os.replace(tmp, TIMES)


def estimate(key, times=None):
    """(seconds, source) for KEY: the previous run, else DEFAULTS."""
    times = load_times() if times is None else times
    if key in times:
        return times[key]["secs"], "last run"
    for pat, secs in DEFAULTS:
        if re.search(pat, key):
            return secs, "README"
    return None, None


def count_objects(top, since):
    n = 0
    stack = [top]
    while stack:
        try:
            it = os.scandir(stack.pop())
        except OSError:
            continue
        with it:
            for e in it:
                try:
                    if e.is_dir(follow_symlinks=False):
                        stack.append(e.path)
                    elif e.name.endswith(".o") and e.stat().st_mtime >= since:
                        n += 1
                except OSError:
                    pass
    return n


class Follower:
    """The new complete lines of a console log that a running guest writes."""

    def __init__(self, path):
        self.path, self.f, self.pos, self.buf = path, None, 0, b""
        self.start = time.time()

    def lines(self):
        try:
            st = os.stat(self.path)
        except OSError:
            return []
        if self.f is None:
            # The log of a previous run: wait until the new boot writes it.
            if st.st_mtime < self.start:
                return []
            self.f, self.ino = open(self.path, "rb"), st.st_ino
        elif st.st_ino != self.ino:
            pass	# the runner rewrote the finished log: read the old one out
        elif st.st_size < self.pos:
            self.pos, self.buf = 0, b""	# truncated: a new boot
        self.f.seek(self.pos)
        data = self.f.read(1 << 20)
        self.pos += len(data)
        self.buf += data
        *done, self.buf = self.buf.split(b"\n")
        return [d.decode(errors="replace").replace("\r", "") for d in done]

    def close(self):
        if self.f:
            self.f.close()


class Step:
    def __init__(self, args):
        self.a = args
        self.label = args.label or args.key
        self.tty = sys.stdout.isatty()
        times = load_times()
        self.est, self.src = estimate(args.key, times)
        prev = times.get(args.key, {})
        # The objects of a full build: an incremental one writes a few.
        self.objs_default = default_objects(args.key) if args.objects else None
        self.objs_expected = prev.get("objects_full") or self.objs_default
        self.then = 0
        for k in filter(None, (args.then or "").split(",")):
            self.then += estimate(k, times)[0] or 0
        self.objs = 0
        self.milestone = ""
        self.last_out = time.time()
        self.status_shown = False

    def out(self, text):
        """Print a line above the status line."""
        if self.status_shown:
            sys.stdout.write("\r\033[K")
            self.status_shown = False
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        self.last_out = time.time()

    def left(self, el):
        """Estimated seconds left, or None.

        A kernel build's pace in objects is uneven (host programs and
        generated headers first, then many small objects), so the time
        estimate and the object pace are weighed by the fraction built.
        """
        by_time = max(self.est - el, 0) if self.est is not None else None
        e = self.objs_expected
        if e and self.objs >= max(20, e // 20) and e > self.objs:
            by_pace = el * (e - self.objs) / self.objs
            # Past the estimate, only the pace still says something.
            if not by_time:
                return by_pace
            f = self.objs / e
            return (1 - f) * by_time + f * by_pace
        return by_time

    def status(self, el):
        parts = [mmss(el)]
        if self.a.objects:
            parts.append("%d/%s objects" % (self.objs, self.objs_expected or "?"))
        if self.milestone:
            parts.append(self.milestone[:60])
        left = self.left(el)
        if left is not None:
            parts.append(minutes(left) + " left" if left > 0 else "over the estimate")
            if self.then:
                parts.append(minutes(left + self.then) + " for all")
        return "%s %s: %s" % (time.strftime("%H:%M:%S"), self.label, ", ".join(parts))

    def tick(self, el):
        if self.tty:
            line = self.status(el)
            try:
                cols = max(os.get_terminal_size(sys.stdout.fileno()).columns, 40)
            except OSError:
                cols = 80
            sys.stdout.write("\r\033[K" + line[:cols - 1])
            sys.stdout.flush()
            self.status_shown = True
        elif time.time() - self.last_out >= HEARTBEAT:
            self.out(self.status(el))


def lock(path, label):
    """flock(2) PATH as flock(1) does: a blocking wait in the kernel's queue,
    with a line now and then from a thread while it lasts."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    os.set_inheritable(fd, True)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return fd
    except BlockingIOError:
        pass
    t0 = time.time()
    print("%s %s: waiting for %s (another build holds it)" % (
        time.strftime("%H:%M:%S"), label, path), flush=True)
    got = threading.Event()

    def note():
        while not got.wait(HEARTBEAT):
            print("%s %s: still waiting for %s, %s" % (
                time.strftime("%H:%M:%S"), label, path, mmss(time.time() - t0)), flush=True)

    threading.Thread(target=note, daemon=True).start()
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    finally:
        got.set()
    return fd


def run(args):
    step = Step(args)
    fds = ()
    if args.lock:
        # Inherited by the command: the lock lives as long as it does.
        fds = (lock(args.lock, step.label),)
    os.makedirs(DIR, exist_ok=True)
    saved = open(os.path.join(DIR, args.key + ".log"), "w")
    t0 = time.time()
    est = ""
    if step.est is not None:
        est = ", %s (%s)" % (minutes(step.est), step.src)
    started = False
    env = dict(os.environ, PB_PROGRESS=args.key)
    proc = subprocess.Popen(args.command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=env, pass_fds=fds)
    args.proc = proc
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    follow = Follower(args.follow) if args.follow else None
    buf = b""
    next_count = 0
    eof = False
    while not eof:
        ready = sel.select(timeout=1)
        # The guest's milestones first: they happened before the runner's
        # verdict on them.
        if follow:
            for ln in follow.lines():
                if MILESTONE.search(ln):
                    step.milestone = ln.strip()
                    step.out("  %s: %s" % (step.label, ln.strip()))
        for _ in ready:
            data = os.read(proc.stdout.fileno(), 65536)
            if not data:
                eof = True
                break
            buf += data
            *lines, buf = buf.split(b"\n")
            for ln in lines:
                text = ln.decode(errors="replace")
                saved.write(text + "\n")
                step.out(text)
        el = time.time() - t0
        if args.objects and time.time() >= next_count:
            step.objs = count_objects(args.objects, t0 - 1)
            next_count = time.time() + 5
        if not started and el >= QUIET:
            # Announce only steps that take a while.
            started = True
            if not step.tty:
                step.out("%s %s: started %s ago%s" % (time.strftime("%H:%M:%S"),
                                                      step.label, mmss(el), est))
        if started:
            step.tick(el)
    if buf:
        saved.write(buf.decode(errors="replace") + "\n")
        step.out(buf.decode(errors="replace"))
    rc = proc.wait()
    proc.stdout.close()
    saved.close()
    if follow:
        follow.close()
    el = time.time() - t0
    if args.objects:
        step.objs = count_objects(args.objects, t0 - 1)
    if rc == 0:
        entry = dict(secs=round(el, 1), end=int(time.time()))
        if args.objects:
            entry["objects"] = step.objs
            entry["objects_full"] = max(step.objs, step.objs_expected
                                        if step.objs_expected != step.objs_default else 0)
        record(args.key, **entry)
    how = "done" if rc == 0 else "FAILED (exit %d)" % rc
    was = " (estimate %s)" % mmss(step.est) if step.est is not None else ""
    objs = ", %d objects" % step.objs if args.objects else ""
    if started or rc != 0:
        step.out("%s %s: %s in %s%s%s" % (time.strftime("%H:%M:%S"), step.label, how,
                                           mmss(el), objs, was))
    return rc


def run_interruptible(args):
    """run(), but a ^C (which the command gets too) ends with no traceback."""
    try:
        return run(args)
    except KeyboardInterrupt:
        proc = getattr(args, "proc", None)
        if proc and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        sys.stdout.write("\r\033[K" if sys.stdout.isatty() else "")
        print("%s %s: interrupted" % (time.strftime("%H:%M:%S"), args.label or args.key))
        return 130


def main(argv=None):
    ap = argparse.ArgumentParser(description="Run a long step with progress and an ETA.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run COMMAND as step KEY")
    r.add_argument("--key", required=True, help="the step's name in times.json")
    r.add_argument("--label", help="what to call it on the terminal")
    r.add_argument("--lock", help="flock this file first (build/cpu.lock)")
    r.add_argument("--objects", help="count the .o files written under this directory")
    r.add_argument("--follow", help="stream the milestones of this console log")
    r.add_argument("--then", help="keys of the steps that follow, comma-separated")
    r.add_argument("command", nargs="+")
    e = sub.add_parser("estimate", help="print the estimated seconds of KEYs, summed")
    e.add_argument("keys", nargs="+")
    args = ap.parse_args(argv)
    if args.cmd == "estimate":
        times = load_times()
        print(int(sum(estimate(k, times)[0] or 0 for k in args.keys)))
        return 0
    return run_interruptible(args)


if __name__ == "__main__":
    sys.exit(main())
