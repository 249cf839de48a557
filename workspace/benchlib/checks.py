# SPDX-License-Identifier: GPL-2.0
"""Counter checks: did each timed run take the path its workload is about?"""



def check_sample(s):
    """List of reasons why the counters of sample @s are off (empty if fine).

    Checks only what holds on both kernels of Linux 7.3: each run must have
    allocated folios of the requested size, and the timed region must have
    done the work the workload is about (every folio swapped out whole,
    every page lazily freed, every folio unmapped), with no split and no
    fallback.  Counters the guest kernel does not expose are not checked.
    """
    flags = []
    size = s.get("size_kb", 0)
    folios = s.get("folios")
    pages = s.get("pages")
    bench = s.get("bench")
    large = size > 4
    swap = s.get("swap_kb", 0) > 0

    def expect(field, want, why):
        if field in s and want is not None and s[field] != want:
            flags.append("%s=%s, want %s (%s)" % (field, s[field], want, why))

    if s.get("ns", 0) <= 0:
        flags.append("ns=%s: no time measured" % s.get("ns"))
    if large and bench not in ("mkclean", "mkclean_wait"):
        expect("setup_anon_fault_alloc", folios, "folios of %dkB allocated" % size)
        expect("setup_anon_fault_fallback", 0, "no allocation fallback")

    if bench in ("pageout", "mixed"):
        # Zero-filled folios are not written but recorded as zero in the
        # swap table (swpout_zero counts their pages, mTHP swpout not).
        zero = s.get("swpout_zero")
        if not swap:
            flags.append("no swap: MADV_PAGEOUT cannot swap out")
        elif "pswpout" not in s:
            flags.append("no /proc/vmstat events (CONFIG_VM_EVENT_COUNTERS=n): "
                         "cannot tell whether the pages were swapped out")
        else:
            if zero is not None:
                if s["pswpout"] + zero != pages:
                    flags.append("pswpout+swpout_zero=%d, want %d (every page "
                                 "swapped out)" % (s["pswpout"] + zero, pages))
            else:
                expect("pswpout", pages, "every page written to swap")
            if large and "swpout" in s:
                zero_folios = (zero or 0) // (pages // folios)
                if s["swpout"] + zero_folios != folios:
                    flags.append("swpout=%d (+%d zero-filled folios), want %d (every "
                                 "folio swapped out whole)" % (s["swpout"], zero_folios, folios))
        if swap and large:
            expect("swpout_fallback", 0, "no split before swap-out")
            expect("split", 0, "no folio split")
        if bench == "mixed":
            expect("setup_split_deferred", 0,
                   "the rewritten page reused the folio instead of a COW copy")
    elif bench == "lazyfree":
        expect("pglazyfreed", pages, "every page discarded as lazyfree")
        expect("pswpout", 0, "lazyfree pages are not swapped")
        if large:
            expect("split_deferred", 0, "batched lazyfree unmap (seed 002)")
            expect("split", 0, "no folio split")
    elif bench == "madvfree":
        # Folios still in a per-CPU LRU batch are not moved to the lazyfree
        # list and not counted, and the counter is system-wide (another
        # task's MADV_FREE adds to it): allow 1% either way.
        if "pglazyfree" in s and not pages * 0.99 <= s["pglazyfree"] <= pages * 1.01:
            flags.append("pglazyfree=%d, want %d (every page marked lazyfree)"
                         % (s["pglazyfree"], pages))
        if large:
            expect("split", 0, "no folio split (seed 003)")
    elif bench in ("migrate", "migrate_back"):
        # pgmigrate_* are system-wide: compaction may add to them.
        expect("moved", pages, "every page on the target node afterwards")
        if "pgmigrate_success" in s and pages is not None and \
                s["pgmigrate_success"] < pages:
            flags.append("pgmigrate_success=%d, want >= %d (every page migrated)"
                         % (s["pgmigrate_success"], pages))
        expect("pgmigrate_fail", 0, "no page failed to migrate")
        if large and bench == "migrate":
            # Vanilla 7.3 splits on the way back (see fix-0002); the
            # migration counters table shows it, both kernels agree here.
            expect("split", 0, "no folio split")
            expect("thp_migration_split", 0, "no PMD-sized folio split")
    elif bench == "mkclean":
        # The timed start of the writeback: no page may have been written
        # back while the run dirtied them (the plan raises the dirty
        # limits); nr_written is system-wide, allow 1%.
        if "setup_nr_written" in s and pages is not None and \
                s["setup_nr_written"] > pages * 0.01:
            flags.append("setup_nr_written=%d: writeback ran while the pages "
                         "were dirtied" % s["setup_nr_written"])
        whole = s.get("folios_whole")
        if large and whole is not None and whole >= 0 and folios and \
                whole < folios * 0.9:
            flags.append("folios_whole=%d of %d (the file's folios of %dkB "
                         "mapped whole)" % (whole, folios, size))
    elif bench == "mkclean_wait":
        # Its counters span the whole writeback (the I/O may end while it
        # is being submitted).  nr_written counts at the end of each
        # folio's writeback, and its per-CPU deltas reach the global count
        # late: allow 5% less.
        if "nr_written" in s and pages is not None and \
                s["nr_written"] < pages * 0.95:
            flags.append("nr_written=%d, want >= %d (every page written back)"
                         % (s["nr_written"], pages))
    elif bench == "munmap":
        if large:
            expect("nr_anon", -folios if folios is not None else None,
                   "every folio freed")
            expect("split_deferred", 0, "fully unmapped folios are not queued")
            if s.get("pte_map"):
                expect("setup_thp_split_pmd", folios,
                       "PMD-sized folios PTE-mapped before the munmap")
    return flags


# The tlbcount plugin's arm64 TLBI kinds by address (workspace/tlbcount.c
# names them): by page, and by range (FEAT_TLBIRANGE).
ARM64_TLBI_PAGE = ("tlbi_vae1is", "tlbi_vale1is", "tlbi_vaae1is", "tlbi_vaale1is",
                   "tlbi_vae1", "tlbi_vale1")
ARM64_TLBI_RANGE = ("tlbi_rvae1is", "tlbi_rvale1is", "tlbi_rvaae1is", "tlbi_rvaale1is",
                    "tlbi_rvae1", "tlbi_rvale1")
ARM64_TLBI_VA = ARM64_TLBI_PAGE + ARM64_TLBI_RANGE


def tlbcount_sum(insns, names):
    """Sum of the counts @insns over @names; a name "-x" subtracts x."""
    return sum(-insns.get(n[1:], 0) if n.startswith("-") else insns.get(n, 0)
               for n in names)


def trace_checked(t):
    """Whether PB-TLB record @t has traced flushes check_tlb() judges: the
    unmap of PTE-mapped large folios by MADV_PAGEOUT (a 2M folio stays
    PMD-mapped, and its PMD split flushes too)."""
    return (t.get("bench") == "pageout" and 4 < t.get("size_kb", 0) < 2048 and
            bool(t.get("traced", 1)))


def tlb_checked(t, arch=None):
    """Whether check_tlb() judges PB-TLB record @t: traced flushes (see
    trace_checked()), or a run the tlbcount plugin counted on arm64 (see
    tlbcount_limit_applies())."""
    return trace_checked(t) or (arch == "arm64" and "insns" in t and
                                tlbcount_limit_applies(t))


def tlbcount_limit_applies(t):
    """Whether the per-folio limit holds for counted record @t: pageout,
    lazyfree and migrate of PTE-mapped folios of 64K up to 1M (MADV_PAGEOUT
    and MADV_FREE leave a 2M folio PMD-mapped), migrate of 2M too (its
    PMD-sized folios are PTE-mapped first)."""
    size = t.get("size_kb", 0)
    return (t.get("bench") in ("pageout", "lazyfree", "migrate") and
            (64 <= size <= 1024 or (size == 2048 and t.get("bench") == "migrate")))


# Flushes per folio above this are more than one.  The counts carry a few
# flushes that are not the folio's own: on arm64 other kernel work issues
# DSB ISHST of its own (0.03 per 64K folio measured); on x86_64, once the
# task has run on the other CPU, reclaim defers some flushes to its batch
# and adds the batch's flushes (4100 traced flushes for 4096 64K folios,
# 0.02 IPI rounds and 0.03 CR3 writes per folio, in a CI run).  The per-PTE
# unmap flushes once per page: at least two per folio where this is judged.
FLUSHES_PER_FOLIO = 1.25


def check_tlbcount(t, arch):
    """The limit for one fully mapped large folio on the patched kernel, from
    the tlbcount plugin's counts (arm64): one flush of its range and no
    contpte unfold.  An arm64 flush of a range starts with one DSB ISHST and
    issues one range TLBI (with FEAT_TLBIRANGE and ARM64_TLB_RANGE) or one
    TLBI per page; TLBI IS is broadcast, one instruction whatever the CPU
    count.  So: DSB ISHST at most about one per folio, TLBI by address at
    most one per page, no unfold.  The DSB ISH that completes a flush is
    one per folio or none (reclaim's deferred batch): shown, not judged."""
    flags = []
    ins, folios = t.get("insns"), t.get("folios")
    if arch != "arm64" or not ins or not folios or not tlbcount_limit_applies(t):
        return flags
    pages = t.get("pages") or folios * t.get("size_kb", 4) // 4
    va = tlbcount_sum(ins, ARM64_TLBI_VA)
    if va > pages:
        flags.append("%d TLBI by address for %d pages, want at most one per page"
                     % (va, pages))
    starts = ins.get("dsb_ishst", 0)
    if starts > FLUSHES_PER_FOLIO * folios:
        flags.append("%d DSB ISHST (flushes) for %d folios, want at most one "
                     "flush per folio" % (starts, folios))
    unfolds = ins.get("fn___contpte_try_unfold", 0)
    if unfolds:
        flags.append("%d contpte unfolds for %d fully mapped folios, want none"
                     % (unfolds, folios))
    return flags


def check_tlb(t, arch=None):
    """List of reasons why PB-TLB record @t of the patched kernel does not
    show the batched unmap (empty if it does, or if @t is not about it).

    The untimed MADV_PAGEOUT run traced with tlb:tlb_flush: the batched
    unmap of a large folio flushes its range at most once (reclaim may
    defer it and flush several folios at once), the per-PTE unmap once per
    page.  So at most one flush per folio, give or take the few flushes
    FLUSHES_PER_FOLIO allows for, proves the batched path ran.
    """
    flags = check_tlbcount(t, arch)
    if not trace_checked(t):
        return flags
    folios, flushes = t.get("folios"), t.get("flushes")
    if t.get("events_lost"):
        flags.append("events_lost=%d: the trace missed flushes" % t["events_lost"])
    if not t.get("events_written"):
        flags.append("no tlb:tlb_flush event traced")
    elif folios and flushes is not None and flushes > FLUSHES_PER_FOLIO * folios:
        flags.append("%d TLB flushes for %d folios, want at most one per folio "
                     "(the batched unmap; the per-PTE unmap flushes every page)"
                     % (flushes, folios))
    return flags
