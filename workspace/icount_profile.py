# SPDX-License-Identifier: GPL-2.0
#
# gdb -batch -x icount_profile.py, attached to a QEMU guest's gdbstub:
# count the guest instructions of whole calls of one kernel function, per
# function they run in (callees included), by single-stepping them.
#
# The environment says what to do:
#   PB_SMAP   the kernel's System.map (text symbols name the functions)
#   PB_FUNC   the function whose calls are counted
#   PB_PORT   the gdbstub port
#   PB_ARCH   x86_64 or arm64 (where the return address is)
#   PB_SKIP   calls to let run before counting (warm-up)    [3]
#   PB_CALLS  calls to count                                [3]
#   PB_OUT    the JSON file written: one {"total", "funcs"} per call
#
# QEMU's gdbstub single-steps with interrupts and timers masked, so a call
# is counted without what an interrupt would have added.  The kernel must
# run without KASLR (nokaslr) for System.map to hold.
import bisect
import collections
import json
import os

import gdb

MASK = (1 << 64) - 1
env = os.environ
funcs = []
with open(env['PB_SMAP']) as f:
    for line in f:
        a, t, name = line.split()[:3]
        if t in 'tTwW':
            funcs.append((int(a, 16), name))
funcs.sort()
addrs = [a for a, _ in funcs]
entry = [a for a, n in funcs if n == env['PB_FUNC']]
if not entry:
    raise gdb.GdbError('no text symbol %s in %s' % (env['PB_FUNC'], env['PB_SMAP']))
entry = entry[0]
arch = env['PB_ARCH']
skip = int(env.get('PB_SKIP', '3'))
ncalls = int(env.get('PB_CALLS', '3'))


def name_of(pc):
    i = bisect.bisect_right(addrs, pc) - 1
    return funcs[i][1] if i >= 0 else '?'


def reg(r):
    return int(gdb.parse_and_eval('$' + r)) & MASK


def count_call():
    """Step from the entry of the function to its return to the caller."""
    if arch == 'x86_64':
        sp0 = reg('rsp')
        ret = int(gdb.parse_and_eval('*(unsigned long *)$rsp')) & MASK
        sp_reg = 'rsp'
    else:
        sp0, ret, sp_reg = reg('sp'), reg('x30'), 'sp'
    per_func = collections.Counter()
    total = 0
    # x86 pops the return address (sp0 + 8), arm64 returns with sp0.
    while not (reg('pc') == ret and reg(sp_reg) >= sp0 + (8 if arch == 'x86_64' else 0)):
        per_func[name_of(reg('pc'))] += 1
        total += 1
        gdb.execute('stepi', to_string=True)
        if total > 5000000:
            raise gdb.GdbError('call did not return after 5M instructions')
    return {'total': total, 'funcs': dict(per_func)}


gdb.execute('set pagination off')
gdb.execute('set confirm off')
gdb.execute('target remote :%s' % env['PB_PORT'])
gdb.execute('hbreak *0x%x' % entry, to_string=True)
calls, seen = [], 0
while len(calls) < ncalls:
    gdb.execute('continue', to_string=True)
    if reg('pc') != entry:
        continue
    seen += 1
    if seen <= skip:
        continue
    # No breakpoint while stepping: a recursive call must not stop there.
    gdb.execute('delete', to_string=True)
    calls.append(count_call())
    gdb.execute('hbreak *0x%x' % entry, to_string=True)
with open(env['PB_OUT'], 'w') as f:
    json.dump(calls, f)
gdb.execute('kill')
