// SPDX-License-Identifier: GPL-2.0-only
///
/// Use set_softleaf_ptes() instead of a loop that writes non-present
/// entries into consecutive PTEs one at a time with set_pte_at().
///
/// set_softleaf_ptes() writes the same marker into every PTE and advances
/// the offset of an offset-carrying entry (swap, migration, device private
/// or exclusive) by one per PTE, keeping its swp bits, so a loop converts
/// when it writes either a constant marker, or an entry built for page
/// P + i (or page i of folio F) in PTE i of a loop of a constant,
/// non-zero number of PTEs.
///
//# A loop is converted only when every check below holds; they prove the
//# result the same under the assumptions they state (what macros of
//# system headers do), so review each hunk as any patch:
//# - the target PTEs are none, as set_softleaf_ptes() requires (the arm64
//#   override does not unfold a contpte block the way set_pte_at() does):
//#   the body checks VM_WARN_ON(!pte_none(ptep_get(...))) on the PTE
//#   (PTE i of a counted loop: ptep + i or &ptep[i], the same form as
//#   the write)
//#   right before writing it, or clear_full_ptes(), clear_ptes(),
//#   clear_nonpresent_ptes(), get_and_clear_full_ptes() or
//#   get_and_clear_ptes() (its value stored in a name, never back into
//#   the range) cleared the same range right before the loop.
//#   Other loops that would fit are reported, not converted;
//# - the loop is for (;;), stepping the pointer, the address and the
//#   count; for (i = 0, addr = A; i < N; i++, addr += PAGE_SIZE); or
//#   for (int i = 0; i < N; i++, addr += PAGE_SIZE), the helper then
//#   starting at the address the loop starts at (such a loop reached
//#   again would go on from where its address stopped: the use of the
//#   address in its own header refuses it); N a constant, i and addr
//#   two names;
//# - its body does nothing but build the value and write it: the value is
//#   built with make_pte_marker() of a loop-invariant marker, or with one
//#   of make_readable_migration_entry(), _readable_exclusive_migration_,
//#   _writable_migration_, _readable_device_private_,
//#   _writable_device_private_ and make_device_exclusive_entry() of
//#   page_to_pfn(P + i) or page_to_pfn(folio_page(F, i)) followed only
//#   by the swp-bit helpers (make_migration_entry_young/dirty(),
//#   swp_entry_to_pte(),
//#   pte_swp_mksoft_dirty/mkuffd/mkexclusive()) under conditions that do
//#   not depend on the loop;
//# - what is hoisted out of the loop (the mm, the marker, P or F, the
//#   conditions) reads only parameters and automatic locals of the
//#   function that the loop does not change, none volatile, or
//#   PTE_MARKER_UFFD_WP, _POISONED and _GUARD: no call, no side effect,
//#   no macro, and no
//#   read through a pointer in a condition, so nothing can depend on the
//#   table being written; the mm's names are never written in the
//#   function, and it reads at most one field, of a struct or through a
//#   pointer to one (vma->vm_mm; never a field of a field, which may be a
//#   PTE);
//# - every path through the body builds the value afresh;
//# - the iterators and the values built in the body are parameters or
//#   automatic locals whose address is never taken, and none of them is
//#   used after the loop.  A name counts as such a local only when no
//#   declaration of it in the function is static or extern, and every use
//#   of it in the function names a local (no global of the same name used
//#   elsewhere in it, no second definition of the function under another
//#   #ifdef branch); the address is an unsigned long, the PTE pointer a
//#   pte_t * (a void * steps one byte), the index of a counted loop and
//#   the count of a for (;;) loop at least 32 bits wide (int, long, u32,
//#   size_t...: an 8-bit count of 0 runs the loop 256 times; a count
//#   above UINT_MAX, which no page table holds, would be cut to the
//#   unsigned int of the helper), none declared with typeof, in every
//#   declaration;
//# - no preprocessor conditional stands between the loop and the end of
//#   its function: spatch parses one branch of it, and a use of an
//#   iterator in another would go unseen;
//# - a for (;;) loop that control flow reaches again (inside a loop of
//#   any kind, or through a goto) runs again from where it stopped: on
//#   every path back to it, its pointer, address and count must each be
//#   declared again, with a value, and they are declared once in the
//#   function;
//# - no macro names an iterator or a built value, and none is passed to a
//#   macro-like call (a name of capitals, digits and underscores other
//#   than the WARN_ON/BUG_ON family, __PASTE included, or a function-like
//#   macro of the file), nor can such a call paste it from its arguments
//#   (up to three in a row), anywhere in the function: a macro may take
//#   its address or read it where the script cannot see.  The macros are
//#   those of the file and of the local headers it includes ("...", read
//#   as the preprocessor reads them: lines spliced, comments as one space,
//#   pasted tokens joined, the parameters left out); a function that uses
//#   a macro which pastes its arguments (##), or expands to one that
//#   does, is not converted, nor is any loop of a file with an include
//#   that a macro computes or a local header that cannot be read.
//#   Function-like macros of system headers with lower-case names are
//#   taken to use their arguments as functions do, but for those of a
//#   list known to write them (swap(), do_div(), get_user(),
//#   local_irq_save(), ...; not complete);
//#   upper-case macros of system headers to name nothing of their own
//#   beyond what they can paste from their arguments; an assertion the
//#   file or its local headers define again is a macro like the others;
//# - volatile, for these rules, is also what a typedef or a struct field
//#   of the file or its local headers declares volatile.
//# A loop writing the same swap entry into every PTE is not converted:
//# set_softleaf_ptes() would advance its offset.  The VM_WARN_ON() of
//# pte_none() goes away with the loop: set_softleaf_ptes() makes the same
//# check on every PTE.
//
// Confidence: High
// Copyright: (C) 2026 pgtable_batch
// Requires: 1.1.1
// Options: --no-includes --include-headers --max-width 80
// Keywords: set_softleaf_ptes, set_pte_at, make_pte_marker
//

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os
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
# Markers: enum constants.
marker_names = frozenset(["PTE_MARKER_UFFD_WP", "PTE_MARKER_POISONED",
			  "PTE_MARKER_GUARD"])

bad = set()		# loops that must stay
assigned = {}		# loop -> names it changes
proven = set()		# loops whose target PTEs are proven none
cleared = set()		# (loop, pointer) cleared right before the loop
names = {}		# (file, function) -> {name: types} of params and locals
hidden = set()		# (file, function, name): static, extern or address taken
uses = {}		# (file, function, name) -> positions of its uses
local_uses = set()	# positions of uses that name an automatic local
macro_args = {}		# (file, function) -> names passed to macro-like calls
file_macros = {}	# file -> what its macros can name (see macros())
pasted = set()		# (file, function): uses a macro that pastes tokens
written = set()		# (file, function, name): assigned, incremented...
declared_at = set()	# positions of the names of declarations
decls = {}		# (file, function, name) -> declarations and parameters
rerun = set()		# loops that control flow reaches again

def key(p):
	return (p[0].file, int(p[0].line), int(p[0].column))

def fkey(p):
	return (p[0].file, p[0].current_element)

def reject(p):
	bad.add(key(p))

def declare(p, x, t):
	# Blocks may declare the same name: every declaration is kept.
	names.setdefault(fkey(p), {}).setdefault(x, set()).add(" ".join(t.split()))
	decls[fkey(p) + (x,)] = decls.get(fkey(p) + (x,), 0) + 1

def hide(p, x):
	hidden.add(fkey(p) + (x,))

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
	# A local that the function never writes (the mm).
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

int_types = frozenset(["int", "signed int", "signed", "unsigned int",
		       "unsigned", "long", "long int", "signed long",
		       "unsigned long", "unsigned long int", "long long",
		       "unsigned long long", "size_t", "ssize_t", "u32", "s32",
		       "u64", "s64"])

ulong = frozenset(["unsigned long", "unsigned long int"])

# A PTE pointer steps one PTE per ++: not a void * or char *.
pte_pointer = frozenset(["pte_t *"])

def typed(p, x, types):
	# Every declaration of the name has one of these types, none of
	# whose words the file or its local headers typedef or define anew
	# (a u32 that is an unsigned char).
	t = names.get(fkey(p), {}).get(x, set())
	m = macros(p[0].file)
	return (bool(t) and t <= types and
		not any(w in m["typedefs"] or w in m["defined"]
			for u in t for w in u.split()))

def scalar(p, x):
	return all("*" not in t and "[" not in t and
		   not t.startswith(("struct", "union"))
		   for t in names.get(fkey(p), {}).get(x, {"*"}))

def count_ok(n):
	# A literal up to 65536 fits any index type typed() accepts.
	n = n.strip()
	m = re.fullmatch(r"([1-9][0-9]*)[UL]*", n)
	return n in counts or (m is not None and int(m.group(1)) <= 65536)

tokre = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9][A-Za-z0-9_]*|->|\+\+|--|"
		   r"&&|\|\||<<=|>>=|<<|>>|[-+*/%&|^=!<>]=|\S")

def tokens(e):
	return tokre.findall(e)

def idents(e):
	return set(t for t in tokens(e) if ident.match(t))

def watched(x):
	return any(x in n for n in assigned.values())

ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
number = re.compile(r"[0-9][A-Za-z0-9_]*$")
keywords = frozenset(["if", "else", "for", "while", "do", "switch", "return",
		      "break", "continue", "goto", "sizeof", "case", "default"])

class Reject(Exception):
	pass

# Operators that neither write nor read memory through a pointer.
pure_ops = frozenset(["(", ")", "!", "~", "&&", "||", "==", "!=", "<", ">",
		      "<=", ">=", "|", "^", "+", "-", "<<", ">>", "/", "%"])

def invariant(p, toks, bound, consts=frozenset(), fields=False,
	      scalars=False):
	# True when the expression reads only parameters and locals of the
	# function that the loop does not change (and, with consts, those
	# constants), with no call, no side effect and no memory read
	# except, with fields (the mm), one field of a struct (field_ok():
	# vma->vm_mm), every name one the function never writes.
	for j, t in enumerate(toks):
		if ident.match(t):
			if t in keywords:
				return False
			if j + 1 < len(toks) and toks[j + 1] == "(":
				return False
			if fields and j > 0 and toks[j - 1] in ("->", "."):
				# A field of a field may be a PTE.
				if j + 1 < len(toks) and toks[j + 1] in ("->", ".", "["):
					return False
				continue
			if t in consts:
				continue
			if t in bound or not local(p, t, False):
				return False
			if fields and not fixed(p, t):
				return False
			if (fields and j + 2 < len(toks) and
			    toks[j + 1] in ("->", ".") and
			    not field_ok(p, t, toks[j + 1], toks[j + 2])):
				return False
			if scalars and not scalar(p, t):
				return False
		elif number.match(t):
			continue
		elif fields and t in ("->", "."):
			continue
		elif t not in pure_ops:
			return False
	return True

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

def expect(toks, pos, want):
	if pos >= len(toks) or toks[pos] != want:
		raise Reject()
	return pos + 1

class Body:
	def __init__(self, p, toks, i, addr, fixed):
		self.p = p
		self.toks = toks
		self.i = i
		self.addr = addr
		self.fixed = fixed
		# Every name assigned anywhere in the body.
		self.values = set(toks[j] for j in range(len(toks) - 1)
				  if ident.match(toks[j]) and toks[j + 1] == "=")
		self.bound = self.values | {i, addr}
		self.checked = False

	def assign(self, pos, defined):
		# x = maker ( page_to_pfn ( P + i ) ) ;  or  x = modifier ( y ) ;
		t = self.toks
		x = t[pos]
		if (not ident.match(x) or x in keywords or x in self.fixed or
		    not local(self.p, x)):
			raise Reject()
		pos = expect(t, pos + 1, "=")
		f = t[pos]
		if f in makers:
			# page_to_pfn(P + i) or page_to_pfn(folio_page(F, i)):
			# the pfn of page i of P or of folio F.
			seq = t[pos + 1:pos + 13]
			if seq[:4] == ["(", "page_to_pfn", "(", "folio_page"]:
				if (len(seq) != 12 or seq[4] != "(" or
				    not ident.match(seq[5]) or seq[5] in self.bound or
				    not local(self.p, seq[5], False) or
				    seq[6:] != [",", self.i, ")", ")", ")", ";"]):
					raise Reject()
				return pos + 13, x
			seq = seq[:9]
			if (len(seq) != 9 or seq[:3] != ["(", "page_to_pfn", "("] or
			    not ident.match(seq[3]) or seq[3] in self.bound or
			    not local(self.p, seq[3], False) or
			    seq[4:] != ["+", self.i, ")", ")", ";"]):
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
			if not invariant(self.p, t[pos + 2:end - 1], self.bound |
					 self.fixed, scalars=True):
				raise Reject()
			pos, then = self.stmt(end, defined)
			if pos < len(t) and t[pos] == "else":
				pos, other = self.stmt(pos + 1, defined)
				return pos, then & other
			return pos, set(defined)
		pos, x = self.assign(pos, defined)
		return pos, defined | {x}

	def check(self):
		t = self.toks
		# The last statement: set_pte_at ( mm , addr , ptep + i , v ) ;
		# or with & ptep [ i ].
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
		# PTE i is ptep + i or &ptep[i].
		if rest[:2] != [self.addr, ","]:
			raise Reject()
		if rest[3:6] == ["+", self.i, ","]:
			self.ptep, value = rest[2], rest[6:-2]
			pte_i = [self.ptep, "+", self.i]
		elif rest[2:3] == ["&"] and rest[4:8] == ["[", self.i, "]", ","]:
			self.ptep, value = rest[3], rest[8:-2]
			pte_i = ["&", self.ptep, "[", self.i, "]"]
		else:
			raise Reject()
		if (not ident.match(self.ptep) or self.ptep in self.bound or
		    not local(self.p, self.ptep) or
		    not typed(self.p, self.ptep, pte_pointer)):
			raise Reject()
		if not invariant(self.p, mm, self.bound | {self.ptep},
				 fields=True):
			raise Reject()
		self.fixed = self.fixed | {self.ptep} | idents(" ".join(mm))
		# The check that the target is none, right before the write.
		warn = (["VM_WARN_ON", "(", "!", "pte_none", "(", "ptep_get", "("] +
			pte_i + [")", ")", ")", ";"])
		if start >= len(warn) and t[start - len(warn):start] == warn:
			start -= len(warn)
			self.checked = True
		# The statements before it.
		pos, defined = 0, set()
		while pos < start:
			pos, defined = self.stmt(pos, defined)
		if pos != start:
			raise Reject()
		if len(value) == 1 and value[0] in defined:
			return
		if value[:2] == ["make_pte_marker", "("] and value[-1] == ")":
			if invariant(self.p, value[2:-1], self.bound | {self.ptep},
				     consts=marker_names):
				return
		raise Reject()

def check_body(p, S, i, addr, fixed):
	toks = tokens(S)
	if toks[:1] == ["{"] and toks[-1:] == ["}"]:
		toks = toks[1:-1]
	body = Body(p, toks, i, addr, fixed)
	try:
		body.check()
	except (Reject, IndexError, ValueError):
		return None
	if body.checked:
		proven.add(key(p))
	return body.values

def good(p):
	return key(p) in assigned and key(p) not in bad and key(p) in proven

def unproven(p):
	return key(p) in assigned and key(p) not in bad and key(p) not in proven

// Only a file with a set_pte_at() call can hold a loop to convert: the
// rules that collect names and uses read no other file.

@gate@
@@

set_pte_at(...)

//----------------------------------------------------------
//  Parameters and locals of each function
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

// A declaration in the first clause of a for loop, for (int i = 0; ...).

@fordecl depends on gate@
identifier x;
type T;
expression E;
position p;
statement S;
@@

for (T x@p = E; ...; ...) S

@script:python@
p << fordecl.p;
x << fordecl.x;
T << fordecl.T;
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

hide(p, x)

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
//  Loops writing a constant marker
//----------------------------------------------------------

@mloop@
identifier ptep, addr, nr;
expression mm, M;
position p;
@@

for@p (;;) {
(
	VM_WARN_ON(!pte_none(ptep_get(ptep)));
	set_pte_at(mm, addr, ptep, make_pte_marker(M));
|
	set_pte_at(mm, addr, ptep, make_pte_marker(M));
)
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
p << mloop.p;
ptep << mloop.ptep;
addr << mloop.addr;
nr << mloop.nr;
mm << mloop.mm;
M << mloop.M;
@@

# The iterators belong to the function, the marker and the mm neither
# depend on the loop nor have side effects.
it = {ptep, addr, nr}
if (not all(local(p, x) for x in it) or not typed(p, addr, ulong) or
    not typed(p, ptep, pte_pointer) or not typed(p, nr, int_types) or
    not invariant(p, tokens(mm), it, fields=True) or
    not invariant(p, tokens(M), it, consts=marker_names) or
    unseen_after(p)):
	reject(p)
assigned[key(p)] = it

@mark_checked@
identifier mloop.ptep;
position mloop.p;
position q;
@@

for@p (;;) {
	VM_WARN_ON@q(!pte_none(ptep_get(ptep)));
	...
}

@script:python@
p << mloop.p;
q << mark_checked.q;
@@

proven.add(key(p))

// Or the PTEs were cleared right before, over the same range.

@mark_cleared@
identifier mloop.ptep, mloop.addr, mloop.nr;
identifier E;
expression mm, F;
position mloop.p;
position q;
statement S;
@@

(
clear_full_ptes@q(mm, addr, ptep, nr, F);
|
clear_ptes@q(mm, addr, ptep, nr);
|
clear_nonpresent_ptes@q(mm, addr, ptep, nr);
|
E = get_and_clear_full_ptes@q(mm, addr, ptep, nr, F);
|
E = get_and_clear_ptes@q(mm, addr, ptep, nr);
)
for@p (;;) S

@script:python@
p << mloop.p;
q << mark_cleared.q;
@@

proven.add(key(p))

// A loop that control flow reaches again (inside a loop of any kind, or
// a goto back) runs again from where it stopped: on every path from the
// loop back to it, each iterator must be declared again, with a value,
// and nowhere else in the function.

@again exists@
position mloop.p, q;
statement S;
@@

for@p (;;) S
...
for@p@q (;;) S

@script:python@
p << mloop.p;
q << again.q;
@@

rerun.add(key(p))

@keeps_ptep exists@
position mloop.p, q;
identifier mloop.ptep;
type T;
expression E;
statement S;
@@

for@p (;;) S
... when != T ptep = E;
for@p@q (;;) S

@script:python@
p << mloop.p;
q << keeps_ptep.q;
@@

reject(p)

@keeps_addr exists@
position mloop.p, q;
identifier mloop.addr;
type T;
expression E;
statement S;
@@

for@p (;;) S
... when != T addr = E;
for@p@q (;;) S

@script:python@
p << mloop.p;
q << keeps_addr.q;
@@

reject(p)

@keeps_nr exists@
position mloop.p, q;
identifier mloop.nr;
type T;
expression E;
statement S;
@@

for@p (;;) S
... when != T nr = E;
for@p@q (;;) S

@script:python@
p << mloop.p;
q << keeps_nr.q;
@@

reject(p)

@script:python@
p << mloop.p;
ptep << mloop.ptep;
addr << mloop.addr;
nr << mloop.nr;
@@

if key(p) in rerun and any(decls.get(fkey(p) + (x,)) != 1
			   for x in (ptep, addr, nr)):
	reject(p)

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
if (i == addr or not count_ok(N) or not local(p, i) or not local(p, addr) or
    not typed(p, i, int_types) or not typed(p, addr, ulong) or
    not invariant(p, tokens(A), {i, addr}) or unseen_after(p)):
	reject(p)
else:
	changed = check_body(p, S, i, addr, idents(A))
	if changed is None:
		reject(p)
	else:
		assigned[key(p)] = {i, addr} | changed

@idx_cleared@
identifier ptep;
identifier E;
expression idx.A, idx.N, mm, F;
position idx.p;
statement S;
@@

(
clear_full_ptes(mm, A, ptep, N, F);
|
clear_ptes(mm, A, ptep, N);
|
clear_nonpresent_ptes(mm, A, ptep, N);
|
E = get_and_clear_full_ptes(mm, A, ptep, N, F);
|
E = get_and_clear_ptes(mm, A, ptep, N);
)
for@p (...;...;...) S

@script:python@
p << idx.p;
ptep << idx_cleared.ptep;
@@

# The same table as the loop writes: checked with the pointer of the write.
cleared.add((key(p), ptep))

@idx_target@
identifier idx.i, idx.addr, ptep;
expression mm, V;
position idx.p;
@@

for@p (...;...;...) {
	...
	set_pte_at(mm, addr, \(ptep + i\|&ptep[i]\), V);
}

@script:python@
p << idx.p;
ptep << idx_target.ptep;
@@

if (key(p), ptep) in cleared:
	proven.add(key(p))

// The same with the index declared by the loop, for (int i = 0; ...),
// from the address the loop steps: the helper starts where it starts.

@idx99@
identifier i, addr;
expression N;
type T;
position p;
statement S;
@@

for@p (T i = 0; i < N; \(i++\|++i\|i += 1\), addr += PAGE_SIZE) S

@script:python@
p << idx99.p;
i << idx99.i;
addr << idx99.addr;
N << idx99.N;
S << idx99.S;
@@

if (i == addr or not count_ok(N) or not local(p, i) or not local(p, addr) or
    not typed(p, i, int_types) or not typed(p, addr, ulong) or
    unseen_after(p)):
	reject(p)
else:
	changed = check_body(p, S, i, addr, set())
	if changed is None:
		reject(p)
	else:
		assigned[key(p)] = {i, addr} | changed

@idx99_cleared@
identifier ptep, idx99.addr, j;
identifier E;
expression idx99.N, mm, F, E0;
type T;
position idx99.p;
statement S;
@@

(
clear_full_ptes(mm, addr, ptep, N, F);
|
clear_ptes(mm, addr, ptep, N);
|
clear_nonpresent_ptes(mm, addr, ptep, N);
|
E = get_and_clear_full_ptes(mm, addr, ptep, N, F);
|
E = get_and_clear_ptes(mm, addr, ptep, N);
)
for@p (T j = E0; ...; ...) S

@script:python@
p << idx99.p;
ptep << idx99_cleared.ptep;
@@

cleared.add((key(p), ptep))

@idx99_target@
identifier idx99.i, idx99.addr, ptep;
expression mm, V, E0;
type T;
position idx99.p;
@@

for@p (T i = E0; ...; ...) {
	...
	set_pte_at(mm, addr, \(ptep + i\|&ptep[i]\), V);
}

@script:python@
p << idx99.p;
ptep << idx99_target.ptep;
@@

if (key(p), ptep) in cleared:
	proven.add(key(p))

//----------------------------------------------------------
//  Nothing the loop changes is used after it
//----------------------------------------------------------

@after exists@
position p : script:python() { key(p) in assigned };
identifier x : script:python() { watched(x) };
identifier j;
type T;
expression E0;
statement S;
@@

(
for@p (...;...;...) S
|
for@p (T j = E0; ...; ...) S
)
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
(
-	VM_WARN_ON(!pte_none(ptep_get(ptep)));
-	set_pte_at(mm, addr, ptep, make_pte_marker(M));
|
-	set_pte_at(mm, addr, ptep, make_pte_marker(M));
)
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
(
-	VM_WARN_ON(!pte_none(ptep_get(\(ptep + i\|&ptep[i]\))));
-	set_pte_at(mm, addr, \(ptep + i\|&ptep[i]\), make_pte_marker(E));
|
-	set_pte_at(mm, addr, \(ptep + i\|&ptep[i]\), make_pte_marker(E));
)
- }
+ set_softleaf_ptes(mm, A, ptep, make_pte_marker(E), N);

@depends on patch && !context && !org && !report@
identifier i, addr, ptep, v, mk;
expression A, N, mm, P, F;
position p : script:python() { good(p) };
@@

- for@p (i = 0, addr = A; i < N; \(i++\|++i\|i += 1\), addr += PAGE_SIZE) {
	<...
(
-	mk(page_to_pfn(P + i))
+	mk(page_to_pfn(P))
|
-	mk(page_to_pfn(folio_page(F, i)))
+	mk(page_to_pfn(folio_page(F, 0)))
)
	...>
-	VM_WARN_ON(!pte_none(ptep_get(\(ptep + i\|&ptep[i]\))));
-	set_pte_at(mm, addr, \(ptep + i\|&ptep[i]\), v);
+	set_softleaf_ptes(mm, A, ptep, v, N);
- }

@depends on patch && !context && !org && !report@
identifier i, addr, ptep, v, mk;
expression A, N, mm, P, F;
position p : script:python() { good(p) };
@@

- for@p (i = 0, addr = A; i < N; \(i++\|++i\|i += 1\), addr += PAGE_SIZE) {
	<...
(
-	mk(page_to_pfn(P + i))
+	mk(page_to_pfn(P))
|
-	mk(page_to_pfn(folio_page(F, i)))
+	mk(page_to_pfn(folio_page(F, 0)))
)
	...>
-	set_pte_at(mm, addr, \(ptep + i\|&ptep[i]\), v);
+	set_softleaf_ptes(mm, A, ptep, v, N);
- }

// The index declared by the loop.

@depends on patch && !context && !org && !report@
identifier i, addr, ptep;
expression N, mm, E;
type T;
position p : script:python() { good(p) };
@@

- for@p (T i = 0; i < N; \(i++\|++i\|i += 1\), addr += PAGE_SIZE) {
(
-	VM_WARN_ON(!pte_none(ptep_get(\(ptep + i\|&ptep[i]\))));
-	set_pte_at(mm, addr, \(ptep + i\|&ptep[i]\), make_pte_marker(E));
|
-	set_pte_at(mm, addr, \(ptep + i\|&ptep[i]\), make_pte_marker(E));
)
- }
+ set_softleaf_ptes(mm, addr, ptep, make_pte_marker(E), N);

@depends on patch && !context && !org && !report@
identifier i, addr, ptep, v, mk;
expression N, mm, P, F;
type T;
position p : script:python() { good(p) };
@@

- for@p (T i = 0; i < N; \(i++\|++i\|i += 1\), addr += PAGE_SIZE) {
	<...
(
-	mk(page_to_pfn(P + i))
+	mk(page_to_pfn(P))
|
-	mk(page_to_pfn(folio_page(F, i)))
+	mk(page_to_pfn(folio_page(F, 0)))
)
	...>
(
-	VM_WARN_ON(!pte_none(ptep_get(\(ptep + i\|&ptep[i]\))));
-	set_pte_at(mm, addr, \(ptep + i\|&ptep[i]\), v);
|
-	set_pte_at(mm, addr, \(ptep + i\|&ptep[i]\), v);
)
+	set_softleaf_ptes(mm, addr, ptep, v, N);
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
identifier j;
type T;
expression E0;
statement S;
@@

(
* for@p (...;...;...) S
|
* for@p (T j = E0; ...; ...) S
)

//----------------------------------------------------------
//  For org and report mode
//----------------------------------------------------------

@r depends on (org || report) && !context && !patch@
position p : script:python() { good(p) or unproven(p) };
identifier j;
type T;
expression E0;
statement S;
@@

(
for@p (...;...;...) S
|
for@p (T j = E0; ...; ...) S
)

@script:python depends on report@
p << r.p;
@@

if good(p):
	coccilib.report.print_report(p[0], "WARNING: use set_softleaf_ptes() instead of this per-PTE loop")
else:
	coccilib.report.print_report(p[0], "set_softleaf_ptes() fits this loop only if its PTEs are none: not proven here")

@script:python depends on org@
p << r.p;
@@

if good(p):
	coccilib.org.print_todo(p[0], "WARNING: use set_softleaf_ptes() instead of this per-PTE loop")
else:
	coccilib.org.print_todo(p[0], "set_softleaf_ptes() fits this loop only if its PTEs are none: not proven here")
