/* tests/abi/check.h - the check counter shared by the C ABI tests: every check counts a pass
 * or prints one line naming file:line, the context set by set_ctx, what was checked, and got vs
 * expected. Each test prints "<name>: N passed, M failed" itself and exits 0 only when M is 0.
 * Also the creation-check macros, SENTINEL, refcount() and under_valgrind(). Include it after
 * the D3D12 headers (COBJMACROS in C; C++ tests include it too). One translation unit per test program: the definitions are static. */
#ifndef RD3D12_TESTS_ABI_CHECK_H
#define RD3D12_TESTS_ABI_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned g_passed, g_failed;
static char g_ctx[200];

static inline void set_ctx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void set_ctx(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_ctx, sizeof(g_ctx), fmt, ap);
    va_end(ap);
}

static inline void fail_prefix(const char *file, int line, const char *what)
{
    g_failed++;
    if (g_ctx[0])
        printf("%s:%d: [%s] %s: ", file, line, g_ctx, what);
    else
        printf("%s:%d: %s: ", file, line, what);
}

static inline void check_true(const char *file, int line, const char *what, int ok)
{
    if (ok) {
        g_passed++;
        return;
    }
    fail_prefix(file, line, what);
    printf("got false, expected true\n");
}

static inline void check_u64(const char *file, int line, const char *what, unsigned long long got,
                      unsigned long long expected)
{
    if (got == expected) {
        g_passed++;
        return;
    }
    fail_prefix(file, line, what);
    printf("got %llu (0x%llx), expected %llu (0x%llx)\n", got, got, expected, expected);
}

static inline void check_hr(const char *file, int line, const char *what, HRESULT got, HRESULT expected)
{
    if (got == expected) {
        g_passed++;
        return;
    }
    fail_prefix(file, line, what);
    printf("got HRESULT 0x%08x, expected 0x%08x\n", (unsigned)got, (unsigned)expected);
}

static inline void check_ptr(const char *file, int line, const char *what, const void *got,
                      const void *expected)
{
    if (got == expected) {
        g_passed++;
        return;
    }
    fail_prefix(file, line, what);
    printf("got %p, expected %p\n", got, expected);
}

#define CHECK(cond) check_true(__FILE__, __LINE__, #cond, !!(cond))
#define CHECK_EQ(got, expected) \
    check_u64(__FILE__, __LINE__, #got, (unsigned long long)(got), (unsigned long long)(expected))
#define CHECK_HR(got, expected) check_hr(__FILE__, __LINE__, #got, (got), (expected))
#define CHECK_PTR(got, expected) \
    check_ptr(__FILE__, __LINE__, #got, (const void *)(got), (const void *)(expected))

/* A non-NULL value written into out-pointers before a call that must overwrite them. */
#define SENTINEL ((void *)(uintptr_t)0x5a5a5a5a)

/* A creation call that must fail with `expected` and leave *ppv NULL. */
#define CHECK_FAILS(expr, obj, expected)                                                        \
    do {                                                                                        \
        (obj) = SENTINEL;                                                                       \
        HRESULT hr_ = (expr);                                                                   \
        check_hr(__FILE__, __LINE__, #expr, hr_, (expected));                                   \
        check_ptr(__FILE__, __LINE__, #obj " after a failed call", (const void *)(obj), NULL);  \
        if (SUCCEEDED(hr_) && (obj) && (void *)(obj) != SENTINEL)                               \
            IUnknown_Release((IUnknown *)(obj));                                                \
        (obj) = NULL;                                                                           \
    } while (0)

/* A creation call that must succeed with S_OK and give a non-NULL object. */
#define CHECK_CREATED(expr, obj)                                                                \
    do {                                                                                        \
        (obj) = SENTINEL;                                                                       \
        HRESULT hr_ = (expr);                                                                   \
        check_hr(__FILE__, __LINE__, #expr, hr_, S_OK);                                         \
        if (FAILED(hr_) || (void *)(obj) == SENTINEL)                                           \
            (obj) = NULL;                                                                       \
        check_true(__FILE__, __LINE__, #obj " != NULL", (obj) != NULL);                         \
    } while (0)

/* The last reference: Release must return 0. */
#define RELEASE0(obj)                                                                           \
    do {                                                                                        \
        if (obj)                                                                                \
            CHECK_EQ(IUnknown_Release((IUnknown *)(obj)), 0);                                   \
        (obj) = NULL;                                                                           \
    } while (0)

/* An object's reference count (AddRef then Release). */
static inline ULONG refcount(void *obj)
{
    IUnknown *u = (IUnknown *)obj;
#ifdef __cplusplus
    u->AddRef();
    return u->Release();
#else
    IUnknown_AddRef(u);
    return IUnknown_Release(u);
#endif
}

/* RD3D12_UNDER_VALGRIND set (and not "0"): loops run fewer iterations. */
static inline int under_valgrind(void)
{
    const char *v = getenv("RD3D12_UNDER_VALGRIND");
    return v && *v && strcmp(v, "0") != 0;
}

#endif
