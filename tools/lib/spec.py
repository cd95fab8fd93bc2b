"""spec.py -- read and write specs/sm_XX/forms.txt, the learned form tables.

Format (one block per form, in decode priority order):

  form IMAD.WIDE.U32 R2, R5, 0x4, R2            <- the seed's text
    seed  0x0000000405027825 0x001fca00078e0002 @0x70
    mask  0x0000000000000fff 0x0800000008000400  <- lo hi: bits that select the form
    dflt  0x0000000000000000 0x0000000007800000  <- ignored bits, as ptxas sets them
    guard UP                                     <- only when the guard prints @UPn
    parse late                                   <- seed not from ptxas: the parser tries it last
    text  "IMAD.WIDE{4} {0}, {5}{1}{6}, ..."    <- template, {i} = field i, {{ }} = braces
    f0 R 16..23
    f2 HEX 32..63 signed
    f4 ENUM 73 = ".U32" ""                      <- one string per value; ! = invalid
  end

Bit lists are LSB first: "16..23,34..81"; "_" is a value bit no word bit
holds (its value is in or=0x..)."""
import json
from learn import Field, Form


def _bits_str(bits):
    out, i = [], 0
    while i < len(bits):
        b = bits[i]
        if b is None:
            out.append("_"); i += 1; continue
        j = i
        while j + 1 < len(bits) and bits[j + 1] is not None and bits[j + 1] == bits[j] + 1:
            j += 1
        out.append(str(b) if j == i else "%d..%d" % (b, bits[j]))
        i = j + 1
    return ",".join(out)


def _bits_parse(s):
    bits = []
    for part in s.split(","):
        if part == "_":
            bits.append(None)
        elif ".." in part:
            a, b = part.split("..")
            bits += list(range(int(a), int(b) + 1))
        else:
            bits.append(int(part))
    return bits


def _w(x):
    return "0x%016x 0x%016x" % (x & (2**64 - 1), x >> 64)


def tmpl_str(tmpl):
    out = []
    for t in tmpl:
        if isinstance(t, int):
            out.append("{%d}" % t)
        else:
            out.append(t.replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def tmpl_parse(s):
    out, lit, i = [], "", 0
    while i < len(s):
        c = s[i]
        if c == "{" and s[i + 1:i + 2] == "{":
            lit += "{"; i += 2
        elif c == "}" and s[i + 1:i + 2] == "}":
            lit += "}"; i += 2
        elif c == "{":
            j = s.index("}", i)
            if lit:
                out.append(lit); lit = ""
            out.append(int(s[i + 1:j])); i = j + 1
        else:
            lit += c; i += 1
    if lit:
        out.append(lit)
    return out


def write(forms, path, header):
    with open(path, "w") as f:
        for h in header:
            f.write("# %s\n" % h)
        f.write("\n")
        for fm in forms:
            f.write("form %s\n" % fm.text)
            f.write("  seed  %s @0x%x\n" % (_w(fm.seed), fm.addr))
            f.write("  mask  %s\n" % _w(fm.mask))
            f.write("  dflt  %s\n" % _w(fm.dflt))
            if getattr(fm, "uguard", False):
                f.write("  guard UP\n")
            if getattr(fm, "late", False):
                f.write("  parse late\n")
            f.write("  text  %s\n" % json.dumps(tmpl_str(fm.tmpl)))
            for i, fl in enumerate(fm.fields):
                line = "  f%d %s %s" % (i, fl.kind, _bits_str(fl.bits))
                if fl.signed:
                    line += " signed"
                if fl.pcrel:
                    line += " pcrel"
                if fl.optplus:
                    line += " optplus"
                if fl.scale != 1:
                    line += " scale=%d" % fl.scale
                if fl.orval:
                    line += " or=0x%x" % fl.orval
                if fl.kind == "ENUM":
                    line += " =" + "".join(" !" if t is None else " " + json.dumps(t) for t in fl.table)
                f.write(line + "\n")
            f.write("end\n")


def read(path):
    forms, fm = [], None
    for ln in open(path):
        ln = ln.rstrip("\n")
        if not ln or ln.startswith("#"):
            continue
        if ln.startswith("form "):
            fm = Form(0, ln[5:])
            continue
        if ln == "end":
            forms.append(fm); fm = None
            continue
        key, rest = ln.strip().split(" ", 1)
        rest = rest.strip()
        if key in ("seed", "mask", "dflt"):
            p = rest.split()
            v = int(p[0], 16) | int(p[1], 16) << 64
            if key == "seed":
                fm.seed, fm.addr = v, int(p[2][1:], 16)
            else:
                setattr(fm, key, v)
        elif key == "guard":
            fm.uguard = rest == "UP"
        elif key == "parse":
            fm.late = rest == "late"
        elif key == "text":
            fm.tmpl = tmpl_parse(json.loads(rest))
        else:
            table = None
            if " = " in rest or rest.endswith(" ="):
                rest, tab = rest.split(" =", 1)
                table = json.loads("[" + ",".join(
                    "null" if t == "!" else t for t in _split_strings(tab)) + "]")
            p = rest.split()
            kw = {"signed": "signed" in p, "pcrel": "pcrel" in p, "optplus": "optplus" in p,
                  "table": table}
            for x in p[2:]:
                if x.startswith("scale="):
                    kw["scale"] = int(x[6:])
                if x.startswith("or="):
                    kw["orval"] = int(x[3:], 16)
            fm.fields.append(Field(p[0], _bits_parse(p[1]), **kw))
    return forms


def _split_strings(s):
    """' "a" ! "b c"' -> ['"a"', '!', '"b c"'] (JSON strings or !)."""
    out, i = [], 0
    dec = json.JSONDecoder()
    while i < len(s):
        if s[i] == " ":
            i += 1
        elif s[i] == "!":
            out.append("!"); i += 1
        else:
            v, j = dec.raw_decode(s, i)
            out.append(json.dumps(v)); i = j
    return out
