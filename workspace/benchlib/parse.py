# SPDX-License-Identifier: GPL-2.0
"""Console logs of the bench plans: PB-SAMPLE, PB-INFO, PB-TLB, PB-BEGIN and
PB-END lines, and the labels of each boot (arch, kernel, boot, accelerator)."""

import json
import os
import re


KERNELS = ("vanilla", "patched")
ARCH_ALIASES = {"aarch64": "arm64", "arm64": "arm64", "x86_64": "x86_64",
                "x86": "x86_64", "amd64": "x86_64", "riscv64": "riscv64"}
SAMPLE_RE = re.compile(r"PB-SAMPLE\s+(\{.*\})")
INFO_RE = re.compile(r"PB-INFO\s+(\{.*\})")
TLB_RE = re.compile(r"PB-TLB\s+(\{.*\})")
TLBCOUNT_RE = re.compile(r"PB-TLBCOUNT\s+(\{.*\})")
BEGIN_RE = re.compile(r"PB-BEGIN\s+(.*)")
END_RE = re.compile(r"PB-END rc=(\d+)")
NAME_RE = re.compile(r"(?P<arch>x86_64|arm64|aarch64|riscv64)[-_](?P<kernel>vanilla|patched)"
                     r"[-_](?:boot)?(?P<boot>\d+)")


def parse_log_text(text):
    """Return (samples, infos, begin, end_rc, bad_lines, tlb) of one console log.

    A line may carry console noise before the marker; a sample whose JSON
    was broken by interleaved kernel output is counted in bad_lines.  tlb
    holds the PB-TLB lines (TLB flushes traced over one untimed run).

    A boot with the tlbcount plugin (qemu-run.sh PB_TLBCOUNT=1) has its
    PB-TLBCOUNT lines appended, one per region the guest marked, in order:
    the n-th gives the n-th PB-TLB record with "marked" its "insns" (the
    counts by instruction kind).  A count of regions that differs from the
    count of marked records is a bad line.
    """
    samples, infos, bad, tlb, counts = [], [], [], [], []
    begin, end_rc = {}, None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.replace("\r", "")
        m = SAMPLE_RE.search(line)
        if m:
            try:
                obj = json.loads(m.group(1))
                if not isinstance(obj, dict) or "ns" not in obj or "bench" not in obj:
                    raise ValueError("not a sample")
                obj["_line"] = lineno
                samples.append(obj)
            except ValueError:
                bad.append((lineno, line))
            continue
        if "PB-SAMPLE" in line:
            bad.append((lineno, line))
            continue
        m = TLBCOUNT_RE.search(line)
        if m:
            try:
                obj = json.loads(m.group(1))
                counts.append((obj["counts"], obj.get("self", {})))
            except (ValueError, KeyError, TypeError):
                bad.append((lineno, line))
            continue
        m = INFO_RE.search(line) or TLB_RE.search(line)
        if m:
            try:
                (infos if m.re is INFO_RE else tlb).append(json.loads(m.group(1)))
            except ValueError:
                bad.append((lineno, line))
            continue
        m = BEGIN_RE.search(line)
        if m:
            for tok in m.group(1).split():
                if "=" in tok:
                    k, v = tok.split("=", 1)
                    begin[k] = v
            continue
        m = END_RE.search(line)
        if m:
            end_rc = int(m.group(1))
    bad.extend(attach_tlbcounts(tlb, counts))
    return samples, infos, begin, end_rc, bad, tlb


def attach_tlbcounts(tlb, counts):
    """Give the marked PB-TLB records of @tlb the plugin's @counts (pairs of
    all vCPUs' and the marking vCPU's counts), in order, as "insns" and
    "insns_self"; returns the (0, reason) bad lines of a mismatch, where
    no record gets counts (which region is whose is then unknown)."""
    marked = [t for t in tlb if t.get("marked")]
    if not counts:
        return []
    if len(marked) != len(counts):
        return [(0, "%d regions counted by tlbcount, %d marked PB-TLB lines"
                 % (len(counts), len(marked)))]
    for t, (c, own) in zip(marked, counts):
        t["insns"] = c
        t["insns_self"] = own
    return []


def split_spec(arg):
    """ARCH:KERNEL:BOOT:PATH -> (labels, path); a plain path -> ({}, path)."""
    parts = arg.split(":", 3)
    if len(parts) == 4 and parts[1] in KERNELS and parts[2].isdigit():
        return dict(arch=parts[0], kernel=parts[1], boot=int(parts[2])), parts[3]
    return {}, arg


def sidecar_meta(path):
    meta = {}
    base = path[:-4] if path.endswith(".log") else path
    for cand in (base + ".meta.json", path + ".meta.json"):
        if os.path.exists(cand):
            with open(cand) as f:
                meta.update(json.load(f))
            break
    if "accel" not in meta and os.path.exists(path + ".accel"):
        with open(path + ".accel") as f:
            meta["accel"] = f.read().strip()
    return meta


def load_log(arg):
    """Parse one log argument into a run dict with labels and samples."""
    labels, path = split_spec(arg)
    with open(path, errors="replace") as f:
        text = f.read()
    samples, infos, begin, end_rc, bad, tlb = parse_log_text(text)
    meta = sidecar_meta(path)
    m = NAME_RE.search(os.path.basename(path))
    guessed = dict(arch=m.group("arch"), kernel=m.group("kernel"),
                   boot=int(m.group("boot"))) if m else {}
    run = {}
    for src in (guessed, meta, labels):
        run.update(src)
    if "arch" not in run:
        arch = begin.get("arch") or (infos[0].get("machine") if infos else None)
        if arch:
            run["arch"] = arch
    run["arch"] = ARCH_ALIASES.get(run.get("arch"), run.get("arch"))
    release = begin.get("kernel") or (infos[0].get("release") if infos else None)
    run.setdefault("kernel_version", run.get("release") or release)
    run["guest_release"] = release
    if begin.get("cpus", "").isdigit():
        run["guest_cpus"] = int(begin["cpus"])
    run.setdefault("boot", 0)
    run["boot"] = int(run["boot"])
    run.setdefault("accel", "unknown")
    run["log"] = path
    run["end_rc"] = end_rc
    run["bad_lines"] = bad
    run["infos"] = infos
    run["tlb"] = tlb
    for s in samples:
        s.update(arch=run["arch"], kernel=run.get("kernel"), boot=run["boot"],
                 log=path)
    run["samples"] = samples
    return run
