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
//# called with a literal nr of 1 in such a loop, and a call to a function
//# of the same file that does one of the operations on its pte_t *
//# parameter (without a loop of its own).  A step of a PMD or more
//# (PMD_SIZE, HPAGE_PMD_SIZE, PTRS_PER_PTE, ...) is one PTE per page table,
//# not a run, and is not reported.
//# The loops of the batched helpers themselves (set_ptes(),
//# __set_ptes_anysz(), contpte_clear_full_ptes(), ...) are not reported.
//# A call reached again through page_vma_mapped_walk() is reported as an
//# rmap walk: the walk gives one PTE at a time, so batching it means
//# rewriting the walk's body, as try_to_unmap_one() does.  The same
//# operations in the pte_entry callback of a struct mm_walk_ops of the
//# file, which walk_page_range() calls once per PTE, are reported as a
//# page walk: batching them means a pmd_entry that walks the page table.
//# The suggested helper follows the operation: a get-and-clear or
//# ptep_modify_prot_start() whose value is written back by set_pte_at()
//# or ptep_modify_prot_commit() names clear_young_dirty_ptes() when only
//# pte_mkold() and pte_mkclean() change it, wrprotect_ptes() when only
//# pte_wrprotect() does, and modify_prot_start_ptes()/
//# modify_prot_commit_ptes() otherwise.
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
# Per file and position: what to report there.  Each match prints its own
# report, so that every mode works with --jobs.
loops = {}
printed = set()
# Functions of the file doing one operation on their pte_t * parameter,
# with the operation and its position; pte_entry callbacks of the file.
helpers = {}
callbacks = set()
# Per position of a read-modify-write: [read, write, changes between].
pairs = {}
# Per file and function: the values computed there from others.
calls = {}

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
	"pte_mkuffd_wp", "pte_clear_uffd_wp", "pte_mksoft_dirty",
	"pte_clear_soft_dirty", "pte_mkspecial", "pte_mkhuge", "pte_mkexec",
	"pte_exprotect", "pte_mkinvalid", "pte_mknotpresent",
	"pte_mkprivileged", "pte_mkuser",
])

# A step of a PMD or more: one PTE per page table.
wide = frozenset([
	"PMD_SIZE", "PUD_SIZE", "P4D_SIZE", "PGDIR_SIZE", "HPAGE_PMD_SIZE",
	"HPAGE_PUD_SIZE", "HPAGE_SIZE", "CONT_PMD_SIZE", "PTRS_PER_PTE",
	"PTRS_PER_PMD", "HPAGE_PMD_NR",
])

def key(p):
	return (p[0].file, int(p[0].line), int(p[0].column))

def stride(e):
	return e.strip() not in wide

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
	if reference(p) or h not in helpers:
		return
	entry(p, helpers[h][0], how)
	if key(p) in loops:
		loops[key(p)]["via"] = h

def called_back(p, fn, cb):
	entry(p, fn, "callback")
	if key(p) in loops:
		loops[key(p)]["cb"] = cb

def called_back_via(p, h, cb):
	if h in helpers:
		called_back(p, helpers[h][0], cb)
		loops[key(p)]["via"] = h

def define(h, fn, p):
	# Not a helper if the operation is in a loop of its own.
	if not wrapper(h) and key(p) not in loops and h not in helpers:
		helpers[h] = (fn, key(p))

def name(p):
	# The name of the function called at a position: the text there.
	line = open(p[0].file).read().split(chr(10))[int(p[0].line) - 1]
	return line[int(p[0].column):].split("(")[0].strip()

def inloop(p):
	return key(p) in loops

def interesting(p):
	return key(p) in loops or key(p) in [v[1] for v in helpers.values()]

def value(p, kind):
	k = key(p)
	if k in loops and loops[k]["kind"] is None:
		loops[k]["kind"] = kind

def transformed(e):
	# An assignment that changes a PTE value rather than replacing it.
	return e.strip().split("(")[0].strip() in transforms

def paired(pg, pp, get, put, v, w):
	# The value read (v) and the value written (w), computed from it.
	if key(pg) not in pairs:
		pos = ((pg[0].file, pg[0].current_element), int(pg[0].line),
		       int(pp[0].line))
		pairs[key(pg)] = [get, put, v.strip(), w.strip(), pos, set()]
	pairs[key(pp)] = pairs[key(pg)]

def computed(pf, t, u, y):
	# u = t(... y ...) in a function with a pair.
	where = (pf[0].file, pf[0].current_element)
	calls.setdefault(where, set()).add((int(pf[0].line), t + "()",
					    u.strip(), y.strip()))

def written(pp, t, y):
	# t(... y ...) passed to the write of a pair.
	pairs[key(pp)][5].add((t + "()", y.strip()))

def changes(k):
	# The calls on a chain of values from the value read to the value
	# written, between the two; none for a value written back unchanged
	# (a restore).
	get, put, v, w, pos, passed = pairs[k]
	lo, hi = min(pos[1], pos[2]), max(pos[1], pos[2])
	made = [c for c in calls.get(pos[0], set()) if lo <= c[0] <= hi]
	ahead = set([v])
	grown = True
	while grown:
		grown = False
		for line, t, u, y in made:
			if y in ahead and u not in ahead:
				ahead.add(u)
				grown = True
	behind = set([w] + [y for t, y in passed])
	grown = True
	while grown:
		grown = False
		for line, t, u, y in made:
			if u in behind and y not in behind:
				behind.add(y)
				grown = True
	return (set([t for line, t, u, y in made
		     if y in ahead and u in behind]) |
		set([t for t, y in passed if y in ahead]))

def rmw(k):
	# None for a value written back unchanged (a restore).
	get, put = pairs[k][0], pairs[k][1]
	made = changes(k)
	if not made:
		return None
	seq = ", ".join([get + "()"] + sorted(made) + [put + "()"])
	cond = " if the PTEs are present and map consecutive pages of one folio"
	if made <= set(["pte_mkold()", "pte_mkclean()"]):
		return (seq, "clear_young_dirty_ptes()" + cond)
	if made == set(["pte_wrprotect()"]):
		return (seq, "wrprotect_ptes()" + cond)
	return (seq, "modify_prot_start_ptes() and modify_prot_commit_ptes()" +
		cond)

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
	k = key(p) if via is None else helpers[via][1]
	op, use = e["fn"] + "()", helper(e["fn"], e["kind"])
	if k in pairs and rmw(k) is not None:
		op, use = rmw(k)
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

// Functions of the file that do one operation on their pte_t * parameter.

@hdef depends on context || org || report exists@
identifier hf, p;
identifier fn = {set_pte_at, pte_clear, ptep_get_and_clear,
		 ptep_get_and_clear_full, ptep_clear, ptep_clear_flush,
		 ptep_set_wrprotect, ptep_test_and_clear_young,
		 ptep_clear_flush_young, ptep_modify_prot_start,
		 __pte_clear, __ptep_get_and_clear, __ptep_get_and_clear_anysz,
		 __ptep_set_wrprotect, __ptep_test_and_clear_young,
		 __ptep_clear_flush_young, __set_pte, __set_pte_nosync};
type T;
typedef pte_t;
position pc;
@@

T hf(..., pte_t *p, ...)
{
<+...
fn@pc(..., p, ...)
...+>
}

@script:python@
hf << hdef.hf;
fn << hdef.fn;
pc << hdef.pc;
@@

define(hf, fn, pc)

// A call to such a function, reached again through a step of the pointer
// or through page_vma_mapped_walk().

@ptrhelp depends on (context || org || report) && hdef exists@
identifier hf : script:python() { hf in helpers };
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
identifier hf : script:python() { hf in helpers };
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

// The pte_entry callbacks of page walks, which walk_page_range() calls
// once per PTE, and the operations they do on their PTE.

@cbr depends on context || org || report@
identifier ops, cb;
@@

struct mm_walk_ops ops = { .pte_entry = cb, };

@script:python@
cb << cbr.cb;
@@

callbacks.add(cb)

@cbop depends on (context || org || report) && cbr exists@
identifier cb : script:python() { cb in callbacks };
identifier p;
identifier fn = {set_pte_at, pte_clear, ptep_get_and_clear,
		 ptep_get_and_clear_full, ptep_clear, ptep_clear_flush,
		 ptep_set_wrprotect, ptep_test_and_clear_young,
		 ptep_clear_flush_young, ptep_modify_prot_start,
		 __pte_clear, __ptep_get_and_clear, __ptep_get_and_clear_anysz,
		 __ptep_set_wrprotect, __ptep_test_and_clear_young,
		 __ptep_clear_flush_young, __set_pte, __set_pte_nosync};
type T;
typedef pte_t;
position pc;
@@

T cb(pte_t *p, ...)
{
<+...
fn@pc(..., p, ...)
...+>
}

@script:python@
pc << cbop.pc;
fn << cbop.fn;
@@

called_back(pc, fn, pc[0].current_element)

@cbh depends on (context || org || report) && cbr && hdef exists@
identifier cb : script:python() { cb in callbacks };
identifier p;
identifier hf : script:python() { hf in helpers };
type T;
typedef pte_t;
position pc;
@@

T cb(pte_t *p, ...)
{
<+...
hf@pc(..., p, ...)
...+>
}

@script:python@
pc << cbh.pc;
@@

called_back_via(pc, name(pc), pc[0].current_element)

// A reported read of a PTE whose value is written back to the same PTE:
// the changes made to that value in between name the helper.

@pair depends on (context || org || report) &&
	(ptr || arg || adr || idx || walk || hdef || cbop) exists@
identifier get = {ptep_modify_prot_start};
identifier put = {ptep_modify_prot_commit};
expression x, a, P, w;
identifier v;
type V;
position pg : script:python() { interesting(pg) };
position pp;
@@

\(v = get@pg(x, a, P);\|V v = get@pg(x, a, P);\)
... when any
put@pp(x, a, P, v, w)

@script:python@
pg << pair.pg;
pp << pair.pp;
get << pair.get;
put << pair.put;
v << pair.v;
w << pair.w;
@@

paired(pg, pp, get, put, v, w)

// A get-and-clear written back by set_pte_at() only when the value written
// is the one read, changed by the helpers that change a present PTE.

@pair_set depends on (context || org || report) &&
	(ptr || arg || adr || idx || walk || hdef || cbop) exists@
identifier get = {ptep_get_and_clear, ptep_get_and_clear_full,
		  __ptep_get_and_clear};
identifier put = {set_pte_at};
expression x, a, P;
expression E : script:python() { not transformed(E) };
identifier v;
type V;
position pg : script:python() { interesting(pg) };
position pp;
@@

\(v = get@pg(x, a, P, ...);\|V v = get@pg(x, a, P, ...);\)
... when != v = E
    when any
put@pp(x, a, P, v);

@script:python@
pg << pair_set.pg;
pp << pair_set.pp;
get << pair_set.get;
put << pair_set.put;
v << pair_set.v;
@@

paired(pg, pp, get, put, v, v)

@pair_arg depends on (context || org || report) &&
	(ptr || arg || adr || idx || walk || hdef || cbop) exists@
identifier get = {ptep_get_and_clear, ptep_get_and_clear_full,
		  __ptep_get_and_clear};
identifier put = {set_pte_at};
identifier t : script:python() { transformed(t) };
expression x, a, P;
expression E : script:python() { not transformed(E) };
identifier v;
type V;
position pg : script:python() { interesting(pg) };
position pp;
@@

\(v = get@pg(x, a, P, ...);\|V v = get@pg(x, a, P, ...);\)
... when != v = E
    when any
put@pp(x, a, P, t(..., <+... v ...+>, ...));

@script:python@
pg << pair_arg.pg;
pp << pair_arg.pp;
get << pair_arg.get;
put << pair_arg.put;
v << pair_arg.v;
@@

paired(pg, pp, get, put, v, v)

@pair_new depends on (context || org || report) &&
	(ptr || arg || adr || idx || walk || hdef || cbop) exists@
identifier get = {ptep_get_and_clear, ptep_get_and_clear_full,
		  __ptep_get_and_clear};
identifier put = {set_pte_at};
identifier t : script:python() { transformed(t) };
expression x, a, P;
expression E : script:python() { not transformed(E) };
identifier v, w;
type V;
position pg : script:python() { interesting(pg) };
position pp;
@@

\(v = get@pg(x, a, P, ...);\|V v = get@pg(x, a, P, ...);\)
... when != v = E
    when any
\(w = t(..., <+... v ...+>, ...);\|V w = t(..., <+... v ...+>, ...);\)
... when != w = E
    when any
put@pp(x, a, P, w);

@script:python@
pg << pair_new.pg;
pp << pair_new.pp;
get << pair_new.get;
put << pair_new.put;
v << pair_new.v;
w << pair_new.w;
@@

paired(pg, pp, get, put, v, w)

// The values computed in the functions of such pairs, u = f(... y ...),
// and those passed to the write: the pairs keep those between their read
// and their write in the text of the function.

@change depends on (context || org || report) &&
	(pair || pair_set || pair_arg || pair_new)@
identifier t : script:python() { transformed(t) };
identifier u, y;
type V;
position pf;
@@

\(u = t@pf(..., <+... y ...+>, ...);\|V u = t@pf(..., <+... y ...+>, ...);\)

@script:python@
pf << change.pf;
u << change.u;
y << change.y;
@@

computed(pf, name(pf), u, y)

@change_arg depends on (context || org || report) &&
	(pair || pair_set || pair_arg || pair_new)@
identifier put = {set_pte_at, ptep_modify_prot_commit};
identifier t : script:python() { transformed(t) };
identifier y;
position pp : script:python() { key(pp) in pairs };
position pf;
@@

put@pp(..., <+... t@pf(..., <+... y ...+>, ...) ...+>, ...)

@script:python@
pp << change_arg.pp;
pf << change_arg.pf;
y << change_arg.y;
@@

written(pp, name(pf), y)

@change_other depends on (context || org || report) &&
	(pair || pair_set || pair_arg || pair_new)@
identifier f : script:python() { not transformed(f) };
identifier y;
typedef pte_t;
idexpression pte_t u;
position pf;
@@

u = f@pf(..., <+... y ...+>, ...);

@script:python@
pf << change_other.pf;
u << change_other.u;
y << change_other.y;
@@

computed(pf, name(pf), u, y)

@change_decl depends on (context || org || report) &&
	(pair || pair_set || pair_arg || pair_new)@
identifier f : script:python() { not transformed(f) };
identifier u, y;
typedef pte_t;
position pf;
@@

pte_t u = f@pf(..., <+... y ...+>, ...);

@script:python@
pf << change_decl.pf;
u << change_decl.u;
y << change_decl.y;
@@

computed(pf, name(pf), u, y)

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
