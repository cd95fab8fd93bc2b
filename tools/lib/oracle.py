"""oracle.py -- batch access to nvdisasm in raw mode (-b SMxx).

disasm(arch, words, base=0) -> list of text or None per word, where text is
the instruction text between the address comment and ' ;' (trimmed), and
None means nvdisasm rejected the word.  Invalid words are found from the
error messages, replaced by NOPs and the batch is run again (a single bad
word makes nvdisasm print no listing at all)."""
import os, re, struct, subprocess, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NVDISASM = os.environ.get("NVDISASM", os.path.join(ROOT, "oracle", "nvdisasm"))
NOP = (0x0000000000007918, 0x000fc00000000000)
_line = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;\s*(?:/\*.*)?$")
_bad = re.compile(r"at address 0x([0-9a-f]+)")


def available():
    return os.access(NVDISASM, os.X_OK)


def _run(arch, blob, base):
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(blob)
        path = f.name
    try:
        r = subprocess.run([NVDISASM, "-b", arch, "-base", hex(base), path],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    return r


def disasm(arch, words, base=0, chunk=4096):
    out = []
    for i in range(0, len(words), chunk):
        out += _disasm(arch, words[i:i + chunk], base + 16 * i)
    return out


def _disasm(arch, words, base):
    words = list(words)
    bad = set()
    for _ in range(8):
        blob = b"".join(struct.pack("<QQ", *(NOP if k in bad else w))
                        for k, w in enumerate(words))
        r = _run(arch, blob, base)
        newbad = {(int(m, 16) - base) // 16 for m in _bad.findall(r.stderr)}
        newbad -= bad
        if r.returncode == 0 and not newbad:
            break
        if not newbad:
            raise RuntimeError("nvdisasm failed: " + r.stderr[:500])
        bad |= newbad
    texts = {}
    for ln in r.stdout.splitlines():
        m = _line.match(ln)
        if m:
            texts[(int(m.group(1), 16) - base) // 16] = m.group(2)
    return [None if k in bad else texts.get(k) for k in range(len(words))]


_hex1 = re.compile(r"^\s*/\*([0-9a-f]+)\*/\s*(.*?)\s*;\s*/\* (0x[0-9a-f]{16}) \*/\s*$")
_hex2 = re.compile(r"^\s*/\* (0x[0-9a-f]{16}) \*/\s*$")


def cubin_words(cubin):
    """(address, text, lo, hi) of every instruction of a cubin, from
    `nvdisasm -c -hex` (isa-tex, isa-gaps)."""
    txt = subprocess.run([NVDISASM, "-c", "-hex", cubin], capture_output=True, text=True, check=True).stdout
    cur = None
    for line in txt.splitlines():
        m = _hex1.match(line)
        if m:
            cur = (int(m.group(1), 16), m.group(2), int(m.group(3), 16))
            continue
        m = _hex2.match(line)
        if m and cur:
            yield cur[0], cur[1], cur[2], int(m.group(1), 16)
            cur = None
