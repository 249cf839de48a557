// SPDX-License-Identifier: GPL-2.0-only
///
/// Find loops that apply a single-PTE operation to consecutive PTEs one at
/// a time and name the batched helper that does the same work:
/// set_ptes() or set_softleaf_ptes() for writes, get_and_clear_full_ptes(),
/// clear_full_ptes(), clear_ptes() or clear_nonpresent_ptes() for
/// clearing, wrprotect_ptes(), clear_young_dirty_ptes(),
/// test_and_clear_young_ptes(), clear_flush_young_ptes() and
/// modify_prot_start_ptes()/modify_prot_commit_ptes().  Per-PTE
/// operations in a page_vma_mapped_walk() loop are reported as an rmap
/// walk to batch by hand, those of a page walk pte_entry callback as a
/// page walk.
///
//# A call to a single-PTE operation of the batched helpers' family
//# (set_pte_at(), pte_clear(), ptep_get_and_clear(),
//# ptep_get_and_clear_full(), ptep_clear(), ptep_set_wrprotect(),
//# ptep_test_and_clear_young(), ptep_clear_flush_young(),
//# ptep_modify_prot_start() with its ptep_modify_prot_commit(), or one of
//# the arm64 raw helpers) is reported when control flow can reach it again
//# through a step of its page table pointer (p++, ++p, p += n,
//# p = p + n, p = &p[n], the step inside the argument, or an index i
//# stepped that way with p + i or &p[i] as the argument), whatever the
//# loop syntax: for, while, for (;;) or do-while.  So is a batched helper
//# called with a literal nr of 1 in such a loop (the pointer stepped as a
//# statement or an index), and a call, with the pte_t * the loop steps
//# as a statement as its argument (not pte + i, pte++ or &pte[i]), to a
//# function of the same file that does one or more of the
//# operations on its pte_t * parameter (and has no loop of its own over
//# it); the report lists them all.  A step whose expression names a PMD
//# or more (PMD_SIZE, HPAGE_PMD_SIZE, HPAGE_PMD_NR, SZ_2M, PTRS_PER_PTE,
//# ...) or a contpte block (CONT_PTES, CONT_PTE_SIZE) is one PTE per page
//# table or block, not a run, and is not reported.
//# The loops of the batched helpers themselves (set_ptes(),
//# __set_ptes_anysz(), contpte_clear_full_ptes(), ...) are not reported.
//# A call reached again through page_vma_mapped_walk() is reported as an
//# rmap walk: the walk gives one PTE at a time, so batching it means
//# rewriting the walk's body, as try_to_unmap_one() does.  The same
//# operations in the pte_entry callback of a struct mm_walk_ops of the
//# file, which walk_page_range() calls once per PTE, are reported as a
//# page walk: batching them means a pmd_entry that walks the page table.
//# The suggested helper follows the operation.  A value read by a
//# get-and-clear or ptep_modify_prot_start() and written to the same PTE
//# later in the text of the function (set_pte_at() or
//# ptep_modify_prot_commit(), the same mm or vma, address and pointer),
//# computed from the value read, names clear_young_dirty_ptes() with its
//# CYDP_* flags when only pte_mkold() and pte_mkclean() change it,
//# wrprotect_ptes() when only pte_wrprotect() does, and
//# modify_prot_start_ptes()/modify_prot_commit_ptes() otherwise; the
//# calls are followed through assignments and nested calls.  A value
//# written back unchanged (a restore) is no such pair, nor, for
//# set_pte_at(), one that a function other than those changing a present
//# PTE built (it may be an entry of another kind).  Not followed: a
//# function of another file, a read nested in the argument of the write.
//# The state is kept per file.  The pairs, the helpers and the callbacks
//# are matched statement by statement, without paths through a function,
//# so that what they cost grows with its text; the loops are matched
//# along its paths.
//# A report is not a request to convert: loops that decide per PTE, walk
//# kernel page tables or carry a value that does not advance like the
//# helper's stay as they are.  set_softleaf_ptes.cocci and
//# clear_full_ptes.cocci convert the loops that are provably equivalent.
//
// Confidence: Moderate
// Copyright: (C) 2026 pgtable_batch
// Options: --no-includes --include-headers
// Keywords: set_pte_at, pte_clear, ptep_get_and_clear, set_softleaf_ptes
//

virtual context
virtual org
virtual report

@initialize:python@
@@
import re
# Per file and position: what to report there.  Each match prints its own
# report, so that every mode works with --jobs.
loops = {}
printed = set()
# Functions of the file doing one operation on their pte_t * parameter,
# with the operation and its position; pte_entry callbacks of the file.
helpers = {}
callbacks = set()
# Reads and writes of PTEs per position, the values computed per file
# and function, and the calls passed to a write.
reads = {}
writes = {}
calls = {}
passed = {}
params = {}
state = {"file": None}

family = frozenset([
	"set_ptes", "get_and_clear_full_ptes", "get_and_clear_ptes",
	"clear_full_ptes", "clear_ptes", "clear_nonpresent_ptes",
	"wrprotect_ptes", "clear_young_dirty_ptes",
	"test_and_clear_young_ptes", "clear_flush_young_ptes",
	"set_softleaf_ptes", "modify_prot_start_ptes",
	"modify_prot_commit_ptes",
])

transforms = frozenset([
	"pte_mkold", "pte_mkclean", "pte_mkyoung", "pte_mkdirty",
	"pte_wrprotect", "pte_mkwrite", "pte_mkwrite_novma", "pte_modify",
	"pte_mkuffd", "pte_clear_uffd", "pte_mksoft_dirty",
	"pte_clear_soft_dirty", "pte_mkspecial", "pte_mkhuge", "pte_mkexec",
	"pte_exprotect", "pte_mkinvalid", "pte_mknotpresent",
	"pte_mkprivileged", "pte_mkuser",
])

# A step of a PMD or more: one PTE per page table.
wide = frozenset([
	"PMD_SIZE", "PUD_SIZE", "P4D_SIZE", "PGDIR_SIZE", "HPAGE_PMD_SIZE",
	"HPAGE_PUD_SIZE", "HPAGE_SIZE", "CONT_PMD_SIZE", "PTRS_PER_PTE",
	"PTRS_PER_PMD", "HPAGE_PMD_NR", "SZ_2M", "SZ_1G", "CONT_PTES",
	"CONT_PTE_SIZE", "PMD_NR",
])

def key(p):
	return (p[0].file, int(p[0].line), int(p[0].column))

def here(p):
	# The state is per file: spatch may run many files in one process.
	if p[0].file != state["file"]:
		state["file"] = p[0].file
		for d in (loops, printed, helpers, callbacks, reads, writes,
			  calls, passed, params):
			d.clear()

def stride(e):
	# A step that is one PTE: none of the names of a PMD or more.
	return not (set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", e)) & wide)

def reference(p):
	# The loop of a batched helper itself (generic, raw or contpte).
	name = p[0].current_element.lstrip("_")
	if name.startswith("contpte_"):
		name = name[len("contpte_"):]
	if name.endswith("_anysz"):
		name = name[:-len("_anysz")]
	return name in family

def wrapper(name):
	# The operations themselves and their arch variants are no helpers.
	for prefix in ("ptep_", "pte_", "set_pte", "contpte_", "huge_pte",
		       "set_huge_pte"):
		if name.lstrip("_").startswith(prefix):
			return True
	return name.lstrip("_") in family

def entry(p, fn, how):
	here(p)
	k = key(p)
	if reference(p):
		return
	if k not in loops:
		loops[k] = {"fn": fn, "kind": None, "how": how, "via": None}
	elif how == "walk":
		loops[k]["how"] = how

def found(p, fn):
	entry(p, fn, "loop")

def walked(p, fn):
	entry(p, fn, "walk")

def once(p, fn):
	entry(p, fn, "loop")
	if key(p) in loops:
		loops[key(p)]["kind"] = "nr1"

def helped(p, h, how):
	here(p)
	if reference(p) or not helper_of(h):
		return
	entry(p, helpers[h][0][0], how)
	if key(p) in loops:
		loops[key(p)]["via"] = h

def called_back(p, fn, cb):
	entry(p, fn, "callback")
	if key(p) in loops:
		loops[key(p)]["cb"] = cb

def called_back_via(p, h, cb):
	here(p)
	if helper_of(h):
		called_back(p, helpers[h][0][0], cb)
		loops[key(p)]["via"] = h

def define(h, fn, p):
	# Every operation of the function on its parameter, in order; not a
	# helper if one of them is in a loop of its own.
	here(p)
	if wrapper(h):
		return
	if key(p) in loops:
		helpers[h] = None
	elif h not in helpers:
		helpers[h] = [(fn, key(p))]
	elif helpers[h] is not None and (fn, key(p)) not in helpers[h]:
		helpers[h].append((fn, key(p)))

def helper_of(h):
	return h in helpers and helpers[h] is not None

def parameter(pd, f, name):
	# name is a pte_t * parameter of the function f.
	here(pd)
	params.setdefault(f, []).append(name)

def is_param(pc, name):
	return name in params.get(pc[0].current_element, [])

def first_param(pc, name):
	return params.get(pc[0].current_element, [None])[0] == name

def add_callback(p, cb):
	here(p)
	callbacks.add(cb)

def name(p):
	# The name of the function called at a position: the text there,
	# counted in bytes as spatch counts columns.
	with open(p[0].file, "rb") as f:
		line = f.read().split(b"\n")[int(p[0].line) - 1]
	text = line[int(p[0].column):].decode("utf-8", "replace")
	return text.split("(")[0].strip()

def inloop(p):
	return key(p) in loops

def interesting(p):
	return key(p) in loops or any(
		key(p) in [k for f, k in v] for v in helpers.values() if v)

def value(p, kind):
	k = key(p)
	if k in loops and loops[k]["kind"] is None:
		loops[k]["kind"] = kind

def transformed(e):
	# An assignment that changes a PTE value rather than replacing it.
	return e.strip().split("(")[0].strip() in transforms

def where(p):
	return (p[0].file, p[0].current_element)

def norm(e):
	return " ".join(e.split())

def read(pg, get, x, a, P, v):
	# v = get(x, a, P, ...): a read of the PTE at P.
	here(pg)
	reads[key(pg)] = (where(pg), int(pg[0].line), get, norm(x), norm(a),
			  norm(P), v.strip())

def write(pp, put, x, a, P, w):
	# put(x, a, P, ..., w): a write of w to the PTE at P.
	here(pp)
	writes[key(pp)] = (where(pp), int(pp[0].line), put, norm(x), norm(a),
			   norm(P), norm(w))

def computed(pf, t, u, y):
	# u = ... t(... y ...) ... in a function with a read.
	here(pf)
	calls.setdefault(where(pf), set()).add((int(pf[0].line), t + "()",
						 u.strip(), y.strip()))

def written(pp, t, y):
	# ... t(... y ...) ... passed to a write.
	here(pp)
	passed.setdefault(key(pp), set()).add((t + "()", y.strip()))

def changes(r, w, wk):
	# The calls on a chain of values from the value read to the value
	# written, between the two in the text of the function.
	lo, hi = r[1], w[1]
	made = [c for c in calls.get(r[0], set()) if lo <= c[0] <= hi]
	ahead = set([r[6]])
	grown = True
	while grown:
		grown = False
		for line, t, u, y in made:
			if y in ahead and u not in ahead:
				ahead.add(u)
				grown = True
	into = passed.get(wk, set())
	behind = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", w[6]))
	grown = True
	while grown:
		grown = False
		for line, t, u, y in made:
			if u in behind and y not in behind:
				behind.add(y)
				grown = True
	return (set([t for line, t, u, y in made
		     if y in ahead and u in behind]) |
		set([t for t, y in into if y in ahead]))

def rmw(k):
	# A read at k and a later write of the same PTE in the same function
	# of a value computed from it, or a write at k and the read before
	# it: the calls that changed the value.  None without such a pair,
	# or for a value written back unchanged (a restore).
	if k in reads:
		r = reads[k]
		cands = sorted([(w[1], wk) for wk, w in writes.items()
				if w[0] == r[0] and w[3:6] == r[3:6] and
				w[1] >= r[1]])
		pairs_ = [(r, writes[wk], wk) for line, wk in cands]
	elif k in writes:
		w = writes[k]
		cands = sorted([(r[1], rk) for rk, r in reads.items()
				if r[0] == w[0] and r[3:6] == w[3:6] and
				r[1] <= w[1]])
		pairs_ = [(reads[rk], w, k) for line, rk in cands[-1:]]
	else:
		return None
	for r, w, wk in pairs_:
		made = changes(r, w, wk)
		if not made:
			continue
		# A value set_pte_at() writes that another function built from
		# the one read may be another kind of entry: no pair.
		if r[2] != "ptep_modify_prot_start" and [c for c in made
				if c[:-2] not in transforms]:
			continue
		seq = ", ".join([r[2] + "()"] + sorted(made) + [w[2] + "()"])
		cond = (" if the PTEs are present and map consecutive pages " +
			"of one folio")
		if made <= set(["pte_mkold()", "pte_mkclean()"]):
			flags = " | ".join([f for c, f in
				(("pte_mkold()", "CYDP_CLEAR_YOUNG"),
				 ("pte_mkclean()", "CYDP_CLEAR_DIRTY"))
				if c in made])
			return (seq, "clear_young_dirty_ptes() with " + flags + cond)
		if made == set(["pte_wrprotect()"]):
			return (seq, "wrprotect_ptes()" + cond)
		return (seq, "modify_prot_start_ptes() and " +
			"modify_prot_commit_ptes()" + cond)
	return None

def helper(fn, kind):
	fn = fn.lstrip("_")
	if kind == "nr1" and fn == "set_ptes":
		return ("one set_ptes() over the run, if the PTEs map " +
			"consecutive pages of one folio")
	if kind == "nr1" and fn == "set_softleaf_ptes":
		return ("one set_softleaf_ptes() over the run, if the offset " +
			"advances by one per PTE or the marker is the same")
	if kind == "nr1" and fn == "clear_nonpresent_ptes":
		return ("one clear_nonpresent_ptes() over the run, if the " +
			"PTEs are not present")
	if kind == "nr1":
		return ("one %s() over the run, if the PTEs are present and " +
			"map consecutive pages of one folio") % fn
	if fn == "pte_clear":
		return ("clear_full_ptes() if the PTEs are present and map " +
			"consecutive pages of one folio, clear_nonpresent_ptes() " +
			"if they are not present")
	if fn in ("ptep_get_and_clear", "ptep_get_and_clear_full",
		  "ptep_get_and_clear_anysz"):
		return ("get_and_clear_full_ptes() if the PTEs are present and " +
			"map consecutive pages of one folio")
	if fn == "ptep_clear":
		return ("clear_ptes() if the PTEs are present and map " +
			"consecutive pages of one folio")
	if fn == "ptep_set_wrprotect":
		return ("wrprotect_ptes() if the PTEs are present and map " +
			"consecutive pages of one folio")
	if fn == "ptep_test_and_clear_young":
		return ("test_and_clear_young_ptes() if the PTEs are present " +
			"and map consecutive pages of one folio")
	if fn == "ptep_clear_flush_young":
		return ("clear_flush_young_ptes() if the PTEs are present and " +
			"map consecutive pages of one folio")
	if fn == "ptep_clear_flush":
		return ("get_and_clear_ptes() and one flush of the range if " +
			"the PTEs are present and map consecutive pages of one " +
			"folio")
	if fn == "ptep_modify_prot_start":
		return ("modify_prot_start_ptes() and modify_prot_commit_ptes() " +
			"if the PTEs are present and map consecutive pages of " +
			"one folio")
	if kind == "marker":
		return "set_softleaf_ptes() (the same marker in every PTE)"
	if kind == "softleaf":
		return ("set_softleaf_ptes() if the offset advances by one " +
			"per PTE")
	if kind == "present":
		return ("set_ptes() if the PTEs map consecutive pages of one " +
			"folio")
	return ("set_ptes() for present values, set_softleaf_ptes() for " +
		"non-present ones")

def message(p):
	e = loops[key(p)]
	via = e["via"]
	op, use = e["fn"] + "()", helper(e["fn"], e["kind"])
	k = key(p)
	if via is not None:
		ops = []
		for f, fk in helpers[via]:
			if f not in [g for g, gk in ops]:
				ops.append((f, fk))
		op = ", ".join([f + "()" for f, fk in ops])
		use = helper(ops[0][0], None)
		if len(ops) > 1:
			use = "the helper of each: " + "; ".join(
				["%s() for %s()" % (helper(f, None).split(" ")[0].rstrip("()"), f)
				 for f, fk in ops])
		k = None
		for f, fk in ops:
			if rmw(fk) is not None:
				k = fk
				break
	if k is not None and rmw(k) is not None:
		op, use = rmw(k)
		if via is not None:
			# The operations of the helper outside the pair too.
			inside = op.split(", ")
			outside = [f for f, fk in ops if f + "()" not in inside]
			op = ", ".join([f + "()" for f in outside] + [op])
			if outside:
				use = use + "; for " + "; for ".join(
					["%s(): %s" % (f, helper(f, None))
					 for f in outside])
	if e["how"] == "walk":
		if via is not None:
			op = "%s() does %s" % (via, op)
		return ("rmap walk: batch by hand: %s on one PTE per step of " +
			"page_vma_mapped_walk()") % op
	if e["how"] == "callback":
		if via is not None:
			op = "calls %s(), which does %s" % (via, op)
		else:
			op = "does " + op
		return ("page walk: %s() is a pte_entry callback, called once " +
			"per PTE, and %s: a pmd_entry can batch the run with " +
			"%s") % (e["cb"], op, use)
	if via is not None:
		return ("per-PTE loop calling %s(), which does %s on one PTE: " +
			"use %s") % (via, op, use)
	if e["kind"] == "nr1":
		return "per-PTE %s loop with nr 1: use %s" % (op, use)
	return "per-PTE %s loop: use %s" % (op, use)

def first(p):
	# One report per call, however many rules matched it.
	if key(p) in printed:
		return False
	printed.add(key(p))
	return True

// A call reached again through a step of its page table pointer.

@ptr depends on context || org || report exists@
identifier fn = {set_pte_at, pte_clear, ptep_get_and_clear,
		 ptep_get_and_clear_full, ptep_clear, ptep_set_wrprotect,
		 ptep_test_and_clear_young, ptep_clear_flush_young,
		 ptep_modify_prot_start,
		 __pte_clear, __ptep_get_and_clear, __ptep_get_and_clear_anysz,
		 __ptep_set_wrprotect, __ptep_test_and_clear_young,
		 __ptep_clear_flush_young};
expression mm, a, P;
expression E : script:python() { stride(E) };
position pc;
@@

fn@pc(mm, a, P, ...)
...
\(P++\|++P\|P += E\|P = P + E\|P = &P[E]\)
...
fn@pc(mm, a, P, ...)

@script:python@
pc << ptr.pc;
fn << ptr.fn;
@@

found(pc, fn)

@ptr_raw depends on context || org || report exists@
identifier fn = {__set_pte, __set_pte_nosync};
expression P;
expression E : script:python() { stride(E) };
position pc;
@@

fn@pc(P, ...)
...
\(P++\|++P\|P += E\|P = P + E\|P = &P[E]\)
...
fn@pc(P, ...)

@script:python@
pc << ptr_raw.pc;
fn << ptr_raw.fn;
@@

found(pc, fn)

// Or with the step inside the argument.

@arg depends on context || org || report exists@
identifier fn = {set_pte_at, pte_clear, ptep_get_and_clear,
		 ptep_get_and_clear_full, ptep_clear, ptep_set_wrprotect,
		 ptep_test_and_clear_young, ptep_clear_flush_young,
		 ptep_modify_prot_start,
		 __pte_clear, __ptep_get_and_clear, __ptep_get_and_clear_anysz,
		 __ptep_set_wrprotect, __ptep_test_and_clear_young,
		 __ptep_clear_flush_young, __set_pte, __set_pte_nosync};
expression P, I;
position pc;
@@

fn@pc(..., \(P++\|++P\|P + I++\|&P[I++]\), ...)
...
fn@pc(..., \(P++\|++P\|P + I++\|&P[I++]\), ...)

@script:python@
pc << arg.pc;
fn << arg.fn;
@@

found(pc, fn)

// Or with the pointer looked up again after a step of the address.

@adr depends on context || org || report exists@
identifier fn = {set_pte_at, pte_clear, ptep_get_and_clear,
		 ptep_get_and_clear_full, ptep_clear, ptep_set_wrprotect,
		 ptep_test_and_clear_young, ptep_clear_flush_young,
		 ptep_modify_prot_start,
		 __pte_clear, __ptep_get_and_clear, __ptep_get_and_clear_anysz,
		 __ptep_set_wrprotect, __ptep_test_and_clear_young,
		 __ptep_clear_flush_young};
expression mm, a, P;
expression E : script:python() { stride(E) };
position pc;
@@

fn@pc(mm, a, P, ...)
...
\(a += E\|a = a + E\)
...
P = \(pte_offset_kernel\|pte_offset_map\|pte_offset_map_lock\)(...)
...
fn@pc(mm, a, P, ...)

@script:python@
pc << adr.pc;
fn << adr.fn;
@@

found(pc, fn)

// The same with an index: fn(..., p + i, ...) or fn(..., &p[i], ...).

@idx depends on context || org || report exists@
identifier fn = {set_pte_at, pte_clear, ptep_get_and_clear,
		 ptep_get_and_clear_full, ptep_clear, ptep_set_wrprotect,
		 ptep_test_and_clear_young, ptep_clear_flush_young,
		 ptep_modify_prot_start,
		 __pte_clear, __ptep_get_and_clear, __ptep_get_and_clear_anysz,
		 __ptep_set_wrprotect, __ptep_test_and_clear_young,
		 __ptep_clear_flush_young};
expression mm, a, P, I;
expression E : script:python() { stride(E) };
position pc;
@@

fn@pc(mm, a, \(P + I\|&P[I]\), ...)
...
\(I++\|++I\|I += E\|I = I + E\)
...
fn@pc(mm, a, \(P + I\|&P[I]\), ...)

@script:python@
pc << idx.pc;
fn << idx.fn;
@@

found(pc, fn)

@idx_raw depends on context || org || report exists@
identifier fn = {__set_pte, __set_pte_nosync};
expression P, I;
expression E : script:python() { stride(E) };
position pc;
@@

fn@pc(\(P + I\|&P[I]\), ...)
...
\(I++\|++I\|I += E\|I = I + E\)
...
fn@pc(\(P + I\|&P[I]\), ...)

@script:python@
pc << idx_raw.pc;
fn << idx_raw.fn;
@@

found(pc, fn)

// A batched helper called for one PTE at a time.

@nr1 depends on context || org || report exists@
identifier f4 = {clear_full_ptes, get_and_clear_full_ptes, clear_ptes,
		 get_and_clear_ptes, wrprotect_ptes, clear_young_dirty_ptes,
		 test_and_clear_young_ptes, clear_flush_young_ptes,
		 clear_nonpresent_ptes, modify_prot_start_ptes};
identifier f5 = {set_ptes, set_softleaf_ptes};
identifier f6 = {modify_prot_commit_ptes};
expression x, a, P, V, W;
expression E : script:python() { stride(E) };
position pc;
@@

\(f4@pc(x, a, P, 1, ...)\|f5@pc(x, a, P, V, 1)\|f6@pc(x, a, P, V, W, 1)\)
...
\(P++\|++P\|P += E\|P = P + E\|P = &P[E]\)
...
\(f4@pc(x, a, P, 1, ...)\|f5@pc(x, a, P, V, 1)\|f6@pc(x, a, P, V, W, 1)\)

@script:python@
pc << nr1.pc;
@@

once(pc, name(pc))

@nr1_idx depends on context || org || report exists@
identifier f4 = {clear_full_ptes, get_and_clear_full_ptes, clear_ptes,
		 get_and_clear_ptes, wrprotect_ptes, clear_young_dirty_ptes,
		 test_and_clear_young_ptes, clear_flush_young_ptes,
		 clear_nonpresent_ptes, modify_prot_start_ptes};
identifier f5 = {set_ptes, set_softleaf_ptes};
identifier f6 = {modify_prot_commit_ptes};
expression x, a, P, I, V, W;
expression E : script:python() { stride(E) };
position pc;
@@

\(f4@pc(x, a, \(P + I\|&P[I]\), 1, ...)\|
  f5@pc(x, a, \(P + I\|&P[I]\), V, 1)\|
  f6@pc(x, a, \(P + I\|&P[I]\), V, W, 1)\)
...
\(I++\|++I\|I += E\|I = I + E\)
...
\(f4@pc(x, a, \(P + I\|&P[I]\), 1, ...)\|
  f5@pc(x, a, \(P + I\|&P[I]\), V, 1)\|
  f6@pc(x, a, \(P + I\|&P[I]\), V, W, 1)\)

@script:python@
pc << nr1_idx.pc;
@@

once(pc, name(pc))

// A per-PTE operation reached again through page_vma_mapped_walk().

@walk depends on context || org || report exists@
identifier fn = {set_pte_at, pte_clear, ptep_get_and_clear,
		 ptep_get_and_clear_full, ptep_clear, ptep_clear_flush,
		 ptep_set_wrprotect, ptep_test_and_clear_young,
		 ptep_clear_flush_young, ptep_modify_prot_start};
expression W;
position pc;
@@

page_vma_mapped_walk(W)
...
fn@pc(...)
...
page_vma_mapped_walk(W)

@script:python@
pc << walk.pc;
fn << walk.fn;
@@

walked(pc, fn)

// The pte_entry callbacks of page walks, which walk_page_range() calls
// once per PTE, the pte_t * parameters of the functions of the file, and
// the operations on them: functions that do one operation on their
// parameter are helpers, and the operations of a callback on its PTE are done
// once per PTE.  Each matched on its own, without a path (a path through
// a large function makes the matching exponential).

@cbr depends on context || org || report@
identifier ops, cb;
position p;
@@

struct mm_walk_ops ops = { .pte_entry = cb@p, };

@script:python@
cb << cbr.cb;
p << cbr.p;
@@

add_callback(p, cb)

@params depends on context || org || report@
identifier hf, p;
type T;
typedef pte_t;
position pd;
@@

T hf@pd(..., pte_t *p, ...) { ... }

@script:python@
hf << params.hf;
p << params.p;
pd << params.pd;
@@

parameter(pd, hf, p)

@hdef depends on (context || org || report) && params@
identifier p;
identifier fn = {set_pte_at, pte_clear, ptep_get_and_clear,
		 ptep_get_and_clear_full, ptep_clear, ptep_clear_flush,
		 ptep_set_wrprotect, ptep_test_and_clear_young,
		 ptep_clear_flush_young, ptep_modify_prot_start,
		 __pte_clear, __ptep_get_and_clear, __ptep_get_and_clear_anysz,
		 __ptep_set_wrprotect, __ptep_test_and_clear_young,
		 __ptep_clear_flush_young, __set_pte, __set_pte_nosync};
position pc : script:python(p) { is_param(pc, p) };
@@

fn@pc(..., p, ...)

@script:python@
fn << hdef.fn;
pc << hdef.pc;
p << hdef.p;
@@

define(pc[0].current_element, fn, pc)
if first_param(pc, p) and pc[0].current_element in callbacks:
	called_back(pc, fn, pc[0].current_element)

// A call to such a function, reached again through a step of the pointer
// or through page_vma_mapped_walk().

@ptrhelp depends on (context || org || report) && hdef exists@
identifier hf : script:python() { helper_of(hf) };
typedef pte_t;
pte_t *P;
expression E : script:python() { stride(E) };
position pc;
@@

hf@pc(..., P, ...)
...
\(P++\|++P\|P += E\|P = P + E\|P = &P[E]\)
...
hf@pc(..., P, ...)

@script:python@
pc << ptrhelp.pc;
@@

helped(pc, name(pc), "loop")

@walkhelp depends on (context || org || report) && hdef exists@
identifier hf : script:python() { helper_of(hf) };
expression W;
position pc;
@@

page_vma_mapped_walk(W)
...
hf@pc(...)
...
page_vma_mapped_walk(W)

@script:python@
pc << walkhelp.pc;
@@

helped(pc, name(pc), "walk")

// A callback that calls a helper on its PTE.

@cbh depends on (context || org || report) && cbr && hdef@
identifier hf : script:python() { helper_of(hf) };
identifier p;
position pc : script:python(p) {
	first_param(pc, p) and pc[0].current_element in callbacks };
@@

hf@pc(..., p, ...)

@script:python@
pc << cbh.pc;
hf << cbh.hf;
@@

called_back_via(pc, hf, pc[0].current_element)

// Reads of the value of a reported PTE operation, writes of a PTE, and the
// values computed in between, each matched on its own, without a path
// (paths through large functions make the matching exponential): the
// Python pairs a write with a read of the same PTE before it in the same
// function and follows the values from one to the other.

@getv depends on (context || org || report) &&
	(ptr || arg || adr || idx || walk || hdef)@
identifier get = {ptep_get_and_clear, ptep_get_and_clear_full,
		  ptep_modify_prot_start, __ptep_get_and_clear};
expression x, a, P;
identifier v;
type V;
position pg : script:python() { interesting(pg) };
@@

\(v = get@pg(x, a, P, ...);\|V v = get@pg(x, a, P, ...);\)

@script:python@
pg << getv.pg;
get << getv.get;
x << getv.x;
a << getv.a;
P << getv.P;
v << getv.v;
@@

read(pg, get, x, a, P, v)

@putv depends on (context || org || report) && getv@
identifier put = {set_pte_at, ptep_modify_prot_commit};
expression x, a, P, W;
position pp;
@@

put@pp(x, a, P, ..., W)

@script:python@
pp << putv.pp;
put << putv.put;
x << putv.x;
a << putv.a;
P << putv.P;
W << putv.W;
@@

write(pp, put, x, a, P, W)

// u = ... t(... y ...) ...: what is computed from what, with t any call
// nested in the value.

@change depends on (context || org || report) && getv@
identifier t : script:python() { transformed(t) };
identifier u, y;
type V;
position pf;
@@

\(u = <+... t@pf(..., <+... y ...+>, ...) ...+>;\|
  V u = <+... t@pf(..., <+... y ...+>, ...) ...+>;\)

@script:python@
pf << change.pf;
t << change.t;
u << change.u;
y << change.y;
@@

computed(pf, t, u, y)

@change_other depends on (context || org || report) && getv@
identifier f : script:python() { not transformed(f) };
identifier y;
typedef pte_t;
position pf;
idexpression pte_t u;
@@

u = f@pf(..., <+... y ...+>, ...);

@script:python@
pf << change_other.pf;
f << change_other.f;
u << change_other.u;
y << change_other.y;
@@

computed(pf, f, u, y)

@change_decl depends on (context || org || report) && getv@
identifier f : script:python() { not transformed(f) };
identifier y;
typedef pte_t;
position pf;
identifier u;
@@

pte_t u = f@pf(..., <+... y ...+>, ...);

@script:python@
pf << change_decl.pf;
f << change_decl.f;
u << change_decl.u;
y << change_decl.y;
@@

computed(pf, f, u, y)

@change_arg depends on (context || org || report) && getv@
identifier put = {set_pte_at, ptep_modify_prot_commit};
identifier t;
identifier y;
position pp, pf;
@@

put@pp(..., <+... t@pf(..., <+... y ...+>, ...) ...+>, ...)

@script:python@
pp << change_arg.pp;
t << change_arg.t;
y << change_arg.y;
@@

written(pp, t, y)

// What a reported set_pte_at() writes, to name the helper that fits.

@marker depends on context || org || report exists@
identifier fn = {set_pte_at, __set_pte, __set_pte_nosync};
identifier v;
expression E;
position pc : script:python() { inloop(pc) };
@@

(
fn@pc(..., make_pte_marker(...));
|
v = make_pte_marker(...);
... when != v = E
fn@pc(..., v);
)

@script:python@
pc << marker.pc;
@@

value(pc, "marker")

@softleaf depends on context || org || report exists@
identifier fn = {set_pte_at, __set_pte, __set_pte_nosync};
identifier v;
expression E;
position pc : script:python() { inloop(pc) };
@@

(
fn@pc(..., \(swp_entry_to_pte\|softleaf_to_pte\|pte_swp_mksoft_dirty\|
	 pte_swp_mkuffd\|pte_swp_mkexclusive\|pte_swp_clear_uffd\|
	 pte_swp_clear_exclusive\|pte_swp_clear_soft_dirty\)(...));
|
v = \(swp_entry_to_pte\|softleaf_to_pte\|pte_swp_mksoft_dirty\|
      pte_swp_mkuffd\|pte_swp_mkexclusive\|pte_swp_clear_uffd\|
      pte_swp_clear_exclusive\|pte_swp_clear_soft_dirty\)(...);
... when != v = E
fn@pc(..., v);
)

@script:python@
pc << softleaf.pc;
@@

value(pc, "softleaf")

@present depends on context || org || report exists@
identifier fn = {set_pte_at, __set_pte, __set_pte_nosync};
identifier v;
expression E;
position pc : script:python() { inloop(pc) };
@@

(
fn@pc(..., \(mk_pte\|pfn_pte\|folio_mk_pte\|pte_mkspecial\|pte_mkwrite\|
	 pte_mkdirty\|pte_mkyoung\|pte_mkold\|pte_wrprotect\|
	 pte_modify\)(...));
|
v = \(mk_pte\|pfn_pte\|folio_mk_pte\|pte_mkspecial\|pte_mkwrite\|
      pte_mkdirty\|pte_mkyoung\|pte_mkold\|pte_wrprotect\|
      pte_modify\)(...);
... when != v = E
fn@pc(..., v);
)

@script:python@
pc << present.pc;
@@

value(pc, "present")

//----------------------------------------------------------
//  For context mode
//----------------------------------------------------------

@depends on context@
identifier fn;
position pc : script:python() { inloop(pc) };
@@

* fn@pc(...)

//----------------------------------------------------------
//  For org and report mode
//----------------------------------------------------------

@rep depends on org || report@
identifier fn;
position pc : script:python() { inloop(pc) };
@@

fn@pc(...)

@script:python depends on report@
pc << rep.pc;
@@

if first(pc):
	coccilib.report.print_report(pc[0], message(pc))

@script:python depends on org@
pc << rep.pc;
@@

if first(pc):
	coccilib.org.print_todo(pc[0],
		message(pc).replace("[", "@(").replace("]", ")"))
