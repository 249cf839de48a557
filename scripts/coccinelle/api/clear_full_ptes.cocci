// SPDX-License-Identifier: GPL-2.0-only
///
/// Use clear_full_ptes() or clear_ptes() instead of a loop that clears,
/// one at a time and discarding the old values, the PTEs that
/// folio_pte_batch() found to map consecutive pages of one folio.
///
//# Only a loop of the shape of the generic helper is converted:
//#	for (;;) { ptep_get_and_clear_full(mm, addr, ptep, full);
//#		   if (--nr == 0) break; ptep++; addr += PAGE_SIZE; }
//# (or with ptep_get_and_clear()), where nr and ptep are the count
//# returned by folio_pte_batch() or folio_pte_batch_flags() and the PTE
//# pointer passed to it, unchanged in between on every path (no
//# assignment, compound assignment, increment, decrement or address
//# taken).  That is what proves the helper's contract: present PTEs of
//# consecutive pages of one folio, in one page table, nr >= 1.  A loop
//# whose count, pointer or address is used on any path after it, that
//# an outer loop can run again without a new count, or that keeps the old
//# values, is left alone.
//
// Confidence: High
// Copyright: (C) 2026 pgtable_batch
// Options: --no-includes --include-headers --max-width 80
// Keywords: clear_full_ptes, clear_ptes, ptep_get_and_clear_full
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
bad = set()
found = set()

def key(p):
	return (p[0].file, int(p[0].line), int(p[0].column))

def good(p):
	return key(p) in found and key(p) not in bad

def not_batch(e):
	return not e.strip().startswith("folio_pte_batch")

@r exists@
identifier nr, ptep, addr;
expression mm, full, E, E1, E2;
position p, ps, pn;
@@

(
nr = folio_pte_batch(E1, ptep, ...);
|
nr = folio_pte_batch_flags(E1, E2, ptep, ...);
)
... when != nr = E
    when != ptep = E
    when != ptep += E
    when != ptep++
    when != ++ptep
for@p (;;) {
(
	ptep_get_and_clear_full(mm, addr, ptep, full);
|
	ptep_get_and_clear(mm, addr, ptep);
)
	if (\(--nr@pn == 0\|!--nr@pn\))
		break;
	\(ptep@ps++\|++ptep@ps\|ptep@ps += 1\);
	\(addr += PAGE_SIZE\|addr = addr + PAGE_SIZE\);
}

@script:python@
p << r.p;
@@

found.add(key(p))

// The batch must cover the loop on every path, not just on one: no path
// from the function entry, or from another change of the count or the
// pointer, may reach the loop without counting the batch again.

@bad_entry exists@
identifier fn;
position r.p;
statement S;
@@

fn(...)
{
	... when != \(folio_pte_batch\|folio_pte_batch_flags\)(...)
	for@p (;;) S
	...
}

@script:python@
p << r.p;
fn << bad_entry.fn;
@@

bad.add(key(p))

@bad_change exists@
identifier r.nr, r.ptep;
position r.p, pm;
expression E : script:python() { not_batch(E) };
expression E2;
statement S;
@@

(
nr@pm = E
|
ptep@pm = E
|
\(nr@pm += E2\|nr@pm -= E2\|nr@pm *= E2\|nr@pm /= E2\|nr@pm <<= E2\|
  nr@pm >>= E2\|nr@pm &= E2\|nr@pm |= E2\|nr@pm ^= E2\|nr@pm %= E2\)
|
\(nr@pm++\|nr@pm--\|++nr@pm\|--nr@pm\|&nr@pm\)
|
\(ptep@pm += E2\|ptep@pm -= E2\|ptep@pm++\|ptep@pm--\|++ptep@pm\|
  --ptep@pm\|&ptep@pm\)
)
... when != \(folio_pte_batch\|folio_pte_batch_flags\)(...)
for@p (;;) S

@script:python@
p << r.p;
ps << r.ps;
pn << r.pn;
pm << bad_change.pm;
@@

# The loop's own steps do not count.
if key(pm) != key(ps) and key(pm) != key(pn):
	bad.add(key(p))

// Nor may the loop run again, from an outer loop, without a new count.

@bad_again exists@
position r.p, q;
statement S;
@@

for@p (;;) S
... when != \(folio_pte_batch\|folio_pte_batch_flags\)(...)
for@p@q (;;) S

@script:python@
p << r.p;
q << bad_again.q;
@@

bad.add(key(p))

// The helper leaves the count, the pointer and the address as they were:
// no path after the loop may use them.

@bad_use exists@
identifier r.nr, r.ptep, r.addr;
position r.p, pu;
statement S;
@@

for@p (;;) S
...
\(nr@pu\|ptep@pu\|addr@pu\)

@script:python@
p << r.p;
pu << bad_use.pu;
@@

bad.add(key(p))

@depends on patch && !context && !org && !report@
identifier nr, ptep, addr;
expression mm, full;
position p : script:python() { good(p) };
@@

- for@p (;;) {
-	ptep_get_and_clear_full(mm, addr, ptep, full);
-	if (\(--nr == 0\|!--nr\))
-		break;
-	...
- }
+ clear_full_ptes(mm, addr, ptep, nr, full);

@depends on patch && !context && !org && !report@
identifier nr, ptep, addr;
expression mm;
position p : script:python() { good(p) };
@@

- for@p (;;) {
-	ptep_get_and_clear(mm, addr, ptep);
-	if (\(--nr == 0\|!--nr\))
-		break;
-	...
- }
+ clear_ptes(mm, addr, ptep, nr);

@depends on context && !patch && !org && !report@
position p : script:python() { good(p) };
statement S;
@@

* for@p (;;) S

@o depends on (org || report) && !context && !patch@
position p : script:python() { good(p) };
statement S;
@@

for@p (;;) S

@script:python depends on report@
p << o.p;
@@

coccilib.report.print_report(p[0], "WARNING: use clear_full_ptes() instead of this per-PTE loop")

@script:python depends on org@
p << o.p;
@@

coccilib.org.print_todo(p[0], "WARNING: use clear_full_ptes() instead of this per-PTE loop")
