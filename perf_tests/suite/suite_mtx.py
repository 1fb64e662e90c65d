"""Fast, exact Matrix Market text for the unstructured suite (numpy only).

Formatting a double with repr() or '%.17g' costs about 0.5 us in CPython, which makes text
output the slowest part of a suite of ~100 M entries. This module formats whole chunks with
numpy integer arithmetic instead:

* ``round_to_decimal`` rounds values to 15 significant decimal digits. The generators apply it
  to every matrix before checking and writing it, so the matrix they check is the one in the file.
* ``format_entries`` writes a value as ``d.dddddddddddddde+XX`` from its 15-digit integer
  mantissa M and exponent, and keeps this form only where M / 10^s (or M * 10^-s), one correctly
  rounded IEEE operation with an exact power of ten, gives back the value bit for bit: that is
  exactly what a correctly rounded reader (strtod, from_chars) computes from the text. Any other
  value (more digits, zero, extreme exponents) is written with repr(), which also round-trips.

So every value reads back bit-identical, whatever the input; rounded values just take the fast
path. ``read_matrix_market`` is a small reader for the checks (it uses Python's float parsing).
"""

import os
import sys

import numpy as np
import scipy.sparse as sp

DIGITS = 15  # significant digits; 10**15 < 2**53, so the mantissa is an exact double
_POW_BIAS = 400
# nearest doubles to 10^k, k = -400..400 (0 and inf past the range); exact for |k| <= 22
_POW10 = np.array([float("1e%d" % k) for k in range(-_POW_BIAS, _POW_BIAS + 1)])
_EXACT_POW = 22
_LOG10_2 = 0.30102999566398120
_CHUNK = 1 << 16  # entries formatted at once: small enough to stay in cache


def _pow10(k):
    return _POW10[np.clip(k, -_POW_BIAS, _POW_BIAS) + _POW_BIAS]


def _mantissa_exponent(values):
    """Integer mantissa M (|M| in [10^14, 10^15)) and scale s with values ~ M * 10^-s."""
    a = np.abs(values)
    e2 = ((values.view(np.int64) >> 52) & 0x7FF) - 1023  # binary exponent
    k = np.floor(e2 * _LOG10_2).astype(np.int64)  # floor(log10 a) is k or k + 1
    k += a >= _pow10(k + 1)
    s = (DIGITS - 1) - k
    m = np.rint(values * _pow10(s))
    # guard the digit count (10^k is rounded for large |k|)
    high = np.abs(m) >= 10.0**DIGITS
    low = (np.abs(m) < 10.0 ** (DIGITS - 1)) & (a > 0)
    fix = high | low
    if fix.any():
        s[high] -= 1
        s[low] += 1
        m[fix] = np.rint(values[fix] * _pow10(s[fix]))
    return m, s


def _from_decimal(m, s):
    """M * 10^-s as a correctly rounded double where |s| <= 22 (NaN elsewhere): one IEEE
    operation with an exact power of ten, which is what a correctly rounded reader computes."""
    out = np.where(s >= 0, m / _pow10(s), m * _pow10(-s))
    out[np.abs(s) > _EXACT_POW] = np.nan
    return out


def round_to_decimal(values):
    """Values rounded to DIGITS significant digits, each exactly what its text reads back as.

    Values too large or too small for the exact path (|s| > 22) are returned unchanged.
    """
    values = np.asarray(values, dtype=np.float64)
    with np.errstate(all="ignore"):
        m, s = _mantissa_exponent(values)
        rounded = _from_decimal(m, s)
    return np.where(np.isnan(rounded) | (values == 0), values, rounded)


if sys.byteorder != "little":
    raise ImportError("suite_mtx builds text from little-endian words")

_U = np.uint64
_ASCII_ZERO = _U(0x3030303030303030)
# masks that clear the `k` lowest bytes of a word
_CLEAR_LOW = np.array([((1 << 64) - 1) ^ ((1 << (8 * k)) - 1) for k in range(9)], dtype=np.uint64)
# masks of the value words that drop `tz` trailing zero fraction digits (and '.', at tz = 14)
_DROP_A, _DROP_B, _DROP_C = (np.zeros(DIGITS, dtype=np.uint64) for _ in range(3))


def _init_drop_masks():
    # fraction digit f = 1..14 sits in word a byte 3+f (f <= 4), b byte f-5 (f <= 12), c byte f-13
    for tz in range(DIGITS):
        masks = [(1 << 64) - 1] * 3
        for f in range(DIGITS - tz, DIGITS):
            word, byte = (0, 3 + f) if f <= 4 else (1, f - 5) if f <= 12 else (2, f - 13)
            masks[word] &= ~(0xFF << (8 * byte))
        if tz == DIGITS - 1:
            masks[0] &= ~(0xFF << 24)  # no fraction digit left: no '.'
        _DROP_A[tz], _DROP_B[tz], _DROP_C[tz] = masks


_init_drop_masks()


def _encode8(x):
    """Raw decimal digits (0-9, not yet ASCII) of uint64 x < 10^8, one per byte, most
    significant in the lowest byte: a SWAR split 8 -> 4+4 -> 2+2 -> 1+1 by multiply-shift
    divisions that are exact in these ranges (x // 10^4 checked for all x < 10^8)."""
    q = (x * _U(879609303)) >> _U(43)  # x // 10000
    t = q | ((x - q * _U(10000)) << _U(32))
    q = ((t * _U(10486)) >> _U(20)) & _U(0x0000007F0000007F)  # each 32-bit lane // 100
    t = q | ((t - q * _U(100)) << _U(16))
    q = ((t * _U(103)) >> _U(10)) & _U(0x000F000F000F000F)  # each 16-bit lane // 10
    return q | ((t - q * _U(10)) << _U(8))


def _bit_index(x):
    """floor(log2 x) of uint64 x > 0 whose 53 leading bits are not all ones (-1023 for 0)."""
    return (x.astype(np.float64).view(np.int64) >> 52) - 1023


def _integer_word(x):
    """ASCII digits of uint64 0 < x < 10^7 in one word, leading zeros as NUL (byte 0 always NUL)."""
    raw = _encode8(x)
    leading_zero_bytes = _bit_index(raw & (~raw + _U(1))) >> 3  # lowest nonzero digit byte
    return (raw + _ASCII_ZERO) & _CLEAR_LOW[leading_zero_bytes]


def _format_chunk(rows1, cols1, values):
    """Bytes of 'row col value\\n' lines for one chunk (1-based indices < 10^7 given).

    Each line is built as six little-endian words, NUL-padded, and the NULs are dropped at the
    end: [row digits][' ' col digits][' ' sign d0 '.' d1-d4][d5-d12][d13 d14 'e' sign e e '\\n'][].
    """
    n = len(values)
    words = np.zeros((n, 6), dtype=np.uint64)
    words[:, 0] = _integer_word(rows1.astype(np.uint64))
    words[:, 1] = _integer_word(cols1.astype(np.uint64)) | _U(ord(" "))

    m, s = _mantissa_exponent(values)
    fast = (_from_decimal(m, s) == values) & (values != 0)
    mag = np.where(fast, np.abs(m), 1e14).astype(np.uint64)
    hi = mag // _U(10**8)  # d0-d6, d0 > 0
    lo = mag - hi * _U(10**8)  # d7-d14
    raw_hi, raw_lo = _encode8(hi), _encode8(lo)
    # trailing zero fraction digits: those of lo, or 8 + those of hi when lo = 0
    # (digit bytes have their top nibble clear, so _bit_index is exact on them)
    lo_bytes = np.maximum((_bit_index(raw_lo) >> 3) + 1, 0)  # bytes up to the last nonzero digit
    hi_bytes = (_bit_index(raw_hi) >> 3) + 1
    tz = np.where(lo_bytes > 0, 8 - lo_bytes, 16 - hi_bytes)
    asc_hi, asc_lo = raw_hi + _ASCII_ZERO, raw_lo + _ASCII_ZERO
    sign = np.where(m < 0, _U(ord("-") << 8), _U(0))
    words[:, 2] = ((_U(ord(" ")) | sign | ((asc_hi & _U(0xFF00)) << _U(8)) | _U(ord(".") << 24)
                    | ((asc_hi & _U(0x0000FFFFFFFF0000)) << _U(16))) & _DROP_A[tz])
    words[:, 3] = ((asc_hi >> _U(48)) | (asc_lo << _U(16))) & _DROP_B[tz]
    e = (DIGITS - 1) - s
    ae = np.abs(e).astype(np.uint64) % _U(100)
    words[:, 4] = (((asc_lo >> _U(48)) & _DROP_C[tz]) | _U(ord("e") << 16)
                   | (np.where(e < 0, _U(ord("-")), _U(ord("+"))) << _U(24))
                   | ((_U(48) + ae // _U(10)) << _U(32)) | ((_U(48) + ae % _U(10)) << _U(40))
                   | _U(ord("\n") << 48))
    slow = np.flatnonzero(~fast)
    if len(slow):
        text = [(" %r\n" % float(v)).encode() for v in values[slow]]
        words[slow, 2:] = np.array(text, dtype="S32").view(np.uint64).reshape(len(slow), 4)
    flat = words.view(np.uint8).ravel()
    return flat[flat != 0].tobytes()


def format_entries(rows1, cols1, values):
    """Bytes of 'row col value\\n' lines, 1-based indices (< 10^7) given, formatted in
    cache-sized chunks."""
    if len(values) and max(rows1.max(), cols1.max()) >= 10**7:
        raise ValueError("indices of 10^7 and more are not supported")
    with np.errstate(all="ignore"):
        return b"".join(
            _format_chunk(rows1[i : i + _CHUNK], cols1[i : i + _CHUNK], values[i : i + _CHUNK])
            for i in range(0, len(values), _CHUNK))


def write_matrix_market(path, matrix, symmetric, comments=()):
    """Write a canonical CSR matrix; symmetric=True writes the lower triangle only.

    The file appears under its name only once complete (written beside it, then renamed).
    Returns the number of entries written.
    """
    a = sp.csr_matrix(matrix)
    n_rows, n_cols = a.shape
    rows = np.repeat(np.arange(n_rows, dtype=np.int64), np.diff(a.indptr))
    cols = a.indices.astype(np.int64)
    vals = a.data
    if symmetric:
        keep = cols <= rows
        rows, cols, vals = rows[keep], cols[keep], vals[keep]
    symmetry = "symmetric" if symmetric else "general"
    banner = "%%%%MatrixMarket matrix coordinate real %s\n" % symmetry
    header = banner + "".join("%% %s\n" % c for c in comments)
    header += "%d %d %d\n" % (n_rows, n_cols, len(vals))
    tmp = path + ".part"
    with open(tmp, "wb") as f:
        f.write(header.encode())
        step = 1 << 22
        for start in range(0, len(vals), step):
            stop = start + step
            f.write(format_entries(rows[start:stop] + 1, cols[start:stop] + 1, vals[start:stop]))
    os.replace(tmp, path)
    return len(vals)


def read_matrix_market(path):
    """Read a coordinate real file written above (general or symmetric) into canonical CSR."""
    with open(path) as f:
        symmetric = "symmetric" in f.readline().lower()
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        n_rows, n_cols, n_entries = (int(t) for t in line.split())
        tokens = f.read().split()
    rows = np.array(tokens[0::3], dtype=np.int64) - 1
    cols = np.array(tokens[1::3], dtype=np.int64) - 1
    vals = np.array([float(t) for t in tokens[2::3]])
    assert len(vals) == n_entries, path
    if symmetric:
        off = rows != cols
        rows, cols, vals = (np.concatenate([rows, cols[off]]), np.concatenate([cols, rows[off]]),
                            np.concatenate([vals, vals[off]]))
    a = sp.csr_matrix((vals, (rows, cols)), shape=(n_rows, n_cols))
    a.sum_duplicates()
    return a
