"""learn.py -- recover instruction forms from the oracle by flipping bits.

A form is what one seed word teaches: the bits that select it (mask/match),
the bits the printer ignores (dflt, kept for the encoder), and a text
template whose holes are fields: numbers (registers, hex and float
immediates, branch targets) and enumerations (modifiers, operand
decorations, optional operands) whose every value was shown by the oracle.
See docs/findings-encoding.md for the method."""
import math
import oracle
from sasstext import Atom, tokenize, skeleton, split_pred, num_raw, join

GUARD = set(range(12, 16))
CTRL = set(range(105, 122)) | {126, 127}
REUSE = set(range(122, 126))
LEARN_BITS = [b for b in range(128) if b not in GUARD and b not in CTRL]
REGKINDS = ("R", "UR", "P", "UP", "B", "SB")
ZERO = {"R": 255, "UR": 63, "P": 7, "UP": 7}


def mnemonic(toks):
    """The tokens before the first space."""
    return toks[:toks.index(" ")] if " " in toks else toks


def set_value(w, bits, v):
    for k, b in enumerate(bits):
        w = (w & ~(1 << b)) | ((v >> k & 1) << b)
    return w
MAX_ENUM_BITS = 10
M128 = (1 << 128) - 1


def normalize(w):
    """Guard PT, stall 1, yield bit 1, no scoreboards: a legal neutral seed."""
    w &= ~(0xf << 12) & M128
    w |= 7 << 12
    for b in CTRL:
        w &= ~(1 << b)
    w |= 1 << 105 | 1 << 109 | 7 << 110 | 7 << 113
    return w


def split(w):
    return (w & (2**64 - 1), w >> 64)


class Field:
    def __init__(self, kind, bits, **kw):
        self.kind, self.bits = kind, bits      # bits: list of word bit positions, LSB first
        self.signed = kw.get("signed", False)
        self.scale = kw.get("scale", 1)
        self.pcrel = kw.get("pcrel", False)
        self.optplus = kw.get("optplus", False)
        self.table = kw.get("table")           # ENUM: list of str or None, 2**len(bits)
        self.orval = kw.get("orval", 0)        # constant bits of the value not in 'bits'


class Form:
    def __init__(self, seed, text):
        self.seed, self.text = seed, text
        self.mask = self.dflt = 0
        self.tmpl = []                         # str or int (field index)
        self.fields = []
        self.addr = 0
        self.uguard = False                    # the guard is a uniform predicate (@UP0)
        self.late = False                      # the parser tries it after the others

    @property
    def match(self):
        return self.seed & self.mask

    @property
    def base(self):
        return tokenize(self.text)[0]


def _region(t0, t1):
    n0, n1 = len(t0), len(t1)
    p = 0
    while p < n0 and p < n1 and t0[p] == t1[p]:
        p += 1
    s = 0
    while s < n0 - p and s < n1 - p and t0[n0 - 1 - s] == t1[n1 - 1 - s]:
        s += 1
    return p, n0 - s, n1 - s


def _pow2(x):
    return x > 0 and x & (x - 1) == 0


class Learner:
    def __init__(self, arch):
        self.arch = arch

    def disasm_at(self, reqs):
        """reqs: list of (word, addr).  Texts as if each word sat at its
        addr.  nvdisasm places word i of a batch at base+16*i, so each word
        goes in twice: atoms that differ by 16 between the two copies are
        PC-relative and are moved to the requested address."""
        pairs = []
        for w, _ in reqs:
            pairs += [split(w), split(w)]
        texts = oracle.disasm(self.arch, pairs, 0)
        out = []
        for i, (w, addr) in enumerate(reqs):
            a, b = texts[2 * i], texts[2 * i + 1]
            if a is None or b is None or a == b:
                out.append(a); continue
            pa, ba = split_pred(a)
            ta, tb = tokenize(ba), tokenize(split_pred(b)[1])
            if skeleton(ta) != skeleton(tb):
                out.append(a); continue
            fixed = []
            for x, y in zip(ta, tb):
                if isinstance(x, Atom) and x.kind == "HEX" and y.val - x.val == 16:
                    v = x.val - 32 * i + addr
                    x = Atom("HEX", ("-0x%x" % -v) if v < 0 else "0x%x" % v, v)
                fixed.append(x)
            out.append(pa + join(fixed))
        return out

    def disasm(self, words, addr=0):
        return self.disasm_at([(w, addr) for w in words])

    def learn(self, seeds, addrs):
        """seeds: 128-bit words; addrs: where each was seen (branch targets).
        Returns one Form per seed, or None where the oracle rejects it."""
        gens = [self._learn_one(normalize(s), a) for s, a in zip(seeds, addrs)]
        results = [None] * len(gens)
        pending = {}
        for i, g in enumerate(gens):
            self._step(i, g, None, pending, results)
        while pending:
            reqs, spans = [], []
            for i, (g, words, addr) in pending.items():
                spans.append((i, len(reqs), len(words)))
                reqs += [(w, addr) for w in words]
            texts = self.disasm_at(reqs)
            cur = pending
            pending = {}
            for i, start, n in spans:
                self._step(i, cur[i][0], texts[start:start + n], pending, results)
        return results

    @staticmethod
    def _step(i, g, value, pending, results):
        try:
            words, addr = g.send(value)
            pending[i] = (g, words, addr)
        except StopIteration as e:
            results[i] = e.value

    def _learn_one(self, seed, addr):
        t0 = (yield [seed], addr)[0]
        if t0 is None:
            return None
        pred, body0 = split_pred(t0)
        toks0 = tokenize(body0)
        n0 = len(toks0)
        f = Form(seed, body0)
        f.addr = addr
        flips = [seed ^ (1 << b) for b in LEARN_BITS]
        texts = yield flips, addr
        fixed, hidden = set(), set()
        num = {}        # atom index -> [(bit, Atom)]
        enum = []       # (bit, lo, hi) regions in toks0
        opt = {}        # insertion point or atom index -> [(bit, Atom)]
        for i, (b, t) in enumerate(zip(LEARN_BITS, texts)):
            if t is None or b < 12:
                fixed.add(b); continue
            p, body = split_pred(t)
            if p:
                fixed.add(b); continue
            if body == body0:
                hidden.add(b); continue
            tb = tokenize(body)
            if tb[0] != toks0[0]:
                fixed.add(b); continue
            if skeleton(tb) == skeleton(toks0):
                d = [k for k in range(n0) if tb[k] != toks0[k]]
                if len(d) == 1 and isinstance(tb[d[0]], Atom):
                    a = tb[d[0]]
                    num.setdefault(d[0], []).append((b, a, 0))
                    continue
                fixed.add(b); continue
            lo, hi0, hi1 = _region(toks0, tb)
            ins, rem = tb[lo:hi1], toks0[lo:hi0]
            if not rem and len(ins) == 2 and ins[0] == "+" and isinstance(ins[1], Atom) and ins[1].kind == "HEX":
                opt.setdefault(("ins", lo), []).append((b, ins[1], 0)); continue
            if not ins and len(rem) == 2 and rem[0] == "+" and isinstance(rem[1], Atom) and rem[1].kind == "HEX":
                opt.setdefault(("atom", lo + 1), []).append((b, Atom("HEX", "0x0", 0), 0)); continue
            enum.append((b, lo, hi0))
        fields, holes = [], {}   # holes: token index -> (field, replaces ntoks)
        used = set()
        # numeric fields
        numf = []
        for ai, obs in sorted(num.items()):
            extra = opt.pop(("atom", ai), [])
            fld = self._numfield(toks0[ai], obs + extra, seed, addr, optplus=bool(extra))
            if fld is None:
                fixed.update(b for b, _, _ in obs + extra); continue
            numf.append((ai, fld, extra))
        # a register operand that disappears at RZ/URZ/PT is an enumeration;
        # an offset after '+' that disappears at 0 is optional
        probe = [(ai, fld) for ai, fld, extra in numf if not extra and None not in fld.bits and
                 (fld.kind in ZERO or (fld.kind == "HEX" and not fld.pcrel and toks0[ai - 1] == "+"))]
        pw = [set_value(seed, fld.bits, ZERO.get(fld.kind, 0)) for _, fld in probe]
        pt = (yield pw, addr) if pw else []
        optional, optplus = set(), set()
        for (ai, fld), t in zip(probe, pt):
            if t is None or split_pred(t)[0]:
                continue
            tb = tokenize(split_pred(t)[1])
            if skeleton(tb) == skeleton(toks0):
                continue
            if mnemonic(tb) != mnemonic(toks0):
                continue    # an alias spelling (IMAD.MOV for RZ): learned as its own form
            if fld.kind == "HEX":
                if len(tb) == n0 - 2 and tb[:ai - 1] == toks0[:ai - 1] and tb[ai - 1:] == toks0[ai + 1:]:
                    optplus.add(ai)
                continue
            optional.add(ai)
            enum += [(b, ai, ai + 1) for b in fld.bits]
        for ai, fld, extra in numf:
            if ai in optional:
                continue
            if extra or ai in optplus:  # the '+' before the atom belongs to the hole
                fld.optplus = True
                holes[ai - 1] = (len(fields), 2)
            else:
                holes[ai] = (len(fields), 1)
            fields.append(fld)
        for key, obs in opt.items():
            kind, pos = key
            if kind == "atom":
                fld = self._numfield(toks0[pos], obs, seed, addr, optplus=True)
                at, n = pos - 1, 2
            else:
                fld = self._numfield(Atom("HEX", "0x0", 0), obs, seed, addr, optplus=True)
                at, n = pos, 0
            if fld is None or at in holes:
                fixed.update(b for b, _, _ in obs); continue
            holes[at] = (len(fields), n)
            fields.append(fld)
        # enumerations: a bit whose change reaches into a numeric field's
        # tokens changes the operand list: it selects the form (fixed).
        def covers(lo, hi):
            for k, (_, n) in holes.items():
                if (n and lo < k + n and k < hi) or (not n and lo < k < hi):
                    return True
            return False
        groups = []
        for b, lo, hi in enum:
            if covers(lo, hi):
                fixed.add(b); continue
            groups.append([[b], lo, hi])
        def overlaps(a, b):
            if a[1] == a[2] and b[1] == b[2]:
                return a[1] == b[1]
            return max(a[1], b[1]) < min(a[2], b[2]) or \
                (a[1] == a[2] and b[1] < a[1] < b[2]) or (b[1] == b[2] and a[1] < b[1] < a[2])

        def touches(a, b):
            # neighbours may spell their values together (.STRONG.GPU vs
            # .CONSTANT.PRIVATE): enumerate them jointly while that is cheap
            return (a[2] == b[1] or b[2] == a[1] or a[1] == b[1] or a[2] == b[2]) and \
                len(a[0]) + len(b[0]) <= MAX_ENUM_BITS

        for joins in (overlaps, touches):
            merged = True
            while merged:
                merged = False
                for i in range(len(groups)):
                    for j in range(i + 1, len(groups)):
                        if joins(groups[i], groups[j]):
                            gi, gj = groups[i], groups.pop(j)
                            gi[0] += gj[0]; gi[1] = min(gi[1], gj[1]); gi[2] = max(gi[2], gj[2])
                            merged = True
                            break
                    if merged:
                        break
        # enumerate every group; groups whose texts turn out to overlap, or
        # whose values spell each other differently together than apart,
        # are enumerated again together
        done = []   # [bits, lo, hi, field]
        todo = [(sorted(g[0]), g[1], g[2]) for g in groups]
        for _ in range(8):
            yield from self._enumerate(seed, addr, toks0, holes, hidden, fixed, todo, done, overlaps)
            f = assemble(f, done, holes, fields, fixed, hidden, toks0, seed)
            clash = yield from self._interactions(f, done, seed, addr)
            if not clash:
                return f
            a, b = clash
            done.remove(a)
            done.remove(b)
            allbits = sorted(set(a[0]) | set(b[0]))
            if len(allbits) > MAX_ENUM_BITS:
                fixed.update(allbits)
            else:
                todo = [(allbits, min(a[1], b[1]), max(a[2], b[2]))]
        return assemble(f, done, holes, fields, fixed, hidden, toks0, seed)

    def _enumerate(self, seed, addr, toks0, holes, hidden, fixed, todo, done, overlaps):
        while todo:
            bits, lo, hi = todo.pop(0)
            r = yield from self._enumfield(seed, addr, toks0, bits, lo, hi, holes, hidden)
            if r is None:
                fixed.update(bits); continue
            fld, lo, hi = r
            clash = [d for d in done if overlaps(d, (bits, lo, hi))]
            if not clash:
                done.append([bits, lo, hi, fld]); continue
            for d in clash:
                done.remove(d)
            allbits = sorted(set(bits).union(*(d[0] for d in clash)))
            if len(allbits) > MAX_ENUM_BITS:
                fixed.update(allbits); continue
            todo.append((allbits, min([lo] + [d[1] for d in clash]), max([hi] + [d[2] for d in clash])))

    def _interactions(self, f, done, seed, addr):
        """Two enumerations that were learned one at a time may print
        differently together (HFMA2's mode decides whether a predicate
        operand exists).  Try a few joint values of every pair against the
        oracle; return the first pair that disagrees with the form."""
        idx = {id(d[3]): d for d in done}
        en = [fl for fl in f.fields if fl.kind == "ENUM" and id(fl) in idx]
        reqs, pairs = [], []
        for i in range(len(en)):
            for j in range(i + 1, len(en)):
                a, b = en[i], en[j]
                va = [v for v, t in enumerate(a.table) if t is not None and v != field_value(a, seed)][:3]
                vb = [v for v, t in enumerate(b.table) if t is not None and v != field_value(b, seed)][:3]
                for x in va:
                    for y in vb:
                        reqs.append(set_value(set_value(seed, a.bits, x), b.bits, y))
                        pairs.append((a, b))
        if not reqs:
            return None
        texts = yield reqs, addr
        for w, (a, b), t in zip(reqs, pairs, texts):
            if t is None:
                continue
            if print_form(f, w, addr) != t:
                return idx[id(a)], idx[id(b)]
        return None

    def _numfield(self, a0, obs, seed, addr, optplus=False):
        if a0.kind in REGKINDS or a0.kind == "HEX":
            return self._try_num(a0.kind, a0, obs, seed, addr, optplus)
        # a number: the reading whose field has the fewest unexplained bits
        best = None
        for kind in ("F32", "F64H", "F16", "DEC"):
            fld = self._try_num(kind, a0, obs, seed, addr, optplus)
            if fld and (best is None or fld.bits.count(None) < best.bits.count(None)):
                best = fld
        return best

    def _try_num(self, kind, a0, obs, seed, addr, optplus):
        for b, a, _ in obs:
            if a.kind != a0.kind and not (a0.kind in ("HEX", "NUM") and a.kind in ("HEX", "NUM")):
                return None
        if kind in REGKINDS:
            ks = {}
            for b, a, _ in obs:
                d = a.val ^ a0.val
                if not _pow2(d):
                    return None
                ks[b] = d.bit_length() - 1
            return self._mkfield(kind, ks, seed, a0.val)
        if kind == "HEX":
            dd = {b: a.val - a0.val for b, a, _ in obs}
            for pc in (False, True):
                fld = self._hexfield(dd, seed, a0.val, addr, pc, optplus)
                if fld:
                    return fld
            return None
        raw0 = num_raw(a0.text, kind)
        if raw0 is None:
            return None
        ks = {}
        for b, a, _ in obs:
            r = num_raw(a.text, kind)
            if r is None:
                return None
            d = r ^ raw0
            if kind == "DEC":
                d = abs(r - raw0)
            if not _pow2(d):
                return None
            ks[b] = d.bit_length() - 1
        return self._mkfield(kind, ks, seed, raw0)

    def _mkfield(self, kind, ks, seed, raw0, **kw):
        if len(set(ks.values())) != len(ks):
            return None
        order = sorted(ks, key=lambda b: ks[b])
        bits = [None] * (max(ks.values()) + 1)
        for b in order:
            bits[ks[b]] = b
        # value bits we never saw move are constant: keep them in orval
        orval = 0
        for k, b in enumerate(bits):
            if b is None:
                orval |= raw0 & (1 << k)
        # check the seed's field bits reproduce raw0 (for unsigned kinds)
        v = orval
        for k, b in enumerate(bits):
            if b is not None and seed >> b & 1:
                v |= 1 << k
        if kind != "DEC" and v != raw0 & ((1 << len(bits)) - 1) | (raw0 & ~((1 << len(bits)) - 1)):
            return None
        if v != raw0:   # a number printed with an offset is no number field
            return None
        return Field(kind, bits, orval=orval, **kw)

    def _hexfield(self, dd, seed, v0, addr, pc, optplus):
        if not dd:
            return None
        mags = [abs(d) for d in dd.values()]
        if 0 in mags:
            return None
        scale = min(mags)
        if not _pow2(scale):
            return None
        ks, signbit = {}, None
        for b, d in dd.items():
            q = abs(d) // scale
            if abs(d) % scale or not _pow2(q):
                return None
            k = q.bit_length() - 1
            ks[b] = k
            s = seed >> b & 1
            if (d > 0) == (s == 0):
                continue
            signbit = b   # moved the wrong way: this is the sign bit
        if signbit is not None and ks[signbit] != max(ks.values()):
            return None
        if len(set(ks.values())) != len(ks):
            return None
        w = max(ks.values()) + 1
        bits = [None] * w
        for b, k in ks.items():
            bits[k] = b
        if None in bits:
            return None
        raw = sum(1 << k for k, b in enumerate(bits) if seed >> b & 1)
        val = raw - (1 << w) if signbit is not None and raw >> (w - 1) else raw
        base = v0 - val * scale
        if pc and base != addr + 16:
            return None
        if not pc and base != 0:
            return None
        return Field("HEX", bits, signed=signbit is not None, scale=scale, pcrel=pc, optplus=optplus)

    def _enumfield(self, seed, addr, toks0, bits, lo, hi, holes, hidden):
        if len(bits) > MAX_ENUM_BITS:
            return None
        n0 = len(toks0)
        words = []
        for v in range(1 << len(bits)):
            w = seed
            for k, b in enumerate(bits):
                w = (w & ~(1 << b)) | ((v >> k & 1) << b)
            words.append(w)
        texts = yield words, addr
        toks = []
        for i, t in enumerate(texts):
            if t is None:
                toks.append(None); continue
            p, body = split_pred(t)
            tb = tokenize(body)
            if p or tb[0] != toks0[0]:
                return None
            toks.append(tb)
        for tb in toks:
            if tb is None or tb == toks0:
                continue
            l, h0, h1 = _region(toks0, tb)
            lo, hi = min(lo, l), max(hi, h0)
        # the region may not swallow another field's tokens
        for k in range(lo, hi):
            if k in holes or any(k2 < k < k2 + n for k2, (_, n) in holes.items()):
                return None
        table = []
        for i, tb in enumerate(toks):
            if tb is None:
                table.append(None); continue
            suf = n0 - hi
            if tb[:lo] != toks0[:lo] or (suf and tb[len(tb) - suf:] != toks0[hi:]) or len(tb) < lo + suf:
                return None
            # PC-relative atoms inside an enum would be wrong at other addresses
            mid = tb[lo:len(tb) - suf]
            if any(isinstance(x, Atom) and x.kind == "HEX" for x in mid) and len(bits) > 3:
                return None
            table.append(join(mid))
        # an enum value that shows atoms of hidden fields would be wrong elsewhere
        probe = []
        for v, s in enumerate(table):
            if s and any(isinstance(x, Atom) for x in tokenize("X " + s)[1:]):
                probe.append(v)
        if probe and hidden:
            hw = []
            for v in probe[:8]:
                for h in sorted(hidden):
                    hw.append(words[v] ^ (1 << h))
            ht = yield hw, addr
            k = 0
            for v in probe[:8]:
                for h in sorted(hidden):
                    if ht[k] != texts[v]:
                        return None
                    k += 1
        return Field("ENUM", bits, table=table), lo, hi


# --- printing a form in Python (for the learner's own checks; the product's
# printer is src/isa/print.c and follows the same rules) ---

def field_value(fl, w):
    v = fl.orval
    for k, b in enumerate(fl.bits):
        if b is not None and w >> b & 1:
            v |= 1 << k
    return v


def render(fl, w, addr):
    import struct
    from sasstext import fmt_float
    v = field_value(fl, w)
    if fl.kind in ZERO or fl.kind in ("B", "SB"):
        if fl.kind in ZERO and v == ZERO[fl.kind]:
            return fl.kind + ("Z" if fl.kind in ("R", "UR") else "T")
        return "%s%d" % (fl.kind, v)
    if fl.kind == "HEX":
        n = len(fl.bits)
        x = v - (1 << n) if fl.signed and v >> (n - 1) & 1 else v
        x *= fl.scale
        if fl.pcrel:
            x += addr + 16
        if fl.optplus and x == 0:
            return ""
        s = "-0x%x" % -x if x < 0 else "0x%x" % x
        return "+" + s if fl.optplus else s
    if fl.kind == "F32":
        return fmt_float(struct.unpack("<f", struct.pack("<I", v))[0], v, 32)
    if fl.kind == "F64H":
        return fmt_float(struct.unpack("<d", struct.pack("<Q", v << 32))[0], v << 32, 64)
    if fl.kind == "F16":
        return fmt_float(struct.unpack("<e", struct.pack("<H", v))[0], v, 16)
    if fl.kind == "DEC":
        return "%d" % v
    t = fl.table[v] if v < len(fl.table) else None
    return t


def print_form(fm, w, addr):
    p, neg = w >> 12 & 7, w >> 15 & 1
    out = "" if p == 7 and not neg else "@%s%s " % ("!" if neg else "", "PT" if p == 7 else "P%d" % p)
    for t in fm.tmpl:
        if isinstance(t, int):
            r = render(fm.fields[t], w, addr)
            if r is None:
                return None
            out += r
        else:
            out += t
    return out.rstrip(" ")


def specialize(fm, fi):
    """The form fm with numeric field fi fixed to its seed's value."""
    import copy
    g = copy.copy(fm)
    fl = fm.fields[fi]
    lit = render(fl, fm.seed, fm.addr)
    for b in fl.bits:
        if b is not None:
            g.mask |= 1 << b
    g.fields = fm.fields[:fi] + fm.fields[fi + 1:]
    tmpl = []
    for t in fm.tmpl:
        if isinstance(t, int):
            t = lit if t == fi else (t - 1 if t > fi else t)
        if isinstance(t, str) and tmpl and isinstance(tmpl[-1], str):
            tmpl[-1] += t
        else:
            tmpl.append(t)
    g.tmpl = [t for t in tmpl if t != ""]
    return g


def assemble(f0, done, holes0, fields0, fixed0, hidden, toks0, seed):
    """The form from the fields learned so far: holes for the enumerations,
    the template, the mask and the ignored bits."""
    import copy
    f = copy.copy(f0)
    f.mask = f.dflt = 0
    holes, fields, fixed = dict(holes0), list(fields0), set(fixed0)
    n0 = len(toks0)

    def covers(lo, hi):
        for k, (_, n) in holes.items():
            if (n and lo < k + n and k < hi) or (not n and lo < k < hi):
                return True
        return False
    ins = {}    # insertion holes: position -> field; they print before a hole or token there
    for bits, lo, hi, fld in sorted(done, key=lambda d: (d[1], d[2])):
        if lo == hi:
            if lo in ins or any(k2 < lo < k2 + n for k2, (_, n) in holes.items()):
                fixed.update(bits); continue
            ins[lo] = len(fields)
        else:
            if covers(lo, hi) or any(lo < k < hi for k in ins) or lo in holes:
                fixed.update(bits); continue
            holes[lo] = (len(fields), hi - lo)
        fields.append(fld)
    # template
    tmpl, k = [], 0
    while k <= n0:
        if k in ins:
            tmpl.append(ins[k])
        if k in holes:
            fi, n = holes[k]
            tmpl.append(fi)
            if n:
                k += n; continue
        if k < n0:
            t = toks0[k]
            tmpl.append(t.text if isinstance(t, Atom) else t)
        k += 1
    f.fields, f.tmpl = fields, tmpl
    fb = set()
    for fl in fields:
        fb.update(fl.bits)
    for b in LEARN_BITS:
        if b in fb:
            continue
        if b in hidden:
            f.dflt |= seed & (1 << b)
        else:
            f.mask |= 1 << b
    return f
