#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Validate a semantic patch's conversions by running them.

validate.py [options] BEFORE.c AFTER.c

BEFORE.c is a fixture input of tools/testing/coccinelle/, AFTER.c what
spatch made of it.  Every function whose text the script changed is
compiled twice, as it was and as it is, against the userspace harness's
PTE model (tools/testing/pgtable_batch: the tree's include/linux/pgtable.h,
include/linux/pgtable_batch.h, arch/arm64/include/asm/pgtable.h and
arch/arm64/mm/contpte.c, with contpte and, as the generic helpers, without
it), with validate/env.h for what the fixtures call beyond the PTE code and
validate/driver.h to run them.  Both programs run the same generated cases
(page tables, a base PTE, a count, arguments by type and name); a case
whose original run warns (a VM_WARN_ON() of the code or of a helper it
calls), crashes, writes past the page table of its region or breaks
break-before-make in the TLB model is outside the contract of the code
and is not judged.  Every other case must leave
the same page table, return value, warnings, TLB model violations, memory
behind the arguments, file globals and values handed to helpers.

Prints one line per function and architecture; exits 1 on any difference,
2 when a program cannot be built (a fixture that needs more of env.h).
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
HARNESS = os.path.join(TOP, "tools", "testing", "pgtable_batch")

# The harness objects each program links with: (name, object, arch struct,
# extra flags).
ARCHES = [
    ("arm64", "arm64.o", "arm64_arch", []),
    ("arm64-nocontpte", "arm64-nocontpte.o", "arm64_nocontpte_arch",
     ["-DPB_NO_CONTPTE"]),
]

CFLAGS = ["-std=gnu11", "-g", "-O1", "-Wno-unused-function",
          "-Wno-unused-variable", "-Wno-unused-but-set-variable",
          "-Werror=implicit-function-declaration", "-Werror=return-type",
          "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
          # A PTE pointer stepped by bytes stores misaligned: a result.
          "-fno-sanitize=alignment"]

KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else"}


def strip_comments(text):
    """@text with comments, string and character literals blanked (newlines
    kept), so that braces and parentheses can be counted."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            out.append(q + " " * (min(j, n) - i - 1) + q)
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def blank_preprocessor(text):
    """@text with preprocessor directives blanked: their lines, the lines
    a backslash continues them to, and those a comment opened in them
    spans (the directive goes on after the comment)."""
    out, directive, comment = [], False, False
    for line in text.split("\n"):
        if not directive and not comment:
            directive = line.lstrip().startswith("#")
        if not directive:
            out.append(line)
            continue
        out.append(" " * len(line))
        i = 0
        while i < len(line):
            if comment:
                j = line.find("*/", i)
                if j < 0:
                    break
                comment, i = False, j + 2
            elif line[i] in "\"'":
                # A literal: "/*" in it opens no comment.
                q, i = line[i], i + 1
                while i < len(line) and line[i] != q:
                    i += 2 if line[i] == "\\" else 1
                i += 1
            elif line.startswith("//", i):
                break
            elif line.startswith("/*", i):
                comment, i = True, i + 2
            else:
                i += 1
        directive = comment or line.endswith("\\")
    return "\n".join(out)


def matching(text, i, op, cl):
    """The index of the @cl that closes the @op at @text[@i] (the end of
    @text if none does)."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == op:
            depth += 1
        elif text[j] == cl:
            depth -= 1
            if depth == 0:
                return j
    return len(text)


def top_level(text):
    """The top-level items of C source @text: ("function", header, body
    span) and ("declaration", text) in order."""
    clean = strip_comments(blank_preprocessor(text))
    items, start, depth, i = [], 0, 0, 0
    while i < len(clean):
        ch = clean[i]
        if ch == "{":
            if depth == 0:
                head = clean[start:i]
                if head.rstrip().endswith(")") and "=" not in head:
                    j = matching(clean, i, "{", "}")
                    items.append(("function", head, (start, j + 1)))
                    start = i = j + 1
                    continue
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ";" and depth == 0:
            items.append(("declaration", clean[start:i], (start, i + 1)))
            start = i + 1
        i += 1
    return items


def split_params(s):
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    return [" ".join(p.split()) for p in parts]


def declarator(decl):
    """(type, name) of a parameter or a simple declaration."""
    decl = decl.split("=")[0].strip()
    m = re.match(r"^(.*?)([A-Za-z_]\w*)\s*(\[[^\]]*\])?$", decl)
    if not m or "(" in decl:
        return None
    typ = " ".join(m.group(1).replace("*", " * ").split())
    typ = typ.replace("* *", "**")
    if m.group(3):
        typ += " []"
    return typ, m.group(2)


ANNOTATIONS = ("static", "inline", "__always_inline", "noinline",
               "__maybe_unused", "__init", "__cold", "__hot", "extern")


def functions(text):
    """{name: (return type, [(type, name)], source text)} of @text, and
    the spans of the functions.  A function's name is the identifier
    before the first parenthesis of its header (after leading
    __attribute__s): what follows the parameter list (__must_hold(), ...)
    is left out; a second definition of a name (under another #ifdef
    branch) is keyed name#.  Raises Unsupported for a header it cannot
    read."""
    out, spans = {}, []
    for item in top_level(text):
        if item[0] != "function":
            continue
        head = " ".join(item[1].split())
        head = re.sub(r"__attribute__\s*\(\(.*?\)\)", " ", head)
        j = head.find("(")
        k = matching(head, j, "(", ")")
        pre, params = head[:j].strip(), head[j + 1:k]
        m = re.match(r"^(.*?)\b([A-Za-z_]\w*)$", pre)
        if not m or m.group(2) in KEYWORDS or not m.group(1).strip():
            raise Unsupported("cannot read the function header '%s'" % head)
        ret = [w for w in m.group(1).replace("*", " * ").split()
               if w not in ANNOTATIONS]
        plist = [] if params.strip() in ("", "void") else \
            [declarator(p) for p in split_params(params)]
        s, e = item[2]
        name = m.group(2)
        # Two definitions (#ifdef branches): told apart by their order.
        while name in out:
            name += "#"
        out[name] = (" ".join(ret).replace("* *", "**"), plist, text[s:e])
        spans.append((s, e))
    return out, spans


def outside(text, spans):
    """@text without the functions at @spans, blanks normalised."""
    parts, last = [], 0
    for s, e in sorted(spans):
        parts.append(text[last:s])
        last = e
    parts.append(text[last:])
    return " ".join(" ".join(parts).split())


def split_declarators(d):
    """The declarators of declaration @d, at its top-level commas
    (initializers may hold parentheses and braces), initializers cut."""
    parts, depth, cur = [], 0, ""
    for ch in d:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.split("=")[0].strip() for p in parts if p.strip()]


def file_globals(text):
    """[(type, name, extern, const)] of the file-scope variables of
    @text."""
    out = []
    for item in top_level(text):
        if item[0] != "declaration":
            continue
        d = " ".join(item[1].split())
        if not d or d.startswith(("typedef", "struct ", "union ", "enum ")) \
                and "{" in d or d.startswith("typedef"):
            continue
        decls = split_declarators(d)
        if not decls or "(" in decls[0]:
            continue
        ext = bool(re.match(r"^(\w+\s+)*extern\b", d))
        const = bool(re.match(r"^(\w+\s+)*const\b", d))
        # Annotations (__maybe_unused, __read_mostly, ...) and storage.
        decls = [" ".join(w for w in x.split() if not w.startswith("__") and
                          w not in ("static", "extern", "const"))
                 for x in decls]
        first = declarator(decls[0])
        if not first:
            continue
        base = first[0].rstrip(" *[]").rstrip()
        out.append(first + (ext, const))
        for x in decls[1:]:
            # Later declarators share the base type: "T a, *b".
            r = declarator(base + " " + x)
            if r:
                out.append(r + (ext, const))
    # Block-scope extern declarations name file-scope objects too.
    clean = strip_comments(blank_preprocessor(text))
    for m in re.finditer(r"\bextern\s+([^;(){}]+);", clean):
        for part in split_params(m.group(1)):
            r = declarator(part.replace("const ", ""))
            if r:
                out.append(r + (True, "const " in part))
    # A name declared extern and defined: the definition.
    defined = {n for t, n, e, c in out if not e}
    seen, res = set(), []
    for t, n, e, c in out:
        if n in seen or (e and n in defined):
            continue
        seen.add(n)
        res.append((t, n, e, c))
    return res


INTS = {"int", "signed int", "unsigned int", "unsigned", "long", "long int",
        "unsigned long int", "long long", "unsigned long long", "short",
        "unsigned short", "char", "signed char", "unsigned char", "u8",
        "u16", "u32", "u64", "s8", "s16", "s32", "s64", "size_t",
        "ssize_t"}

GEN = {
    "pte_t *": "cv_ptep",
    "pte_t": "cv_pte",
    "unsigned long": "cv_ulong",
    "bool": "cv_bool",
    "struct mm_struct *": "cv_mm",
    "struct mm_struct **": "cv_mms",
    "struct vm_area_struct *": "cv_vma",
    "struct vm_area_struct **": "cv_vmas",
    "struct folio *": "cv_folio",
    "struct page *": "cv_page",
    "pte_marker": "cv_marker",
    "pgprot_t": "cv_prot",
    "struct mmu_gather *": "cv_tlb",
    "struct walk *": "cv_walk",
}


def plain(typ):
    return " ".join(w for w in typ.split()
                    if w not in ("const", "volatile", "register"))


def generator(typ, name):
    """The C expression that makes a value of @typ for a parameter or
    global called @name, or None."""
    t = plain(typ)
    if t in GEN:
        return '%s(cv_c, "%s")' % (GEN[t], name)
    if t in ("void *", "char *", "unsigned char *"):
        return '(%s)cv_ptep(cv_c, "%s")' % (t, name)
    if t in INTS:
        return '(%s)cv_int(cv_c, "%s")' % (t, name)
    if t.endswith("*") and plain(t[:-1]) in INTS | {"unsigned long"}:
        return '(%s)cv_longs(cv_c, "%s")' % (t, name)
    return None


def formatter(typ, var):
    """snprintf() format and arguments for a value of @typ in @var."""
    t = plain(typ)
    if t == "void":
        return None
    if t.endswith("*"):
        return '"p%llx", (unsigned long long)cv_ptr(' + var + ")"
    if t == "pte_t":
        return '"%llx", (unsigned long long)pte_val(' + var + ")"
    if t in INTS or t in ("bool", "unsigned long", "pte_marker"):
        return '"%lld", (long long)' + var
    return None


def hasher(typ, name):
    t = plain(typ)
    if t.endswith("*"):
        return "h = cv_hash_ptr(h, %s);" % name
    if t.endswith("[]"):
        return "h = cv_hash(h, (const void *)%s, sizeof(%s));" % (name, name)
    return "h = cv_hash(h, (const void *)&%s, sizeof(%s));" % (name, name)


class Unsupported(Exception):
    pass


def program(fixture, funcs, globs):
    """The translation unit that runs @funcs of @fixture's text."""
    out = ['#include "pgtable_batch_internal.h"',
           "#include <linux/pgtable_batch.h>",
           "#undef ARRAY_SIZE", "#undef min",
           '#include "shared.h"',
           '#include "env.h"',
           '#include "driver.h"',
           '#line 1 "fixture.c"', fixture, "", "/* Generated. */"]
    # What the file declares extern: defined here.
    for typ, name, ext, const in globs:
        if ext:
            out.append("%s%s %s;" % ("const " if const else "",
                                      typ.replace(" []", ""), name) +
                       ("[]" if typ.endswith("[]") else ""))
    # A struct of the fixture's own, by pointer: a zeroed object, hashed
    # afterwards with the globals.
    objs = {}
    for fn, (ret, params, _) in sorted(funcs.items()):
        for p in params:
            m = p and re.fullmatch(r"struct (\w+) \*", plain(p[0]))
            if m and plain(p[0]) not in GEN:
                objs.setdefault(m.group(1), "cv_obj_%s" % m.group(1))
    for st, var in sorted(objs.items()):
        out.append("static struct %s %s;" % (st, var))
    out.append("static uint64_t cv_globals(uint64_t h)\n{")
    for st, var in sorted(objs.items()):
        out.append("\th = cv_hash(h, &%s, sizeof(%s));" % (var, var))
    for typ, name, _, _ in globs:
        out.append("\t" + hasher(typ, name))
    out.append("\treturn h;\n}\n")
    out.append("static void cv_set_globals(struct cv_case *cv_c)\n{")
    for typ, name, _, const in globs:
        # Arrays and constants keep their values (hashed all the same).
        if typ.endswith("[]") or const:
            continue
        g = generator(typ, name)
        if not g:
            raise Unsupported("no generator for global '%s %s'" % (typ, name))
        out.append("\t%s = %s;" % (name, g))
    out.append("}\n")
    table = []
    for fn, (ret, params, _) in sorted(funcs.items()):
        body = ["static void cv_call_%s(struct cv_case *cv_c, char *cv_ret, "
                "size_t cv_len)\n{" % fn]
        args = []
        for k, p in enumerate(params):
            if p is None:
                raise Unsupported("%s(): a parameter validate.py cannot read"
                                  % fn)
            g = generator(p[0], p[1])
            m = re.fullmatch(r"struct (\w+) \*", plain(p[0]))
            if not g and m:
                g = "(memset(&%s, 0, sizeof(%s)), &%s)" % ((objs[m.group(1)],) * 3)
            if not g:
                raise Unsupported("%s(): no generator for parameter '%s %s'"
                                  % (fn, p[0], p[1]))
            body.append("\t%s cv_a%d = %s;" % (p[0], k, g))
            args.append("cv_a%d" % k)
        call = "%s(%s)" % (fn, ", ".join(args))
        f = formatter(ret, "cv_r")
        if plain(ret) == "void":
            body.append("\t%s;" % call)
        elif f:
            body.append("\t%s cv_r = %s;\n" % (ret, call))
            body.append("\tsnprintf(cv_ret, cv_len, %s);" % f)
        else:
            raise Unsupported("%s(): cannot print a return value of type %s"
                              % (fn, ret))
        body.append("}\n")
        out.extend(body)
        table.append('\t{ "%s", cv_call_%s },' % (fn, fn))
    out.append("static const struct cv_fn cv_fn_table[] = {")
    out.extend(table)
    out.append("};\n")
    out.append("static const struct cv_fn *cv_functions(unsigned int *nr)\n{\n"
               "\t*nr = ARRAY_SIZE(cv_fn_table);\n\treturn cv_fn_table;\n}")
    return "\n".join(out) + "\n"


def build(work, name, arch, src, objdir, ksrc, incdir):
    c = os.path.join(work, name + ".c")
    exe = os.path.join(work, name)
    with open(c, "w") as f:
        f.write(src)
    _, obj, sym, flags = arch
    cmd = (["gcc"] + CFLAGS + flags + ["-DPB_CV_ARCH=" + sym,
           "-I", os.path.join(HARNESS, "include", "arm64"),
           "-I", os.path.join(HARNESS, "include"), "-I", ksrc,
           "-I", HARNESS, "-I", os.path.join(HERE, "validate"),
           # The fixture's own headers.
           "-iquote", incdir,
           "-o", exe, c, os.path.join(objdir, obj),
           os.path.join(objdir, "shared.o"), os.path.join(objdir, "model.o")])
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise Unsupported("%s does not build:\n%s" % (name, r.stderr[-3000:]))
    return exe


def run(exe, fn, cases):
    r = subprocess.run([exe, "x", fn, str(cases)], capture_output=True,
                       text=True, timeout=300)
    if r.returncode:
        raise Unsupported("%s %s: exit %d\n%s" % (exe, fn, r.returncode,
                                                  r.stderr[-2000:]))
    lines = {}
    for line in r.stdout.splitlines():
        no, _, rest = line.partition(" ")
        lines[int(no)] = rest
    return lines


def dump(exe, fn, case, path):
    subprocess.run([exe, "x", fn, "1", str(case), path], capture_output=True,
                   timeout=60)
    with open(path, "rb") as f:
        data = f.read()
    return [int.from_bytes(data[i:i + 8], "little")
            for i in range(0, len(data), 8)]


def judged(line):
    """Whether a case of the original program is inside its contract."""
    return ("crashed" not in line and " over=0 " in line and
            " warns=0 " in line and " bbm=0 " in line)


def compare(work, name, before, after, fn, cases, label):
    """([lines to print], judged cases or False) for @fn on arch @name."""
    a, b = run(before, fn, cases), run(after, fn, cases)
    inside = [k for k in sorted(a) if judged(a[k])]
    bad = [k for k in inside if b.get(k) != a[k]]
    if not bad:
        # Cases in which the original changed the page table: the code
        # the script changed ran (a loop under a condition no case meets
        # would pass all the same otherwise).
        wrote = sum(" wrote=1 " in a[k] for k in inside)
        return (["ok   %s %s (%s): %d of %d cases inside the contract, all "
                 "the same (%d changed the page table)"
                 % (label, fn, name, len(inside), cases, wrote)],
                (len(inside), wrote))
    k = bad[0]
    out = ["FAIL %s %s (%s): %d of %d cases differ; case %d:"
           % (label, fn, name, len(bad), len(inside), k),
           "    before: %s" % a[k],
           "    after:  %s" % b.get(k, "(no line)")]
    if "crashed" not in b.get(k, "crashed"):
        pa = dump(before, fn, k, os.path.join(work, name + "-a.bin"))
        pb = dump(after, fn, k, os.path.join(work, name + "-b.bin"))
        diff = [i for i in range(min(len(pa), len(pb))) if pa[i] != pb[i]]
        for i in diff[:4]:
            out.append("    PTE %d: before %#018x, after %#018x" %
                       (i, pa[i], pb[i]))
        if len(diff) > 4:
            out.append("    ... %d PTEs differ" % len(diff))
    return out, False


def check_arch(arch, args, old, new, changed, incdir, label):
    """([lines to print], ok, judged cases) of the changed functions on
    @arch."""
    before = build(args.work, "before-" + arch[0], arch,
                   program(old, changed, file_globals(old)),
                   args.objdir, args.ksrc, incdir)
    after = build(args.work, "after-" + arch[0], arch,
                  program(new, changed, file_globals(new)),
                  args.objdir, args.ksrc, incdir)
    lines, ok, judged_cases = [], True, 0
    for f in sorted(changed):
        # Few cases that ran the changed code: three times as many.
        for cases in (args.cases, 3 * args.cases):
            out, res = compare(args.work, arch[0], before, after, f,
                               cases, label)
            if res is False or res[1] >= args.min_inside:
                break
        lines += out
        if res is False:
            ok = False
            continue
        judged_cases += res[0]
        if res[1] < args.min_inside:
            lines.append("FAIL %s %s (%s): only %d of %d cases inside the "
                         "contract changed the page table"
                         % (label, f, arch[0], res[1], cases))
            ok = False
    return lines, ok, judged_cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--ksrc", required=True, help="the kernel tree")
    ap.add_argument("--objdir", required=True,
                    help="where the harness objects are (built if missing)")
    ap.add_argument("--work", required=True, help="a scratch directory")
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--label", default="")
    ap.add_argument("--min-inside", type=int, default=10,
                    help="fail a function with fewer judged cases that "
                    "changed the page table")
    args = ap.parse_args()

    with open(args.before) as f:
        old = f.read()
    with open(args.after) as f:
        new = f.read()
    label = args.label or os.path.basename(args.before)
    try:
        (fo, so), (fn, sn) = functions(old), functions(new)
    except Unsupported as e:
        print("FAIL %s: %s" % (label, e))
        return 2
    changed = {k: v for k, v in fo.items()
               if k in fn and " ".join(v[2].split()) != " ".join(fn[k][2].split())}
    gone = set(fo) ^ set(fn)
    twice = sorted(k for k in changed if k + "#" in fo or k.endswith("#"))
    if twice:
        print("FAIL %s: the script changed %s, defined more than once: "
              "which one runs is the preprocessor's choice"
              % (label, ", ".join(k.rstrip("#") for k in twice)))
        return 2
    if outside(old, so) != outside(new, sn):
        print("FAIL %s: the script changed text outside the functions "
              "validate.py reads" % label)
        return 2
    if gone:
        print("FAIL %s: functions added or removed by the script: %s"
              % (label, ", ".join(sorted(gone))))
        return 1
    if not changed:
        print("summary: no function changed")
        return 0
    os.makedirs(args.work, exist_ok=True)
    incdir = os.path.dirname(os.path.abspath(args.before))
    objs = [os.path.join(args.objdir, a[1]) for a in ARCHES] + \
        [os.path.join(args.objdir, "shared.o"), os.path.join(args.objdir, "model.o")]
    # The harness's flags, but for misaligned PTE accesses (see CFLAGS).
    hflags = ("-std=gnu11 -g -O2 -Wall -Werror=implicit-function-declaration "
              "-fsanitize=address,undefined -fno-sanitize-recover=undefined "
              "-fno-sanitize=alignment")
    r = subprocess.run(["make", "-s", "-C", HARNESS, "KSRC=" + args.ksrc,
                        "CFLAGS=" + hflags,
                        "OUTPUT=" + args.objdir.rstrip("/") + "/"] + objs,
                       capture_output=True, text=True)
    if r.returncode:
        print("FAIL %s: the harness objects do not build:\n%s"
              % (label, r.stderr[-2000:]))
        return 2
    ok, judged_cases = True, 0
    try:
        # One thread per architecture: the programs build and run apart.
        with concurrent.futures.ThreadPoolExecutor(len(ARCHES)) as ex:
            results = list(ex.map(lambda a: check_arch(a, args, old, new,
                                                       changed, incdir,
                                                       label), ARCHES))
        for lines, arch_ok, n in results:
            print("\n".join(lines))
            ok &= arch_ok
            judged_cases += n
    except Unsupported as e:
        print("FAIL %s: %s" % (label, e))
        return 2
    if ok:
        print("summary: %d changed functions, %d architectures, %d cases "
              "inside the contract, all the same"
              % (len(changed), len(ARCHES), judged_cases))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
