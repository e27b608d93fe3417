/* The seeded dealer's draw, HMAC-SHA256(seed, key), natively: the compiled build's version of
 * chance.SeededDealer.uniform (the Python there stays the reference; both give the same numbers,
 * tests/engine/test_native_draw.py checks). A draw is two SHA-256 blocks; in Python it also paid
 * for seven method calls and four bytes objects around them, about as much again as the hashing.
 *
 * SHA-256 (FIPS 180-4) in portable C, and with the x86 SHA extensions where the CPU has them
 * (chosen once at import, after checking both agree on a known block).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI_CODE 1
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t H0[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

typedef void (*compress_fn)(uint32_t state[8], const uint8_t block[64]);

static inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t load_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static inline void store_be32(uint8_t *p, uint32_t x) {
    p[0] = (uint8_t)(x >> 24);
    p[1] = (uint8_t)(x >> 16);
    p[2] = (uint8_t)(x >> 8);
    p[3] = (uint8_t)x;
}

static void compress_portable(uint32_t state[8], const uint8_t block[64]) {
    uint32_t w[64];
    for (int t = 0; t < 16; t++) w[t] = load_be32(block + 4 * t);
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

#ifdef HAVE_SHA_NI_CODE
/* The SHA extensions work on the state as two vectors, ABEF and CDGH, and on the message
 * schedule four words at a time: group g's words come from groups g-4 … g-1 (msg1 adds
 * sigma0, the alignr the w[t-7] terms, msg2 sigma1). */
__attribute__((target("sha,sse4.1,ssse3"))) static void compress_sha_ni(uint32_t state[8],
                                                                          const uint8_t block[64]) {
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_loadu_si128((const __m128i *)&state[0]);   /* lanes: A B C D */
    __m128i st1 = _mm_loadu_si128((const __m128i *)&state[4]);   /* lanes: E F G H */
    tmp = _mm_shuffle_epi32(tmp, 0xB1);                            /* B A D C */
    st1 = _mm_shuffle_epi32(st1, 0x1B);                            /* H G F E */
    __m128i st0 = _mm_alignr_epi8(tmp, st1, 8);                    /* F E B A: "ABEF" */
    st1 = _mm_blend_epi16(st1, tmp, 0xF0);                         /* H G D C: "CDGH" */
    const __m128i abef = st0, cdgh = st1;
    __m128i w[4];
    for (int g = 0; g < 16; g++) {
        __m128i msg;
        if (g < 4) {
            w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 16 * g)), bswap);
        } else {
            __m128i m = _mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]);
            m = _mm_add_epi32(m, _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));
            w[g & 3] = _mm_sha256msg2_epu32(m, w[(g + 3) & 3]);
        }
        msg = _mm_add_epi32(w[g & 3], _mm_loadu_si128((const __m128i *)&K[4 * g]));
        st1 = _mm_sha256rnds2_epu32(st1, st0, msg);
        st0 = _mm_sha256rnds2_epu32(st0, st1, _mm_shuffle_epi32(msg, 0x0E));
    }
    st0 = _mm_add_epi32(st0, abef);
    st1 = _mm_add_epi32(st1, cdgh);
    tmp = _mm_shuffle_epi32(st0, 0x1B);                            /* A B E F */
    st1 = _mm_shuffle_epi32(st1, 0xB1);                            /* G H C D */
    st0 = _mm_blend_epi16(tmp, st1, 0xF0);                         /* A B C D */
    st1 = _mm_alignr_epi8(st1, tmp, 8);                            /* E F G H */
    _mm_storeu_si128((__m128i *)&state[0], st0);
    _mm_storeu_si128((__m128i *)&state[4], st1);
}

static int cpu_has_sha_ni(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    int sha = (b >> 29) & 1;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
    return sha && ssse3 && sse41;
}
#endif

static compress_fn compress = compress_portable;
static const char *backend = "portable";

/* SHA-256 of `prefix_state` (the state after whole 64-byte blocks of `done` bytes) continued
 * with `data`: the final state, not yet serialised. */
static void finish(uint32_t state[8], uint64_t done, const uint8_t *data, size_t len, compress_fn f) {
    uint64_t bits = (done + len) * 8;
    while (len >= 64) {
        f(state, data);
        data += 64;
        len -= 64;
    }
    uint8_t block[128];
    memset(block, 0, sizeof block);
    memcpy(block, data, len);
    block[len] = 0x80;
    size_t blocks = len < 56 ? 1 : 2;
    for (int i = 0; i < 8; i++) block[64 * blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
    f(state, block);
    if (blocks == 2) f(state, block + 64);
}

/* states(block: bytes) -> bytes: the padded key's inner and outer hash states (64 bytes). */
static PyObject *hmac_states(PyObject *Py_UNUSED(self), PyObject *arg) {
    if (!PyBytes_Check(arg) || PyBytes_GET_SIZE(arg) != 64) {
        PyErr_SetString(PyExc_ValueError, "states() takes the 64-byte padded key");
        return NULL;
    }
    const uint8_t *key = (const uint8_t *)PyBytes_AS_STRING(arg);
    uint8_t pad[64];
    uint32_t st[16];
    memcpy(st, H0, sizeof H0);
    memcpy(st + 8, H0, sizeof H0);
    for (int i = 0; i < 64; i++) pad[i] = key[i] ^ 0x36;
    compress(st, pad);
    for (int i = 0; i < 64; i++) pad[i] = key[i] ^ 0x5c;
    compress(st + 8, pad);
    return PyBytes_FromStringAndSize((const char *)st, sizeof st);
}

/* uniform(states: bytes, key: str, n: int) -> int: the first 8 bytes of HMAC(seed, key), big
 * endian, modulo n (as Python's `%`: any int n, its errors included). */
static PyObject *hmac_uniform(PyObject *Py_UNUSED(self), PyObject *const *args,
                              Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "uniform() takes (states, key, n)");
        return NULL;
    }
    PyObject *states = args[0], *key = args[1], *n = args[2];
    if (!PyBytes_Check(states) || PyBytes_GET_SIZE(states) != 64) {
        PyErr_SetString(PyExc_ValueError, "uniform() takes the 64 bytes states() made");
        return NULL;
    }
    if (!PyLong_Check(n)) {
        PyErr_SetString(PyExc_TypeError, "uniform(): n must be an int");
        return NULL;
    }
    Py_ssize_t len;
    const char *text = PyUnicode_AsUTF8AndSize(key, &len);
    if (text == NULL) return NULL;
    uint32_t st[16];
    memcpy(st, PyBytes_AS_STRING(states), sizeof st);
    finish(st, 64, (const uint8_t *)text, (size_t)len, compress);
    uint8_t inner[32];
    for (int i = 0; i < 8; i++) store_be32(inner + 4 * i, st[i]);
    finish(st + 8, 64, inner, sizeof inner, compress);
    uint64_t x = ((uint64_t)st[8] << 32) | st[9];
    int overflow = 0;
    long long m = PyLong_AsLongLongAndOverflow(n, &overflow);
    if (m > 0 && !overflow) return PyLong_FromUnsignedLongLong(x % (uint64_t)m);
    if (m == -1 && PyErr_Occurred()) return NULL;
    PyObject *big = PyLong_FromUnsignedLongLong(x);
    if (big == NULL) return NULL;
    PyObject *r = PyNumber_Remainder(big, n);
    Py_DECREF(big);
    return r;
}

/* sha256(data: bytes, portable: bool) -> bytes: plain SHA-256 through one compression, for the
 * tests that hold each against hashlib. */
static PyObject *sha256(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "sha256() takes (data: bytes, portable: bool)");
        return NULL;
    }
    int portable = PyObject_IsTrue(args[1]);
    if (portable < 0) return NULL;
    uint32_t st[8];
    memcpy(st, H0, sizeof H0);
    finish(st, 0, (const uint8_t *)PyBytes_AS_STRING(args[0]), (size_t)PyBytes_GET_SIZE(args[0]),
           portable ? compress_portable : compress);
    uint8_t out[32];
    for (int i = 0; i < 8; i++) store_be32(out + 4 * i, st[i]);
    return PyBytes_FromStringAndSize((const char *)out, 32);
}

static PyMethodDef methods[] = {
    {"states", hmac_states, METH_O, "The padded key's inner and outer SHA-256 states."},
    {"uniform", (PyCFunction)(void (*)(void))hmac_uniform, METH_FASTCALL,
     "HMAC-SHA256(seed, key)'s first 8 bytes, big endian, modulo n."},
    {"sha256", (PyCFunction)(void (*)(void))sha256, METH_FASTCALL,
     "SHA-256 of data, through the portable compression or the one chosen at import."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_hmac_draw",
    .m_doc = "The seeded dealer's HMAC-SHA256 draw in C (the compiled build's; chance.py holds "
             "the reference).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__hmac_draw(void) {
#ifdef HAVE_SHA_NI_CODE
    if (cpu_has_sha_ni()) {
        /* Only trusted once it agrees with the portable code on a block. */
        uint8_t block[64];
        uint32_t a[8], b[8];
        for (int i = 0; i < 64; i++) block[i] = (uint8_t)(i * 37 + 11);
        memcpy(a, H0, sizeof H0);
        memcpy(b, H0, sizeof H0);
        compress_portable(a, block);
        compress_sha_ni(b, block);
        if (memcmp(a, b, sizeof a) == 0) {
            compress = compress_sha_ni;
            backend = "sha-ni";
        }
    }
#endif
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddStringConstant(m, "BACKEND", backend) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
