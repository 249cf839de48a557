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
//# values, is left alone.  So is a loop whose count, pointer or address is
//# not an automatic local of the function (or a parameter) whose address
//# is never taken: no declaration of the name in the function static or
//# extern, every use of it in the function a local (no global of the
//# same name used elsewhere in it), the address an unsigned long; whose
//# mm or full argument has a side effect, a call, a read through a
//# pointer or index, or reads the count, the pointer or the address; or
//# whose count, pointer or address a macro of the file names, or is
//# passed to a macro-like call (an upper-case name other than the
//# WARN_ON/BUG_ON family, or a function-like macro of the file): a macro
//# may read it after the loop or take its address where the script cannot
//# see.  Function-like macros of headers with lower-case names are taken
//# to use their arguments as functions do.
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
import re

bad = set()
found = set()
names = {}		# (file, function) -> {name: types} of params and locals
hidden = set()		# (file, function, name): static, extern or address taken
uses = {}		# (file, function, name) -> positions of its uses
local_uses = set()	# positions of uses that name an automatic local
macro_args = {}		# (file, function) -> names passed to macro-like calls
file_macros = {}	# file -> (function-like macro names, names in bodies)

def key(p):
	return (p[0].file, int(p[0].line), int(p[0].column))

def fkey(p):
	return (p[0].file, p[0].current_element)

def declare(p, x, t):
	# Blocks may declare the same name: every declaration is kept.
	names.setdefault(fkey(p), {}).setdefault(x, set()).add(" ".join(t.split()))

def idents(e):
	return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", e))

def macros(f):
	# The function-like macros #defined in file f, and every identifier
	# in the bodies of its macros.
	if f not in file_macros:
		fns, body = set(), set()
		try:
			text = open(f, errors="replace").read()
		except OSError:
			text = ""
		text = re.sub(r"\\\n", " ", text)
		for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\()?(.*)$",
				     text, re.M):
			if m.group(2):
				fns.add(m.group(1))
			body |= idents(m.group(3))
		file_macros[f] = (fns, body)
	return file_macros[f]

# Assertions: they only read their arguments, or do not evaluate them.
plain_macros = frozenset(["BUG_ON", "WARN_ON", "WARN_ON_ONCE", "VM_BUG_ON",
			  "VM_BUG_ON_FOLIO", "VM_BUG_ON_MM", "VM_BUG_ON_PAGE",
			  "VM_BUG_ON_VMA", "VM_WARN_ON", "VM_WARN_ON_FOLIO",
			  "VM_WARN_ON_ONCE", "VM_WARN_ON_ONCE_FOLIO",
			  "VM_WARN_ON_ONCE_PAGE", "VM_WARN_ON_ONCE_VMA",
			  "VM_WARN_ON_VMA"])

def macro_like(p, f):
	if f in plain_macros:
		return False
	return re.fullmatch(r"[A-Z][A-Z0-9_]*", f) or f in macros(p[0].file)[0]

def local(p, x):
	# A parameter or an automatic local of the function of the loop,
	# whose address is never taken, and that every use of the name in the
	# function names (not a global in another block): nothing outside the
	# function sees it, and it is not a macro.
	k = fkey(p) + (x,)
	return (x in names.get(fkey(p), {}) and k not in hidden and
		uses.get(k, set()) <= local_uses and
		x not in macros(p[0].file)[1] and
		x not in macro_args.get(fkey(p), set()))

def typed(p, x, types):
	# Every declaration of the name has one of these types.
	t = names.get(fkey(p), {}).get(x, set())
	return bool(t) and t <= types

ulong = frozenset(["unsigned long", "unsigned long int"])

tokre = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_]*|->|\+\+|--|"
		   r"&&|\|\||<<=|>>=|<<|>>|[-+*/%&|^=!<>]=|\S")
pure_ops = frozenset(["(", ")", "!", "~", "&&", "||", "==", "!=", "<", ">",
		      "<=", ">=", "|", "^", "+", "-", "<<", ">>", "/", "%",
		      "->", "."])

def invariant(e, it):
	# No side effect, no call, no read through a pointer or an index,
	# and none of the iterators: the same value on every iteration.
	toks = tokre.findall(e)
	for j, t in enumerate(toks):
		if re.match(r"[A-Za-z_]", t):
			if t in it or (j + 1 < len(toks) and toks[j + 1] == "("):
				return False
		elif not re.match(r"[0-9]", t) and t not in pure_ops:
			return False
	return True

def good(p):
	return key(p) in found and key(p) not in bad

def not_batch(e):
	return not e.strip().startswith("folio_pte_batch")

//----------------------------------------------------------
//  Parameters and locals of each function, and their uses
//----------------------------------------------------------

@param@
identifier fn, x;
type T;
position p;
@@

fn@p(..., T x, ...) { ... }

@script:python@
p << param.p;
x << param.x;
T << param.T;
@@

declare(p, x, T)

@decl@
identifier x;
type T;
position p;
@@

\(T x@p; \| T x@p = ...;\)

@script:python@
p << decl.p;
x << decl.x;
T << decl.T;
@@

declare(p, x, T)

@hid@
identifier x;
type T;
position p;
@@

\(static T x@p; \| static T x@p = ...; \| extern T x@p; \| &x@p\)

@script:python@
p << hid.p;
x << hid.x;
@@

hidden.add(fkey(p) + (x,))

// Every use of a name, and those that name an automatic local (the
// scope of each use, as the compiler resolves it).

@use@
idexpression x;
position p;
@@

x@p

@script:python@
p << use.p;
x << use.x;
@@

uses.setdefault(fkey(p) + (x,), set()).add(key(p))

@local_use@
local idexpression x;
position p;
@@

x@p

@script:python@
p << local_use.p;
@@

local_uses.add(key(p))

// Names passed to macro-like calls.

@mcall@
identifier f;
expression list es;
position p;
@@

f@p(es)

@script:python@
p << mcall.p;
f << mcall.f;
es << mcall.es;
@@

if macro_like(p, f):
	macro_args.setdefault(fkey(p), set()).update(idents(str(es)))

//----------------------------------------------------------
//  The loops
//----------------------------------------------------------

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
nr << r.nr;
ptep << r.ptep;
addr << r.addr;
mm << r.mm;
@@

it = {nr, ptep, addr}
if (all(local(p, x) for x in it) and typed(p, addr, ulong) and
    invariant(mm, it)):
	found.add(key(p))

@script:python@
p << r.p;
nr << r.nr;
ptep << r.ptep;
addr << r.addr;
full << r.full;
@@

if not invariant(full, {nr, ptep, addr}):
	bad.add(key(p))

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
