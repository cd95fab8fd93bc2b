"""sasstext.py -- tokenize nvdisasm instruction text into literals and atoms.

An atom is a number the encoding stores in a field: a register (R, UR, P,
UP, B, SB with Z/T for the zero/true register), a hex integer or a decimal
or floating-point number.  Everything else is literal text.  The C parser
(src/isa/parse.c) follows the same rules."""
import re, struct

REGK = {"R": 255, "UR": 63, "P": 7, "UP": 7, "B": None, "SB": None}
_reg = re.compile(r"(UR|UP|SB|R|P|B)(\d+|Z|T)(?![A-Za-z0-9_])")
_hex = re.compile(r"-?0x[0-9a-f]+")
_num = re.compile(r"[+-](?:INF|QNAN|SNAN)|-?\d+(?:\.\d+)?(?:e[+-]\d+)?")
_ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_dotword = re.compile(r"\.[A-Za-z0-9_]+")


class Atom:
    __slots__ = ("kind", "text", "val")

    def __init__(self, kind, text, val):
        self.kind, self.text, self.val = kind, text, val

    def __eq__(self, o):
        return isinstance(o, Atom) and self.text == o.text

    def __hash__(self):
        return hash(self.text)

    def __repr__(self):
        return "<%s %s>" % (self.kind, self.text)


def reg_value(kind, num):
    if num in ("Z", "T"):
        return REGK[kind]
    return int(num)


def split_pred(text):
    """'@!P0 EXIT' -> ('@!P0 ', 'EXIT')"""
    m = re.match(r"@!?U?P[0-6T] ", text)
    return (m.group(0), text[m.end():]) if m else ("", text)


def tokenize(body):
    """Body text (no guard predicate) -> list of str literals and Atoms.
    The mnemonic is split at dots: 'IMAD.WIDE' -> ['IMAD', '.WIDE']."""
    toks = []
    sp = body.find(" ")
    mn, rest = (body, "") if sp < 0 else (body[:sp], body[sp:])
    parts = mn.split(".")
    toks.append(parts[0])
    toks += ["." + p for p in parts[1:]]
    i = 0
    while i < len(rest):
        c = rest[i]
        m = None
        if c == ".":
            m = _dotword.match(rest, i)
            if m:
                toks.append(m.group(0)); i = m.end(); continue
        prev = rest[i - 1] if i else " "
        if not (prev.isalnum() or prev == "_"):
            m = _reg.match(rest, i)
            if m:
                toks.append(Atom(m.group(1), m.group(0), reg_value(m.group(1), m.group(2))))
                i = m.end(); continue
            m = _hex.match(rest, i)
            if m:
                toks.append(Atom("HEX", m.group(0), int(m.group(0), 16))); i = m.end(); continue
            m = _num.match(rest, i)
            if m and (c != "-" or i + 1 < len(rest)):
                text, i = m.group(0), m.end()
                # nvdisasm prints special values with a trailing space: "+INF , PT"
                if (text.lstrip("+-") in ("INF", "QNAN", "SNAN") or text == "-0.0") \
                        and rest[i:i + 1] == " ":
                    text += " "; i += 1
                toks.append(Atom("NUM", text, text)); continue
            m = _ident.match(rest, i)
            if m:
                toks.append(m.group(0)); i = m.end(); continue
        toks.append(c); i += 1
    return toks


def skeleton(toks):
    return tuple(t.kind if isinstance(t, Atom) else t for t in toks)


def join(toks):
    return "".join(t.text if isinstance(t, Atom) else t for t in toks)


# Float raw-bit interpretations of a NUM atom's text.
def _special(text, bits):
    sign = text.startswith("-")
    body = text.lstrip("+-")
    if bits == 32:
        e, q = 0x7f800000, 0x00400000
    elif bits == 64:
        e, q = 0x7ff0000000000000, 0x0008000000000000
    else:
        e, q = 0x7c00, 0x0200
    v = {"INF": e, "QNAN": e | q, "SNAN": e | 1}.get(body)
    if v is None:
        return None
    return v | (1 << (bits - 1) if sign else 0)


def num_raw(text, kind):
    """Raw bits of a printed number under an interpretation, or None."""
    text = text.strip()
    try:
        if kind == "F32":
            s = _special(text, 32)
            if s is not None:
                return s
            return struct.unpack("<I", struct.pack("<f", float(text)))[0]
        if kind == "F64H":
            s = _special(text, 64)
            if s is None:
                s = struct.unpack("<Q", struct.pack("<d", float(text)))[0]
            return s >> 32 if s & 0xffffffff == 0 else None
        if kind == "F16":
            s = _special(text, 16)
            if s is not None:
                return s
            return struct.unpack("<H", struct.pack("<e", float(text)))[0]
        if kind == "DEC":
            return int(text) if re.fullmatch(r"-?\d+", text) else None
    except (ValueError, OverflowError, struct.error):
        return None
    return None


def fmt_float(x, raw, bits):
    """nvdisasm's rendering of a float immediate (x as a Python float)."""
    sign = raw >> (bits - 1) & 1
    if x != x:
        quiet = {32: 0x00400000, 64: 0x0008000000000000, 16: 0x0200}[bits]
        return ("-" if sign else "+") + ("QNAN " if raw & quiet else "SNAN ")
    if x in (float("inf"), float("-inf")):
        return "-INF " if sign else "+INF "
    if x == 0:
        return "-0.0 " if sign else "0"
    if abs(x) >= 1e9:
        return "%.20e" % x
    return "%.20g" % x
