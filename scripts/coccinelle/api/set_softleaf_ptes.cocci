// SPDX-License-Identifier: GPL-2.0-only
///
/// Use set_softleaf_ptes() instead of a loop that writes non-present
/// entries into consecutive PTEs one at a time with set_pte_at().
///
/// set_softleaf_ptes() writes the same marker into every PTE and advances
/// the offset of an offset-carrying entry (swap, migration, device private
/// or exclusive) by one per PTE, keeping its swp bits, so a loop converts
/// when it writes either a constant marker, or an entry built for page
/// P + i in PTE i of a loop of a constant, non-zero number of PTEs.
///
//# A loop is converted only when the result is provably the same:
//# - its body does nothing but build the value and write it: the value is
//#   built with make_pte_marker() of a loop-invariant marker, or with a
//#   make_*_entry() of page_to_pfn(P + i) followed only by the swp-bit
//#   helpers (make_migration_entry_young/dirty(), swp_entry_to_pte(),
//#   pte_swp_mksoft_dirty/mkuffd/mkexclusive()) under conditions that do
//#   not depend on the loop;
//# - every path through the body builds the value afresh;
//# - neither the iterators nor the values built in the body are used after
//#   the loop.
//# A loop writing the same swap entry into every PTE is not converted:
//# set_softleaf_ptes() would advance its offset.  A VM_WARN_ON() of
//# pte_none() on the PTE just before it is written goes away with the
//# loop: set_softleaf_ptes() makes the same check on every PTE.
//
// Confidence: High
// Copyright: (C) 2026 pgtable_batch
// Options: --no-includes --include-headers --max-width 80
// Keywords: set_softleaf_ptes, set_pte_at, make_pte_marker
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

# Build an entry whose offset is the pfn given as the only argument.
makers = frozenset([
	"make_readable_migration_entry",
	"make_readable_exclusive_migration_entry",
	"make_writable_migration_entry",
	"make_readable_device_private_entry",
	"make_writable_device_private_entry",
	"make_device_exclusive_entry",
])
# Change only bits that set_softleaf_ptes() keeps while advancing.
modifiers = frozenset([
	"make_migration_entry_young",
	"make_migration_entry_dirty",
	"swp_entry_to_pte",
	"pte_swp_mksoft_dirty",
	"pte_swp_mkuffd",
	"pte_swp_mkexclusive",
])
# Numbers of PTEs that are never zero.
counts = frozenset(["HPAGE_PMD_NR", "PTRS_PER_PTE", "CONT_PTES"])

bad = set()
assigned = {}

def key(p):
	return (p[0].file, int(p[0].line), int(p[0].column))

def reject(p):
	bad.add(key(p))

def count_ok(n):
	n = n.strip()
	return n in counts or re.fullmatch(r"[1-9][0-9]*U?L?", n) is not None

def idents(e):
	return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", e))

def watched(x):
	return any(x in names for names in assigned.values())

ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
keywords = frozenset(["if", "else", "for", "while", "do", "switch", "return",
		      "break", "continue", "goto", "sizeof", "case", "default"])

class Reject(Exception):
	pass

def expect(toks, pos, want):
	if pos >= len(toks) or toks[pos] != want:
		raise Reject()
	return pos + 1

def group(toks, pos):
	# toks[pos] is "(": return the index after the matching ")".
	depth = 0
	for j in range(pos, len(toks)):
		if toks[j] == "(":
			depth += 1
		elif toks[j] == ")":
			depth -= 1
			if depth == 0:
				return j + 1
	raise Reject()

def pure_cond(toks, bound):
	# Loop-invariant test: no calls, no assignment, no loop names.
	for j, t in enumerate(toks):
		if ident.match(t):
			if t in keywords or t in bound:
				raise Reject()
			if j + 1 < len(toks) and toks[j + 1] == "(":
				raise Reject()
		elif t in ("=", "++", "--", "+=", "-=", "|=", "&=", "^=",
			   "<<=", ">>=", "*=", "/=", "%="):
			raise Reject()

class Body:
	def __init__(self, toks, i, addr, fixed):
		self.toks = toks
		self.i = i
		self.addr = addr
		self.fixed = fixed
		# Every name assigned anywhere in the body.
		self.values = set(toks[j] for j in range(len(toks) - 1)
				  if ident.match(toks[j]) and toks[j + 1] == "=")
		self.bound = self.values | {i, addr}
		self.write = None

	def assign(self, pos, defined):
		# x = maker ( page_to_pfn ( P + i ) ) ;  or  x = modifier ( y ) ;
		t = self.toks
		x = t[pos]
		if not ident.match(x) or x in keywords or x in self.fixed:
			raise Reject()
		pos = expect(t, pos + 1, "=")
		f = t[pos]
		if f in makers:
			seq = t[pos + 1:pos + 10]
			if (len(seq) != 9 or seq[:3] != ["(", "page_to_pfn", "("] or
			    not ident.match(seq[3]) or seq[3] in self.bound or
			    seq[3] in keywords or seq[4:] != ["+", self.i, ")", ")", ";"]):
				raise Reject()
			return pos + 10, x
		if f in modifiers:
			seq = t[pos + 1:pos + 5]
			if len(seq) != 4 or seq[0] != "(" or seq[2:] != [")", ";"]:
				raise Reject()
			if seq[1] not in defined:
				raise Reject()
			return pos + 5, x
		raise Reject()

	def stmt(self, pos, defined):
		# Returns (pos, names defined on every path through the statement).
		t = self.toks
		if t[pos] == "if":
			end = group(t, pos + 1)
			pure_cond(t[pos + 2:end - 1], self.bound)
			pos, then = self.stmt(end, defined)
			if pos < len(t) and t[pos] == "else":
				pos, other = self.stmt(pos + 1, defined)
				return pos, then & other
			return pos, set(defined)
		if t[pos] == "VM_WARN_ON":
			want = ["VM_WARN_ON", "(", "!", "pte_none", "(", "ptep_get",
				"(", self.ptep, "+", self.i, ")", ")", ")", ";"]
			if t[pos:pos + len(want)] != want:
				raise Reject()
			return pos + len(want), set(defined)
		pos, x = self.assign(pos, defined)
		return pos, defined | {x}

	def check(self):
		t = self.toks
		# The last statement: set_pte_at ( mm , addr , ptep + i , v ) ;
		if len(t) < 14 or t[-1] != ";" or t[-2] != ")":
			raise Reject()
		start = len(t) - 1 - t[::-1].index("set_pte_at")
		w = t[start:]
		if w[1] != "(":
			raise Reject()
		comma = [j for j, x in enumerate(w) if x == ","]
		if len(comma) < 3:
			raise Reject()
		mm = w[2:comma[0]]
		rest = w[comma[0] + 1:]
		if rest[:2] != [self.addr, ","] or rest[3:6] != ["+", self.i, ","]:
			raise Reject()
		self.ptep = rest[2]
		if not ident.match(self.ptep) or self.ptep in self.bound:
			raise Reject()
		value = rest[6:-2]
		for x in mm:
			if x in self.bound or x == self.ptep:
				raise Reject()
		self.fixed = self.fixed | {self.ptep} | set(mm)
		# The statements before it.
		pos, defined = 0, set()
		while pos < start:
			pos, defined = self.stmt(pos, defined)
		if pos != start:
			raise Reject()
		if len(value) == 1 and value[0] in defined:
			return
		if value[:2] == ["make_pte_marker", "("] and value[-1] == ")":
			pure_cond(value[2:-1], self.bound | {self.ptep})
			return
		raise Reject()

def check_body(S, i, addr, fixed):
	toks = S.split()
	if toks[:1] == ["{"] and toks[-1:] == ["}"]:
		toks = toks[1:-1]
	body = Body(toks, i, addr, fixed)
	try:
		body.check()
	except (Reject, IndexError, ValueError):
		return None
	return body.values

def good(p):
	return key(p) in assigned and key(p) not in bad

//----------------------------------------------------------
//  Loops writing a constant marker
//----------------------------------------------------------

@mark@
identifier ptep, addr, nr;
expression mm, M;
position p;
@@

for@p (;;) {
	set_pte_at(mm, addr, ptep, make_pte_marker(M));
	if (\(--nr == 0\|!--nr\))
		break;
(
	\(ptep++\|++ptep\|ptep += 1\);
	\(addr += PAGE_SIZE\|addr = addr + PAGE_SIZE\);
|
	\(addr += PAGE_SIZE\|addr = addr + PAGE_SIZE\);
	\(ptep++\|++ptep\|ptep += 1\);
)
}

@script:python@
p << mark.p;
ptep << mark.ptep;
addr << mark.addr;
nr << mark.nr;
mm << mark.mm;
M << mark.M;
@@

# The marker and the mm must not depend on the loop.
if idents(mm + " " + M) & {ptep, addr, nr}:
	reject(p)
assigned[key(p)] = {ptep, addr, nr}

//----------------------------------------------------------
//  Loops over i = 0 .. N - 1 writing PTE ptep + i
//----------------------------------------------------------

@idx@
identifier i, addr;
expression A, N;
position p;
statement S;
@@

for@p (i = 0, addr = A; i < N; \(i++\|++i\|i += 1\), addr += PAGE_SIZE) S

@script:python@
p << idx.p;
i << idx.i;
addr << idx.addr;
A << idx.A;
N << idx.N;
S << idx.S;
@@

# nr == 0 would write nothing here but is not allowed for the helper.
if not count_ok(N):
	reject(p)
else:
	names = check_body(S, i, addr, idents(A))
	if names is None:
		reject(p)
	else:
		assigned[key(p)] = {i, addr} | names

//----------------------------------------------------------
//  Nothing the loop changes is used after it
//----------------------------------------------------------

@after exists@
position p : script:python() { key(p) in assigned };
identifier x : script:python() { watched(x) };
statement S;
@@

for@p (...;...;...) S
...
x

@script:python@
p << after.p;
x << after.x;
@@

if key(p) in assigned and x in assigned[key(p)]:
	reject(p)

//----------------------------------------------------------
//  For patch mode
//----------------------------------------------------------

@fnof depends on patch@
identifier fn;
position idx.p;
statement S;
@@

fn(...)
{
	<+... for@p (...;...;...) S ...+>
}

@depends on patch && !context && !org && !report@
identifier ptep, addr, nr;
expression mm, M;
position p : script:python() { good(p) };
@@

- for@p (;;) {
-	set_pte_at(mm, addr, ptep, make_pte_marker(M));
-	if (\(--nr == 0\|!--nr\))
-		break;
-	...
- }
+ set_softleaf_ptes(mm, addr, ptep, make_pte_marker(M), nr);

@depends on patch && !context && !org && !report@
identifier i, addr, ptep;
expression A, N, mm, E;
position p : script:python() { good(p) };
@@

- for@p (i = 0, addr = A; i < N; \(i++\|++i\|i += 1\), addr += PAGE_SIZE) {
-	set_pte_at(mm, addr, ptep + i, make_pte_marker(E));
- }
+ set_softleaf_ptes(mm, A, ptep, make_pte_marker(E), N);

@depends on patch && !context && !org && !report@
identifier i, addr, ptep, v, mk;
expression A, N, mm, P;
position p : script:python() { good(p) };
@@

- for@p (i = 0, addr = A; i < N; \(i++\|++i\|i += 1\), addr += PAGE_SIZE) {
	<...
-	mk(page_to_pfn(P + i))
+	mk(page_to_pfn(P))
	...>
-	VM_WARN_ON(!pte_none(ptep_get(ptep + i)));
-	set_pte_at(mm, addr, ptep + i, v);
+	set_softleaf_ptes(mm, A, ptep, v, N);
- }

@depends on patch && !context && !org && !report@
identifier i, addr, ptep, v, mk;
expression A, N, mm, P;
position p : script:python() { good(p) };
@@

- for@p (i = 0, addr = A; i < N; \(i++\|++i\|i += 1\), addr += PAGE_SIZE) {
	<...
-	mk(page_to_pfn(P + i))
+	mk(page_to_pfn(P))
	...>
-	set_pte_at(mm, addr, ptep + i, v);
+	set_softleaf_ptes(mm, A, ptep, v, N);
- }

// The loop was the last user of its iterators.

@depends on patch && !context && !org && !report@
identifier idx.i, fnof.fn;
type T;
@@

fn(...)
{
	...
-	T i;
	... when != i
}

@depends on patch && !context && !org && !report@
identifier idx.addr, fnof.fn;
type T;
@@

fn(...)
{
	...
-	T addr;
	... when != addr
}

//----------------------------------------------------------
//  For context mode
//----------------------------------------------------------

@depends on context && !patch && !org && !report@
position p : script:python() { good(p) };
statement S;
@@

* for@p (...;...;...) S

//----------------------------------------------------------
//  For org and report mode
//----------------------------------------------------------

@r depends on (org || report) && !context && !patch@
position p : script:python() { good(p) };
statement S;
@@

for@p (...;...;...) S

@script:python depends on report@
p << r.p;
@@

coccilib.report.print_report(p[0], "WARNING: use set_softleaf_ptes() instead of this per-PTE loop")

@script:python depends on org@
p << r.p;
@@

coccilib.org.print_todo(p[0], "WARNING: use set_softleaf_ptes() instead of this per-PTE loop")
