// SPDX-License-Identifier: GPL-2.0-only
///
/// Find loops that apply a single-PTE operation to consecutive PTEs one at
/// a time and name the batched helper that does the same work:
/// set_ptes() or set_softleaf_ptes() for writes, get_and_clear_full_ptes(),
/// clear_full_ptes(), clear_ptes() or clear_nonpresent_ptes() for
/// clearing, wrprotect_ptes(), test_and_clear_young_ptes() and
/// clear_flush_young_ptes().  Per-PTE operations in a
/// page_vma_mapped_walk() loop are reported as an rmap walk to batch by
/// hand.
///
//# A call to a single-PTE operation of the batched helpers' family
//# (set_pte_at(), pte_clear(), ptep_get_and_clear(),
//# ptep_get_and_clear_full(), ptep_clear(), ptep_set_wrprotect(),
//# ptep_test_and_clear_young(), ptep_clear_flush_young(), or one of the
//# arm64 raw helpers) is reported when control flow can reach it again
//# through a step of its page table pointer (p++, ++p, p += n,
//# p = p + n, or an index i stepped that way with p + i or &p[i] as the
//# argument), whatever the loop syntax: for, while, for (;;) or do-while.
//# The loops of the batched helpers themselves (set_ptes(),
//# __set_ptes_anysz(), contpte_clear_full_ptes(), ...) are not reported.
//# A call reached again through page_vma_mapped_walk() is reported as an
//# rmap walk: the walk gives one PTE at a time, so batching it means
//# rewriting the walk's body, as try_to_unmap_one() does.
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
# Per file and position: [function, kind of value or None, walk].  Each
# match prints its own report, so that every mode works with --jobs.
loops = {}
printed = set()

family = frozenset([
	"set_ptes", "get_and_clear_full_ptes", "get_and_clear_ptes",
	"clear_full_ptes", "clear_ptes", "clear_nonpresent_ptes",
	"wrprotect_ptes", "clear_young_dirty_ptes",
	"test_and_clear_young_ptes", "clear_flush_young_ptes",
	"set_softleaf_ptes",
])

def key(p):
	return (p[0].file, int(p[0].line), int(p[0].column))

def reference(p):
	# The loop of a batched helper itself (generic, raw or contpte).
	name = p[0].current_element.lstrip("_")
	if name.startswith("contpte_"):
		name = name[len("contpte_"):]
	if name.endswith("_anysz"):
		name = name[:-len("_anysz")]
	return name in family

def found(p, fn):
	if key(p) not in loops and not reference(p):
		loops[key(p)] = [fn, None, False]

def walked(p, fn):
	if reference(p):
		return
	if key(p) not in loops:
		loops[key(p)] = [fn, None, True]
	else:
		loops[key(p)][2] = True

def inloop(p):
	return key(p) in loops

def value(p, kind):
	k = key(p)
	if k in loops and loops[k][1] is None:
		loops[k][1] = kind

def helper(fn, kind):
	fn = fn.lstrip("_")
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
	fn, kind, walk = loops[key(p)]
	if walk:
		return ("rmap walk: batch by hand: %s() on one PTE per step of " +
			"page_vma_mapped_walk()") % fn
	return "per-PTE %s() loop: use %s" % (fn, helper(fn, kind))

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
		 __pte_clear, __ptep_get_and_clear, __ptep_get_and_clear_anysz,
		 __ptep_set_wrprotect, __ptep_test_and_clear_young,
		 __ptep_clear_flush_young};
expression mm, a, P, E;
position pc;
@@

fn@pc(mm, a, P, ...)
...
\(P++\|++P\|P += E\|P = P + E\)
...
fn@pc(mm, a, P, ...)

@script:python@
pc << ptr.pc;
fn << ptr.fn;
@@

found(pc, fn)

@ptr_raw depends on context || org || report exists@
identifier fn = {__set_pte, __set_pte_nosync};
expression P, E;
position pc;
@@

fn@pc(P, ...)
...
\(P++\|++P\|P += E\|P = P + E\)
...
fn@pc(P, ...)

@script:python@
pc << ptr_raw.pc;
fn << ptr_raw.fn;
@@

found(pc, fn)

// Or with the pointer looked up again after a step of the address.

@adr depends on context || org || report exists@
identifier fn = {set_pte_at, pte_clear, ptep_get_and_clear,
		 ptep_get_and_clear_full, ptep_clear, ptep_set_wrprotect,
		 ptep_test_and_clear_young, ptep_clear_flush_young,
		 __pte_clear, __ptep_get_and_clear, __ptep_get_and_clear_anysz,
		 __ptep_set_wrprotect, __ptep_test_and_clear_young,
		 __ptep_clear_flush_young};
expression mm, a, P, E;
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
		 __pte_clear, __ptep_get_and_clear, __ptep_get_and_clear_anysz,
		 __ptep_set_wrprotect, __ptep_test_and_clear_young,
		 __ptep_clear_flush_young};
expression mm, a, P, I, E;
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
expression P, I, E;
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

// A per-PTE operation reached again through page_vma_mapped_walk().

@walk depends on context || org || report exists@
identifier fn = {set_pte_at, pte_clear, ptep_get_and_clear,
		 ptep_get_and_clear_full, ptep_clear, ptep_clear_flush,
		 ptep_set_wrprotect, ptep_test_and_clear_young,
		 ptep_clear_flush_young};
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
