// SPDX-License-Identifier: GPL-2.0-only
///
/// Use clear_full_ptes() or clear_ptes() instead of a loop that clears,
/// one at a time and discarding the old values, the PTEs that
/// folio_pte_batch() found to map consecutive pages of one folio.
///
//# Only a loop of the shape of the generic helper is converted, and only
//# when every check below holds (they assume what macros of system
//# headers do, as stated; review each hunk as any patch):
//#	for (;;) { ptep_get_and_clear_full(mm, addr, ptep, full);
//#		   if (--nr == 0) break; ptep++; addr += PAGE_SIZE; }
//# (or with ptep_get_and_clear()), where nr and ptep are the count
//# returned by folio_pte_batch() or folio_pte_batch_flags() (assigned, or
//# the value of nr's declaration) and the PTE
//# pointer passed to it, unchanged in between on every path (no
//# assignment, compound assignment, increment, decrement or address
//# taken; the batch of another pointer does not count again), the count
//# and the pointer each declared once in the function (the checks follow
//# names: a declaration in an inner block would be another variable of
//# the same name).  That is what proves the helper's contract: present PTEs of
//# consecutive pages of one folio, in one page table, nr >= 1.  A loop
//# whose count, pointer or address is used on any path after it, that
//# an outer loop can run again without a new count, or that keeps the old
//# values, is left alone.  So is a loop whose count, pointer or address is
//# not an automatic local of the function (or a parameter) whose address
//# is never taken: no declaration of the name in the function static or
//# extern, every use of it in the function a local (no global of the
//# same name used elsewhere in it), the address an unsigned long, the
//# pointer a pte_t * (a void * steps one byte), the count at least 32
//# bits wide (int, long, u32, size_t...: an 8-bit count of a 256-PTE
//# batch is 0; a count above UINT_MAX, which no page table holds, would
//# be cut to the unsigned int of the helper), none declared with typeof;
//# that a preprocessor conditional follows before the end of its
//# function (spatch parses one branch of it); whose mm or full argument
//# has a side effect, a call, a
//# read through a pointer or index other than one field of a struct or
//# through a pointer to one (tlb->fullmm; never a field of a field, which
//# may be a PTE), reads the count, the pointer or the address, or names
//# anything but parameters and automatic locals that the function never
//# writes, none volatile (by its type, or by a typedef or struct field of
//# the file or its local headers); or whose count, pointer or address a
//# macro names, or is passed to a macro-like call (a name of capitals,
//# digits and underscores other than the WARN_ON/BUG_ON family, __PASTE
//# included, or a function-like macro of the file), or can be pasted by
//# such a call from its arguments (up to three in a row): a macro may
//# read it after the loop or take its address where the script cannot
//# see.  The macros are those of the file and of the local headers it
//# includes ("...", read as the preprocessor reads them: lines spliced,
//# comments as one space, pasted tokens joined, the parameters left
//# out); a function that uses a macro which pastes its arguments (##), or
//# expands to one that does, is not converted, nor is any loop of a file
//# with an include that a macro computes or a local header that cannot
//# be read.  Function-like macros of system headers with lower-case names
//# are taken to use their arguments as functions do, but for those of a
//# list known to write them (swap(), do_div(), get_user(),
//# local_irq_save(), ...; not complete); upper-case macros of system headers to name nothing of their own
//# beyond what they can paste from their arguments; an assertion the file
//# or its local headers define again is a macro like the others.
//
// Confidence: High
// Copyright: (C) 2026 pgtable_batch
// Requires: 1.1.1
// Options: --no-includes --include-headers --max-width 80
// Keywords: clear_full_ptes, clear_ptes, ptep_get_and_clear_full
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os
import re

bad = set()
found = set()
names = {}		# (file, function) -> {name: types} of params and locals
hidden = set()		# (file, function, name): static, extern or address taken
uses = {}		# (file, function, name) -> positions of its uses
local_uses = set()	# positions of uses that name an automatic local
macro_args = {}		# (file, function) -> names passed to macro-like calls
file_macros = {}	# file -> what its macros can name (see macros())
pasted = set()		# (file, function): uses a macro that pastes tokens
written = set()		# (file, function, name): assigned, incremented...
decls = {}		# (file, function, name) -> declarations and parameters
declared_at = set()	# positions of the names of declarations

def key(p):
	return (p[0].file, int(p[0].line), int(p[0].column))

def fkey(p):
	return (p[0].file, p[0].current_element)

def declare(p, x, t):
	# Blocks may declare the same name: every declaration is kept, and
	# counted.
	names.setdefault(fkey(p), {}).setdefault(x, set()).add(" ".join(t.split()))
	decls[fkey(p) + (x,)] = decls.get(fkey(p) + (x,), 0) + 1

def idents(e):
	return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", e))

def directives(path):
	# The #define and #include directives of the file at path as the
	# preprocessor reads them (lines spliced, every comment one space: a
	# directive goes on after a comment that spans lines), and the text
	# so cleaned; None if the file cannot be read.
	try:
		text = open(path, errors="replace").read()
	except OSError:
		return None
	text = text.replace("\\\n", "")
	# String and character literals stay.  (spatch reads quotes and
	# two slashes in a script as C would: chr() builds them.)
	q, a, b, sl = chr(34), chr(39), chr(92) * 2, chr(47)
	lit = "%s(?:%s.|[^%s%s\\n])*%s"
	text = re.sub("|".join([lit % (q, b, q, b, q), lit % (a, b, a, b, a),
				r"/\*.*?\*/", sl + sl + r"[^\n]*"]),
		      lambda m: m.group(0) if m.group(0)[0] in (q, a) else " ",
		      text, flags=re.S)
	return (re.findall(r"^[ \t]*#[ \t]*(define|include)\b[ \t]*(.*)$",
			   text, re.M), text)

def macros(f):
	# What the macros of file f and of the local headers it includes
	# ("...", next to the file that includes them) can name, as a dict:
	# fns, the function-like macros; body, the identifiers of every body
	# (pasted tokens joined, parameters left out); pasting, the macros
	# that paste their arguments (##) or expand to one that does (a use
	# may name anything); opaque, a local header that could not be read
	# or an include computed by a macro (then any macro may name
	# anything); what those files declare volatile: vtypes, the
	# typedefs, vfields, the fields of each struct; and defined, every
	# macro they define.  An object-like macro that expands to a
	# function-like one counts as one.
	if f not in file_macros:
		m = dict(fns=set(), body=set(), pasting=set(), opaque=False,
			 vtypes=set(), vfields={}, defined=set(), typedefs=set())
		defs = {}
		todo, seen = [f], set()
		while todo:
			path = todo.pop()
			if path in seen:
				continue
			seen.add(path)
			found = directives(path)
			if found is None:
				m["opaque"] = True
				continue
			found, text = found
			for kind, rest in found:
				rest = rest.strip()
				if kind == "include":
					if rest.startswith(chr(34)):
						todo.append(os.path.join(os.path.dirname(path),
									 rest[1:].split(chr(34))[0]))
					elif not rest.startswith("<"):
						m["opaque"] = True
					continue
				d = re.match(r"(\w+)(\(([^)]*)\))?(.*)", rest)
				if not d:
					continue
				m["defined"].add(d.group(1))
				params = set()
				if d.group(2) is not None:
					m["fns"].add(d.group(1))
					params = set(x.strip() for x in d.group(3).split(","))
					if "##" in d.group(4):
						m["pasting"].add(d.group(1))
				b = re.sub(r"\s*##\s*", "", d.group(4))
				defs[d.group(1)] = set(re.findall(r"[A-Za-z_]\w*", b)) - params
				m["body"] |= defs[d.group(1)]
			for t in re.finditer(r"\btypedef\b([^;{}]*)\b(\w+)\s*;", text):
				m["typedefs"].add(t.group(2))
				if re.search(r"\bvolatile\b", t.group(1)):
					m["vtypes"].add(t.group(2))
			for st in re.finditer(r"\bstruct\s+(\w+)\s*\{([^{}]*)\}", text):
				for member in st.group(2).split(";"):
					if re.search(r"\bvolatile\b", member):
						names = re.findall(r"(\w+)\s*(?:\[[^]]*\])?\s*(?::\s*\w+)?\s*(?:,|$)",
								   member.strip())
						m["vfields"].setdefault(st.group(1), set()).update(names)
		# A macro that expands to a pasting one pastes too, and one
		# that expands to a function-like one is called like it.
		grown = True
		while grown:
			grown = False
			for name, names in defs.items():
				for kind in ("pasting", "fns"):
					if name not in m[kind] and names & m[kind]:
						m[kind].add(name)
						grown = True
		file_macros[f] = m
	return file_macros[f]

# Assertions: they only read their arguments, or do not evaluate them.
plain_macros = frozenset(["BUG_ON", "WARN_ON", "WARN_ON_ONCE", "VM_BUG_ON",
			  "VM_BUG_ON_FOLIO", "VM_BUG_ON_MM", "VM_BUG_ON_PAGE",
			  "VM_BUG_ON_VMA", "VM_WARN_ON", "VM_WARN_ON_FOLIO",
			  "VM_WARN_ON_ONCE", "VM_WARN_ON_ONCE_FOLIO",
			  "VM_WARN_ON_ONCE_PAGE", "VM_WARN_ON_ONCE_VMA",
			  "VM_WARN_ON_VMA"])

# Lower-case kernel macros that write their arguments (or take their
# address): not used as functions use them.
writing_macros = frozenset(["swap", "do_div", "get_user", "put_user",
			    "__get_user", "__put_user", "local_irq_save",
			    "local_save_flags", "raw_local_irq_save",
			    "spin_lock_irqsave", "raw_spin_lock_irqsave",
			    "read_lock_irqsave", "write_lock_irqsave",
			    "xchg", "cmpxchg", "try_cmpxchg"])

def macro_like(p, f):
	m = macros(p[0].file)
	if f in plain_macros and f not in m["defined"]:
		return False
	if f in m["pasting"]:
		pasted.add(fkey(p))
	return (re.fullmatch(r"_*[A-Z][A-Z0-9_]*", f) or f in m["fns"] or
		f in writing_macros)

def macro_names(es):
	# The identifiers of the arguments of a macro-like call, in order.
	return re.findall(r"[A-Za-z_][A-Za-z0-9_]*", es)

def formable(x, ids):
	# Whether x is the concatenation of identifiers of ids taken in
	# order (a pasting macro, __PASTE(__PASTE(a, b), c), may form it).
	ok = [[False] * (len(ids) + 1) for _ in range(len(x) + 1)]
	for j in range(len(ids) + 1):
		ok[len(x)][j] = True
	for i in range(len(x) - 1, -1, -1):
		for j in range(len(ids) - 1, -1, -1):
			t = ids[j]
			ok[i][j] = ok[i][j + 1] or (x.startswith(t, i) and
						     ok[i + len(t)][j + 1])
	return ok[0][0]

def local(p, x, unseen=True):
	# A parameter or an automatic local of the function of the loop,
	# whose address is never taken, and that every use of the name in
	# the function names (not a global in another block): nothing
	# outside the function sees it.  A volatile object (by its type, or
	# a typedef of the file or its local headers) may change between two
	# reads: none is local, nor is one declared with typeof (its type is
	# unknown).  With unseen (the iterators and the values the loop
	# builds, which must not be read after it): no macro of the file or
	# of its local headers can name it, none that pastes tokens is used
	# in the function, and no macro-like call is given it or names from
	# which it can be pasted.
	k = fkey(p) + (x,)
	m = macros(p[0].file)
	if (x not in names.get(fkey(p), {}) or k in hidden or
	    any(w == "volatile" or w in m["vtypes"] or "typeof" in w
		for t in names[fkey(p)][x] for w in re.split(r"[\s()]+", t)) or
	    not uses.get(k, set()) <= local_uses):
		return False
	if not unseen:
		return True
	return (x not in m["body"] and not m["opaque"] and
		fkey(p) not in pasted and
		not any(formable(x, ids) for ids in macro_args.get(fkey(p), [])))

def unseen_after(p):
	# Whether a preprocessor conditional or a statement expression stands
	# between the loop at p and the end of its function (the next line
	# that starts with a closing brace): spatch parses one branch of a
	# conditional only, and the checks after the loop do not look into
	# ({ ... }), so a use of an iterator there is not seen.
	try:
		lines = open(p[0].file, errors="replace").read().split("\n")
	except OSError:
		return True
	for line in lines[int(p[0].line):]:
		if line.startswith("}"):
			return False
		if (re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b", line) or
		    "({" in line):
			return True
	return False

def fixed(p, x):
	# A local that the function never writes (the mm, full).
	return local(p, x, False) and fkey(p) + (x,) not in written

def field_ok(p, x, op, field):
	# x op field reads a field of a struct (op "->" through a pointer to
	# it, "." of it) that no file of the function declares volatile: not
	# a PTE, not a value another CPU may change under the loop.
	t = names.get(fkey(p), {}).get(x, set())
	want = r"(const )?struct (\w+) \*" if op == "->" else r"(const )?struct (\w+)"
	ok = [re.fullmatch(want, u) for u in t]
	return (bool(t) and all(ok) and
		not any(field in macros(p[0].file)["vfields"].get(o.group(2), ())
			for o in ok))

def typed(p, x, types):
	# Every declaration of the name has one of these types, none of
	# whose words the file or its local headers typedef or define anew
	# (a u32 that is an unsigned char).
	t = names.get(fkey(p), {}).get(x, set())
	m = macros(p[0].file)
	return (bool(t) and t <= types and
		not any(w in m["typedefs"] or w in m["defined"]
			for u in t for w in u.split()))

ulong = frozenset(["unsigned long", "unsigned long int"])

# A PTE pointer steps one PTE per ++: not a void * or char *.
pte_pointer = frozenset(["pte_t *"])

# Counts of a width the unsigned int nr of the helper takes whole (an 8-bit
# count of 0 runs the loop 256 times, the helper 2^32).
int_types = frozenset(["int", "signed int", "signed", "unsigned int",
		       "unsigned", "long", "long int", "signed long",
		       "unsigned long", "unsigned long int", "long long",
		       "unsigned long long", "size_t", "ssize_t", "u32", "s32",
		       "u64", "s64"])

tokre = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_]*|->|\+\+|--|"
		   r"&&|\|\||<<=|>>=|<<|>>|[-+*/%&|^=!<>]=|\S")
pure_ops = frozenset(["(", ")", "!", "~", "&&", "||", "==", "!=", "<", ">",
		      "<=", ">=", "|", "^", "+", "-", "<<", ">>", "/", "%",
		      "->", "."])

def invariant(p, e, it):
	# No side effect, no call, no read through a pointer or an index but
	# one field of a struct (field_ok()), none of the iterators, and
	# every name a local that the function never writes: the same value
	# on every iteration.
	toks = tokre.findall(e)
	for j, t in enumerate(toks):
		nxt = toks[j + 1] if j + 1 < len(toks) else None
		if re.match(r"[A-Za-z_]", t):
			if j > 0 and toks[j - 1] in ("->", "."):
				# A field of a field may be a PTE.
				if nxt in ("->", ".", "["):
					return False
				continue
			if t in it or nxt == "(":
				return False
			if not fixed(p, t):
				return False
			if nxt in ("->", ".") and not field_ok(p, t, nxt, toks[j + 2]):
				return False
		elif not re.match(r"[0-9]", t) and t not in pure_ops:
			return False
	return True

def good(p):
	return key(p) in found and key(p) not in bad

def batch_of(e, ptep):
	# e counts the batch of PTE pointer ptep: folio_pte_batch(F, ptep,
	# ...) or folio_pte_batch_flags(F, V, ptep, ...).
	e = re.sub(r"\s*([(),])\s*", r" \1 ", " ".join(e.split()))
	return bool(re.match(r"folio_pte_batch \( [^,()]+ , %s ,"
			     % re.escape(ptep), e) or
		    re.match(r"folio_pte_batch_flags \( [^,()]+ , [^,()]+ , %s ,"
			     % re.escape(ptep), e))

// Only a file with a folio_pte_batch() call can hold a loop to convert:
// the rules that collect names and uses read no other file.

@gate@
@@

\(folio_pte_batch\|folio_pte_batch_flags\)(...)

//----------------------------------------------------------
//  Parameters and locals of each function, and their uses
//----------------------------------------------------------

@param depends on gate@
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

@decl depends on gate@
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
declared_at.add(key(p))

@hid depends on gate@
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

@use depends on gate@
idexpression x;
position p;
@@

x@p

@script:python@
p << use.p;
x << use.x;
@@

uses.setdefault(fkey(p) + (x,), set()).add(key(p))
# An object-like macro that expands to a pasting one.
if x in macros(p[0].file)["pasting"]:
	pasted.add(fkey(p))

@local_use depends on gate@
local idexpression x;
position p;
@@

x@p

@script:python@
p << local_use.p;
@@

local_uses.add(key(p))

// Names passed to macro-like calls.

@mcall depends on gate@
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
	macro_args.setdefault(fkey(p), []).append(macro_names(str(es)))

// Names the function writes.

@wr depends on gate@
identifier x;
expression E;
position p;
@@

\(x@p = E\|x@p += E\|x@p -= E\|x@p *= E\|x@p /= E\|x@p %= E\|x@p &= E\|
  x@p |= E\|x@p ^= E\|x@p <<= E\|x@p >>= E\|x@p++\|x@p--\|++x@p\|--x@p\)

@script:python@
p << wr.p;
x << wr.x;
@@

# A declaration's initializer matches x = E too: it is not a write.
if key(p) not in declared_at:
	written.add(fkey(p) + (x,))

//----------------------------------------------------------
//  The loops
//----------------------------------------------------------

@r exists@
identifier nr, ptep, addr;
expression mm, full, E, E1, E2;
type T;
position p, ps, pn;
@@

(
nr = folio_pte_batch(E1, ptep, ...);
|
nr = folio_pte_batch_flags(E1, E2, ptep, ...);
|
T nr = folio_pte_batch(E1, ptep, ...);
|
T nr = folio_pte_batch_flags(E1, E2, ptep, ...);
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

# The count and the pointer declared once: the batch is tied to the
# loop by their names, and a declaration in an inner block (a shadowing
# count or pointer) would be another variable of the same name.  (A
# second address only makes the checks after the loop stricter.)
it = {nr, ptep, addr}
if (all(local(p, x) for x in it) and
    all(decls.get(fkey(p) + (x,)) == 1 for x in (nr, ptep)) and
    typed(p, addr, ulong) and
    typed(p, ptep, pte_pointer) and typed(p, nr, int_types) and
    invariant(p, mm, it) and not unseen_after(p)):
	found.add(key(p))

@script:python@
p << r.p;
nr << r.nr;
ptep << r.ptep;
addr << r.addr;
full << r.full;
@@

if not invariant(p, full, {nr, ptep, addr}):
	bad.add(key(p))

// The batch must cover the loop on every path, not just on one: no path
// from the function entry, or from another change of the count or the
// pointer, may reach the loop without counting the batch again.

@bad_entry exists@
identifier fn;
identifier r.nr, r.ptep;
position r.p;
expression E3, E4;
statement S;
@@

fn(...)
{
	... when != nr = folio_pte_batch(E3, ptep, ...)
	    when != nr = folio_pte_batch_flags(E3, E4, ptep, ...)
	for@p (;;) S
	...
}

@script:python@
p << r.p;
fn << bad_entry.fn;
@@

bad.add(key(p))

@bad_count exists@
identifier r.nr, r.ptep;
position r.p, pm;
expression E, E3, E4;
statement S;
@@

nr@pm = E
... when != nr = folio_pte_batch(E3, ptep, ...)
    when != nr = folio_pte_batch_flags(E3, E4, ptep, ...)
for@p (;;) S

@script:python@
p << r.p;
ptep << r.ptep;
pm << bad_count.pm;
E << bad_count.E;
@@

# A count of another pointer's batch, or of no batch.
if not batch_of(E, ptep):
	bad.add(key(p))

@bad_change exists@
identifier r.nr, r.ptep;
position r.p, pm;
expression E, E2, E3, E4;
statement S;
@@

(
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
... when != nr = folio_pte_batch(E3, ptep, ...)
    when != nr = folio_pte_batch_flags(E3, E4, ptep, ...)
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
identifier r.nr, r.ptep;
position r.p, q;
expression E3, E4;
statement S;
@@

for@p (;;) S
... when != nr = folio_pte_batch(E3, ptep, ...)
    when != nr = folio_pte_batch_flags(E3, E4, ptep, ...)
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
