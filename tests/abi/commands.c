/* tests/abi/commands.c - ABI test of command execution in libd3d12.so, written the way a C program
 * compiled against Microsoft's DirectX-Headers calls the runtime: CINTERFACE + COBJMACROS, IIDs
 * from libDirectX-Guids.a.
 *
 * Covers copies (CopyTextureRegion with placed footprints, CopyBufferRegion, CopyResource, boxes,
 * subresources, BC formats) checked byte for byte through READBACK buffers; the validation of
 * copies and barriers (Close → E_INVALIDARG); the command list / allocator / queue lifecycle and
 * device removal by invalid ExecuteCommandLists (in a second process); fences (CPU and queue
 * Signal, SetEventOnCompletion with eventfd and NULL events, SetEventOnMultipleFenceCompletion);
 * two queues synchronised by fences; queries and timestamps; WriteBufferImmediate, atomic copies
 * and predication; reserved buffers mapped by UpdateTileMappings; clears of render-target,
 * depth-stencil and unordered-access views read back through copies. Expected values are Microsoft's
 * (learn.microsoft.com, d3d12.h) as digested in shared/spec/commands-and-sync.md; where a check
 * encodes a documented rule that the runtime contradicts, the comment says so.
 *
 * Build and run (see tests/abi/README.md):
 *   gcc -std=c11 -Wall -Werror -DCINTERFACE -DCOBJMACROS -pthread -I/usr/include/directx \
 *       -I/usr/include/wsl/stubs -I/usr/include/wsl -I/usr/include tests/abi/commands.c \
 *       -o $OUT/commands_c -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR \
 *       /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
 *
 * Run without arguments. The program re-executes itself (/proc/self/exe with "--child MODE") to
 * remove a device by an invalid ExecuteCommandLists in a second process; that mode is internal.
 *
 * Every check prints one line when it fails (file:line, what, got vs expected); the last line is
 * "commands_c: N passed, M failed" and the exit status is 0 only when M is 0. With
 * RD3D12_UNDER_VALGRIND set, loops run fewer iterations. */
#define _GNU_SOURCE
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the check counter: check.h, plus this file's own checks ---------------------------- */

#include "check.h"
/* "commands_c", or "commands_c child (mode)" in the second process. */
static const char *g_name = "commands_c";

/* Byte-for-byte comparison; a failure names the first differing byte. */
static void check_bytes(const char *file, int line, const char *what, const unsigned char *got,
                        const unsigned char *expected, size_t n)
{
    size_t i = 0;
    while (i < n && got[i] == expected[i])
        i++;
    if (i == n) {
        g_passed++;
        return;
    }
    size_t bad = 0;
    for (size_t j = i; j < n; j++)
        bad += got[j] != expected[j];
    fail_prefix(file, line, what);
    printf("%zu of %zu bytes differ, first at %zu: got 0x%02x, expected 0x%02x\n", bad, n, i, got[i],
           expected[i]);
}

#define CHECK_BYTES(what, got, expected, n) check_bytes(__FILE__, __LINE__, what, got, expected, n)

static UINT64 mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (UINT64)ts.tv_sec * 1000000000ull + (UINT64)ts.tv_nsec;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* ---- resources ------------------------------------------------------------------------------ */

static ID3D12Device *dev;

static D3D12_HEAP_PROPERTIES hprops(D3D12_HEAP_TYPE type)
{
    D3D12_HEAP_PROPERTIES p;
    memset(&p, 0, sizeof(p));
    p.Type = type;
    return p;
}

static D3D12_RESOURCE_DESC buf_desc(UINT64 width)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Width = width;
    d.Height = 1;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = DXGI_FORMAT_UNKNOWN;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return d;
}

static D3D12_RESOURCE_DESC tex_desc(DXGI_FORMAT format, UINT64 width, UINT height, UINT16 array, UINT16 mips,
                                    UINT64 alignment)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Alignment = alignment;
    d.Width = width;
    d.Height = height;
    d.DepthOrArraySize = array;
    d.MipLevels = mips;
    d.Format = format;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    return d;
}

/* The state a committed buffer starts in on each heap type. */
static D3D12_RESOURCE_STATES heap_state(D3D12_HEAP_TYPE type)
{
    return type == D3D12_HEAP_TYPE_UPLOAD     ? D3D12_RESOURCE_STATE_GENERIC_READ
           : type == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
                                              : D3D12_RESOURCE_STATE_COMMON;
}

static ID3D12Resource *make_committed(D3D12_HEAP_TYPE type, const D3D12_RESOURCE_DESC *d, D3D12_RESOURCE_STATES st)
{
    D3D12_HEAP_PROPERTIES p = hprops(type);
    ID3D12Resource *r;
    CHECK_CREATED(ID3D12Device_CreateCommittedResource(dev, &p, D3D12_HEAP_FLAG_NONE, d, st, NULL,
                                                       &IID_ID3D12Resource, (void **)&r),
                  r);
    return r;
}

static ID3D12Resource *make_buffer(D3D12_HEAP_TYPE type, UINT64 width)
{
    D3D12_RESOURCE_DESC d = buf_desc(width);
    return make_committed(type, &d, heap_state(type));
}

static ID3D12Resource *make_texture(const D3D12_RESOURCE_DESC *d)
{
    return make_committed(D3D12_HEAP_TYPE_DEFAULT, d, D3D12_RESOURCE_STATE_COMMON);
}

static unsigned char *map_buf(ID3D12Resource *r)
{
    void *p = NULL;
    if (!r)
        return NULL;
    HRESULT hr = ID3D12Resource_Map(r, 0, NULL, &p);
    check_hr(__FILE__, __LINE__, "Map(0, NULL, &p)", hr, S_OK);
    return SUCCEEDED(hr) ? (unsigned char *)p : NULL;
}

static void unmap_buf(ID3D12Resource *r)
{
    if (r)
        ID3D12Resource_Unmap(r, 0, NULL);
}

/* An UPLOAD buffer holding `n` bytes of `data`. */
static ID3D12Resource *upload_of(const void *data, UINT64 n)
{
    ID3D12Resource *r = make_buffer(D3D12_HEAP_TYPE_UPLOAD, n);
    unsigned char *m = map_buf(r);
    if (m) {
        memcpy(m, data, n);
        unmap_buf(r);
    }
    return r;
}

/* Copies `n` bytes at `off` of a READBACK buffer into `out` (zeros when it cannot be mapped). */
static void read_buf(ID3D12Resource *r, UINT64 off, void *out, UINT64 n)
{
    memset(out, 0, n);
    unsigned char *m = map_buf(r);
    if (m) {
        memcpy(out, m + off, n);
        D3D12_RANGE none = {0, 0};
        ID3D12Resource_Unmap(r, 0, &none);
    }
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (unsigned char)(x >> 16);
    }
}

/* A texel of the 32x32 RGBA8 seed pattern: every texel differs (R = x, G = y). */
static void seed_texel(unsigned char *t, unsigned x, unsigned y, unsigned seed)
{
    t[0] = (unsigned char)x;
    t[1] = (unsigned char)y;
    t[2] = (unsigned char)(seed + x * 7 + y * 3);
    t[3] = (unsigned char)(0x80 ^ (x * y) ^ seed);
}

/* The placed footprint of one subresource (GetCopyableFootprints, base offset 0). */
struct footprint {
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp;
    UINT rows;
    UINT64 row_size, total;
};

static struct footprint footprint_of(const D3D12_RESOURCE_DESC *d, UINT sub)
{
    struct footprint f;
    memset(&f, 0, sizeof(f));
    ID3D12Device_GetCopyableFootprints(dev, d, sub, 1, 0, &f.fp, &f.rows, &f.row_size, &f.total);
    return f;
}

static D3D12_TEXTURE_COPY_LOCATION loc_sub(ID3D12Resource *r, UINT sub)
{
    D3D12_TEXTURE_COPY_LOCATION l;
    memset(&l, 0, sizeof(l));
    l.pResource = r;
    l.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    l.SubresourceIndex = sub;
    return l;
}

static D3D12_TEXTURE_COPY_LOCATION loc_fp(ID3D12Resource *r, const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *fp)
{
    D3D12_TEXTURE_COPY_LOCATION l;
    memset(&l, 0, sizeof(l));
    l.pResource = r;
    l.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    l.PlacedFootprint = *fp;
    return l;
}

static D3D12_RESOURCE_BARRIER transition(ID3D12Resource *r, UINT sub, D3D12_RESOURCE_STATES before,
                                         D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER b;
    memset(&b, 0, sizeof(b));
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b.Transition.pResource = r;
    b.Transition.Subresource = sub;
    b.Transition.StateBefore = before;
    b.Transition.StateAfter = after;
    return b;
}

static void barrier(ID3D12GraphicsCommandList *l, ID3D12Resource *r, UINT sub, D3D12_RESOURCE_STATES before,
                    D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER b = transition(r, sub, before, after);
    ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &b);
}

/* ---- a queue with its allocator, list and fence --------------------------------------------- */

struct q {
    D3D12_COMMAND_LIST_TYPE type;
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *list;
    ID3D12Fence *fence;
    UINT64 value;
};

static void q_release(struct q *q)
{
    RELEASE0(q->list);
    RELEASE0(q->alloc);
    RELEASE0(q->fence);
    RELEASE0(q->queue);
}

static ID3D12CommandQueue *make_queue(D3D12_COMMAND_LIST_TYPE type)
{
    D3D12_COMMAND_QUEUE_DESC qd;
    memset(&qd, 0, sizeof(qd));
    qd.Type = type;
    ID3D12CommandQueue *q;
    CHECK_CREATED(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&q), q);
    return q;
}

static ID3D12Fence *make_fence(UINT64 initial)
{
    ID3D12Fence *f;
    CHECK_CREATED(ID3D12Device_CreateFence(dev, initial, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&f), f);
    return f;
}

/* A fresh allocator and a recording list of `type` (both NULL after a failed check). */
static int open_list(D3D12_COMMAND_LIST_TYPE type, ID3D12CommandAllocator **a, ID3D12GraphicsCommandList **l)
{
    *l = NULL;
    CHECK_CREATED(ID3D12Device_CreateCommandAllocator(dev, type, &IID_ID3D12CommandAllocator, (void **)a), *a);
    if (*a)
        CHECK_CREATED(ID3D12Device_CreateCommandList(dev, 0, type, *a, NULL, &IID_ID3D12GraphicsCommandList,
                                                     (void **)l),
                      *l);
    if (*a && *l)
        return 1;
    RELEASE0(*l);
    RELEASE0(*a);
    return 0;
}

/* Returns 1 when every object exists; the list is closed. */
static int q_init(struct q *q, D3D12_COMMAND_LIST_TYPE type)
{
    memset(q, 0, sizeof(*q));
    q->type = type;
    q->queue = make_queue(type);
    if (open_list(type, &q->alloc, &q->list))
        CHECK_HR(ID3D12GraphicsCommandList_Close(q->list), S_OK);
    q->fence = make_fence(0);
    if (q->queue && q->alloc && q->list && q->fence)
        return 1;
    q_release(q);
    return 0;
}

/* Resets the allocator and the list; returns the recording list or NULL. */
static ID3D12GraphicsCommandList *q_begin(struct q *q)
{
    CHECK_HR(ID3D12CommandAllocator_Reset(q->alloc), S_OK);
    HRESULT hr = ID3D12GraphicsCommandList_Reset(q->list, q->alloc, NULL);
    CHECK_HR(hr, S_OK);
    return SUCCEEDED(hr) ? q->list : NULL;
}

/* Signals the next value on the queue and blocks until the fence reaches it (NULL event). */
static int q_wait(struct q *q)
{
    q->value++;
    CHECK_HR(ID3D12CommandQueue_Signal(q->queue, q->fence, q->value), S_OK);
    /* Docs: "If hEvent is a null handle, then this API will not return until the specified
     * fence value(s) have been reached." */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(q->fence, q->value, NULL), S_OK);
    UINT64 done = ID3D12Fence_GetCompletedValue(q->fence);
    CHECK_EQ(done, q->value);
    return done == q->value;
}

static void execute(ID3D12CommandQueue *queue, ID3D12GraphicsCommandList *l)
{
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)l};
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
}

/* Closes the list (S_OK expected), executes it and waits. */
static int q_submit(struct q *q)
{
    HRESULT hr = ID3D12GraphicsCommandList_Close(q->list);
    CHECK_HR(hr, S_OK);
    if (FAILED(hr))
        return 0;
    execute(q->queue, q->list);
    int ok = q_wait(q);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
    return ok;
}

/* ---- 1. copies that work ------------------------------------------------------------------- */

#define SEED_W 32
#define SEED_H 32
#define SEED_ROW (SEED_W * 4)
#define SEED_PITCH 256
#define SEED_TOTAL (SEED_PITCH * (SEED_H - 1) + SEED_ROW) /* 8064 */

/* The seed image in the 256-pitch footprint layout; padding bytes are 0xee. */
static void seed_upload_image(unsigned char *img, unsigned seed)
{
    memset(img, 0xee, SEED_TOTAL);
    for (unsigned y = 0; y < SEED_H; y++)
        for (unsigned x = 0; x < SEED_W; x++)
            seed_texel(img + y * SEED_PITCH + x * 4, x, y, seed);
}

/* Compares the rows (not the padding) of two 256-pitch 32x32 RGBA8 images. */
static void check_seed_rows(const char *file, int line, const char *what, const unsigned char *got,
                            const unsigned char *want)
{
    unsigned char a[SEED_H * SEED_ROW], b[SEED_H * SEED_ROW];
    for (unsigned y = 0; y < SEED_H; y++) {
        memcpy(a + y * SEED_ROW, got + y * SEED_PITCH, SEED_ROW);
        memcpy(b + y * SEED_ROW, want + y * SEED_PITCH, SEED_ROW);
    }
    check_bytes(file, line, what, a, b, sizeof(a));
}
#define CHECK_SEED_ROWS(what, got, want) check_seed_rows(__FILE__, __LINE__, what, got, want)

/* Upload → texture → readback through 256-pitch footprints in one list: optional aliasing
 * barrier (NULL → tex), copy in (COMMON promotes to COPY_DEST), COPY_DEST → COPY_SOURCE, copy
 * out. */
static void roundtrip_seed(struct q *q, ID3D12Resource *tex, int aliasing, unsigned seed)
{
    D3D12_RESOURCE_DESC td = ID3D12Resource_GetDesc(tex);
    struct footprint f = footprint_of(&td, 0);
    CHECK_EQ(f.fp.Offset, 0);
    CHECK_EQ(f.fp.Footprint.Format, DXGI_FORMAT_R8G8B8A8_UNORM);
    CHECK_EQ(f.fp.Footprint.Width, SEED_W);
    CHECK_EQ(f.fp.Footprint.Height, SEED_H);
    CHECK_EQ(f.fp.Footprint.Depth, 1);
    CHECK_EQ(f.fp.Footprint.RowPitch, SEED_PITCH);
    CHECK_EQ(f.rows, SEED_H);
    CHECK_EQ(f.row_size, SEED_ROW);
    CHECK_EQ(f.total, SEED_TOTAL);

    static unsigned char img[SEED_TOTAL], got[SEED_TOTAL];
    seed_upload_image(img, seed);
    ID3D12Resource *up = upload_of(img, SEED_TOTAL);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, SEED_TOTAL);
    ID3D12GraphicsCommandList *l = up && rb ? q_begin(q) : NULL;
    if (l) {
        if (aliasing) {
            D3D12_RESOURCE_BARRIER b;
            memset(&b, 0, sizeof(b));
            b.Type = D3D12_RESOURCE_BARRIER_TYPE_ALIASING;
            b.Aliasing.pResourceBefore = NULL;
            b.Aliasing.pResourceAfter = tex;
            ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &b);
        }
        D3D12_TEXTURE_COPY_LOCATION dst = loc_sub(tex, 0), src = loc_fp(up, &f.fp);
        ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 0, 0, 0, &src, NULL);
        barrier(l, tex, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        dst = loc_fp(rb, &f.fp);
        src = loc_sub(tex, 0);
        ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 0, 0, 0, &src, NULL);
        barrier(l, tex, 0, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COMMON);
        if (q_submit(q)) {
            read_buf(rb, 0, got, SEED_TOTAL);
            CHECK_SEED_ROWS("32x32 RGBA8 upload → texture → readback", got, img);
        }
    }
    RELEASE0(up);
    RELEASE0(rb);
}

/* Fills subresource `sub` of `tex` from `data` (tightly packed rows) through an UPLOAD buffer and
 * the subresource's footprint; the texture goes back to COMMON. */
static int tex_upload(struct q *q, ID3D12Resource *tex, UINT sub, const unsigned char *data)
{
    D3D12_RESOURCE_DESC td = ID3D12Resource_GetDesc(tex);
    struct footprint f = footprint_of(&td, sub);
    unsigned char *img = calloc(1, f.total);
    int ok = 0;
    for (UINT y = 0; y < f.rows; y++)
        memcpy(img + y * f.fp.Footprint.RowPitch, data + y * f.row_size, f.row_size);
    ID3D12Resource *up = upload_of(img, f.total);
    ID3D12GraphicsCommandList *l = up ? q_begin(q) : NULL;
    if (l) {
        D3D12_TEXTURE_COPY_LOCATION dst = loc_sub(tex, sub), src = loc_fp(up, &f.fp);
        ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 0, 0, 0, &src, NULL);
        barrier(l, tex, sub, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COMMON);
        ok = q_submit(q);
    }
    RELEASE0(up);
    free(img);
    return ok;
}

/* Reads subresource `sub` of `tex` into `out` (tightly packed rows). */
static int tex_readback(struct q *q, ID3D12Resource *tex, UINT sub, unsigned char *out)
{
    D3D12_RESOURCE_DESC td = ID3D12Resource_GetDesc(tex);
    struct footprint f = footprint_of(&td, sub);
    int ok = 0;
    memset(out, 0, f.rows * f.row_size);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, f.total);
    ID3D12GraphicsCommandList *l = rb ? q_begin(q) : NULL;
    if (l) {
        D3D12_TEXTURE_COPY_LOCATION dst = loc_fp(rb, &f.fp), src = loc_sub(tex, sub);
        ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 0, 0, 0, &src, NULL);
        if (q_submit(q)) {
            unsigned char *m = map_buf(rb);
            if (m) {
                for (UINT y = 0; y < f.rows; y++)
                    memcpy(out + y * f.row_size, m + y * f.fp.Footprint.RowPitch, f.row_size);
                unmap_buf(rb);
                ok = 1;
            }
        }
    }
    RELEASE0(rb);
    return ok;
}

/* Writes `n` bytes at `off` of a DEFAULT buffer through an UPLOAD buffer. */
static int buf_upload(struct q *q, ID3D12Resource *dst, UINT64 off, const void *data, UINT64 n)
{
    int ok = 0;
    ID3D12Resource *up = upload_of(data, n);
    ID3D12GraphicsCommandList *l = up ? q_begin(q) : NULL;
    if (l) {
        ID3D12GraphicsCommandList_CopyBufferRegion(l, dst, off, up, 0, n);
        ok = q_submit(q);
    }
    RELEASE0(up);
    return ok;
}

/* Reads `n` bytes at `off` of a buffer through a READBACK buffer. */
static int buf_readback(struct q *q, ID3D12Resource *src, UINT64 off, void *out, UINT64 n)
{
    int ok = 0;
    memset(out, 0, n);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, n);
    ID3D12GraphicsCommandList *l = rb ? q_begin(q) : NULL;
    if (l) {
        ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 0, src, off, n);
        if (q_submit(q)) {
            read_buf(rb, 0, out, n);
            ok = 1;
        }
    }
    RELEASE0(rb);
    return ok;
}

static void test_copies(struct q *q)
{
    ULONG base = refcount(dev);

    /* The seed scenario: a 32x32 RGBA8 texture (Alignment 4096) placed at offset 4096 of a 64 KB
     * DEFAULT heap, made current by an aliasing barrier NULL → texture. */
    set_ctx("seed: placed texture");
    {
        D3D12_HEAP_DESC hd;
        memset(&hd, 0, sizeof(hd));
        hd.SizeInBytes = 65536;
        hd.Properties = hprops(D3D12_HEAP_TYPE_DEFAULT);
        ID3D12Heap *heap;
        CHECK_CREATED(ID3D12Device_CreateHeap(dev, &hd, &IID_ID3D12Heap, (void **)&heap), heap);
        D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, SEED_W, SEED_H, 1, 1, 4096);
        D3D12_RESOURCE_ALLOCATION_INFO ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &td);
        CHECK_EQ(ai.Alignment, 4096);
        ID3D12Resource *tex = NULL;
        if (heap)
            CHECK_CREATED(ID3D12Device_CreatePlacedResource(dev, heap, 4096, &td, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                            &IID_ID3D12Resource, (void **)&tex),
                          tex);
        if (tex)
            roundtrip_seed(q, tex, 1, 17);
        RELEASE0(tex);
        RELEASE0(heap);
    }

    set_ctx("seed: committed texture");
    {
        D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, SEED_W, SEED_H, 1, 1, 0);
        ID3D12Resource *tex = make_texture(&td);
        if (tex)
            roundtrip_seed(q, tex, 0, 29);
        RELEASE0(tex);
    }

    /* CopyBufferRegion UPLOAD → DEFAULT → READBACK, at offsets that need no alignment. */
    set_ctx("CopyBufferRegion");
    {
        unsigned char data[3000], got[3000], want[3000];
        fill_pattern(data, sizeof(data), 3);
        ID3D12Resource *up = upload_of(data, sizeof(data));
        ID3D12Resource *def = make_buffer(D3D12_HEAP_TYPE_DEFAULT, 8192);
        ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 4096);
        ID3D12GraphicsCommandList *l = up && def && rb ? q_begin(q) : NULL;
        if (l) {
            ID3D12GraphicsCommandList_CopyBufferRegion(l, def, 1001, up, 7, 2000);
            /* A write then a read of the same buffer in one list needs a barrier (promotion to
             * COPY_DEST is a write state). */
            barrier(l, def, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
            ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 3, def, 1001, 2000);
            /* NumBytes 0 is a no-op. */
            ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 0, def, 0, 0);
            if (q_submit(q)) {
                read_buf(rb, 0, got, sizeof(got));
                memset(want, 0, sizeof(want));
                memcpy(want + 3, data + 7, 2000);
                CHECK_BYTES("upload[7..2007) → default[1001..) → readback[3..)", got, want, sizeof(want));
            }
        }
        RELEASE0(up);
        RELEASE0(def);
        RELEASE0(rb);
    }

    /* CopyResource of buffers (equal widths). */
    set_ctx("CopyResource buffers");
    {
        unsigned char data[4096], got[4096];
        fill_pattern(data, sizeof(data), 5);
        ID3D12Resource *up = upload_of(data, sizeof(data));
        ID3D12Resource *def = make_buffer(D3D12_HEAP_TYPE_DEFAULT, sizeof(data));
        ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, sizeof(data));
        ID3D12GraphicsCommandList *l = up && def && rb ? q_begin(q) : NULL;
        if (l) {
            ID3D12GraphicsCommandList_CopyResource(l, def, up);
            barrier(l, def, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
            ID3D12GraphicsCommandList_CopyResource(l, rb, def);
            if (q_submit(q)) {
                read_buf(rb, 0, got, sizeof(got));
                CHECK_BYTES("CopyResource upload → default → readback", got, data, sizeof(data));
            }
        }
        RELEASE0(up);
        RELEASE0(def);
        RELEASE0(rb);
    }

    /* CopyResource of textures (2 mips × 2 slices: every subresource), and a box copy into a
     * sub-region of the copy. */
    set_ctx("CopyResource textures");
    {
        D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, SEED_W, SEED_H, 2, 2, 0);
        ID3D12Resource *a = make_texture(&td), *b = make_texture(&td);
        static unsigned char data[4][SEED_W * SEED_H * 4], got[SEED_W * SEED_H * 4];
        int ok = a && b;
        for (UINT s = 0; ok && s < 4; s++) {
            /* Subresource s = mip + slice * 2: mip 0 is 32x32, mip 1 16x16. */
            fill_pattern(data[s], sizeof(data[s]), 40 + s);
            ok = tex_upload(q, a, s, data[s]);
        }
        ID3D12GraphicsCommandList *l = ok ? q_begin(q) : NULL;
        if (l) {
            ID3D12GraphicsCommandList_CopyResource(l, b, a);
            barrier(l, b, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_COPY_DEST,
                    D3D12_RESOURCE_STATE_COMMON);
            ok = q_submit(q);
            for (UINT s = 0; ok && s < 4; s++) {
                UINT w = s & 1 ? 16 : 32;
                set_ctx("CopyResource textures, subresource %u", s);
                if (tex_readback(q, b, s, got))
                    CHECK_BYTES("CopyResource texture → texture", got, data[s], w * w * 4);
            }
        }

        /* A box {8, 4} – {24, 20} of a 256-pitch footprint copied to (2, 6) of subresource 2
         * (mip 0 of slice 1): the rest of the subresource keeps the CopyResource data. */
        set_ctx("box copy into a sub-region");
        static unsigned char img[SEED_TOTAL], want[SEED_W * SEED_H * 4];
        seed_upload_image(img, 91);
        ID3D12Resource *up = ok ? upload_of(img, SEED_TOTAL) : NULL;
        l = up ? q_begin(q) : NULL;
        if (l) {
            struct footprint f = footprint_of(&td, 0);
            D3D12_TEXTURE_COPY_LOCATION dst = loc_sub(b, 2), src = loc_fp(up, &f.fp);
            D3D12_BOX box = {8, 4, 0, 24, 20, 1};
            ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 2, 6, 0, &src, &box);
            barrier(l, b, 2, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COMMON);
            if (q_submit(q) && tex_readback(q, b, 2, got)) {
                memcpy(want, data[2], sizeof(want));
                for (unsigned y = 0; y < 16; y++)
                    memcpy(want + ((6 + y) * SEED_W + 2) * 4, img + (4 + y) * SEED_PITCH + 8 * 4, 16 * 4);
                CHECK_BYTES("box {8,4}-{24,20} at (2,6)", got, want, sizeof(want));
            }
            /* The neighbouring subresources are untouched. */
            if (tex_readback(q, b, 0, got))
                CHECK_BYTES("subresource 0 after the box copy", got, data[0], sizeof(want));
        }
        RELEASE0(up);
        RELEASE0(a);
        RELEASE0(b);
    }

    /* Mip 1 of array slice 1 (subresource 1 + 1 × 2 = 3) alone: the others stay zero. */
    set_ctx("mip 1 / array slice 1");
    {
        D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, SEED_W, SEED_H, 2, 2, 0);
        struct footprint f = footprint_of(&td, 3);
        CHECK_EQ(f.fp.Footprint.Width, 16);
        CHECK_EQ(f.fp.Footprint.Height, 16);
        CHECK_EQ(f.fp.Footprint.RowPitch, 256);
        CHECK_EQ(f.total, 256 * 15 + 64);
        ID3D12Resource *t = make_texture(&td);
        unsigned char data[16 * 16 * 4], got[SEED_W * SEED_H * 4], zero[SEED_W * SEED_H * 4];
        memset(zero, 0, sizeof(zero));
        fill_pattern(data, sizeof(data), 61);
        /* A committed resource's memory starts zeroed (CreateCommittedResource docs: without
         * D3D12_HEAP_FLAG_CREATE_NOT_ZEROED the memory is zero-initialised). */
        if (t && tex_readback(q, t, 3, got))
            CHECK_BYTES("a new committed texture reads zero", got, zero, 16 * 16 * 4);
        if (t && tex_upload(q, t, 3, data)) {
            if (tex_readback(q, t, 3, got))
                CHECK_BYTES("subresource 3", got, data, sizeof(data));
            if (tex_readback(q, t, 1, got))
                CHECK_BYTES("subresource 1 (mip 1, slice 0) stays zero", got, zero, 16 * 16 * 4);
            if (tex_readback(q, t, 2, got))
                CHECK_BYTES("subresource 2 (mip 0, slice 1) stays zero", got, zero, sizeof(zero));
        }
        RELEASE0(t);
    }

    /* BC1: 16x16 = 4x4 blocks of 8 bytes; footprint RowPitch 256, 4 rows of blocks. */
    set_ctx("BC1 copy");
    {
        D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_BC1_UNORM, 16, 16, 1, 1, 0);
        struct footprint f = footprint_of(&td, 0);
        CHECK_EQ(f.fp.Footprint.RowPitch, 256);
        CHECK_EQ(f.rows, 4);
        CHECK_EQ(f.row_size, 32);
        CHECK_EQ(f.total, 256 * 3 + 32);
        ID3D12Resource *t = make_texture(&td);
        unsigned char data[4 * 32], got[4 * 32];
        fill_pattern(data, sizeof(data), 71);
        if (t && tex_upload(q, t, 0, data) && tex_readback(q, t, 0, got))
            CHECK_BYTES("BC1 16x16 upload → texture → readback", got, data, sizeof(data));
        RELEASE0(t);
    }

    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 2. invalid copies and barriers; list, allocator and queue lifecycle ------------------- */

/* Records the statements after `hr` into a fresh list `l` of `type` (its own allocator) and
 * checks what Close returns; the list and the allocator are released. */
#define EXPECT_CLOSE(type, hr, ...)                                                             \
    do {                                                                                        \
        ID3D12CommandAllocator *a_;                                                             \
        ID3D12GraphicsCommandList *l;                                                           \
        if (open_list((type), &a_, &l)) {                                                       \
            __VA_ARGS__;                                                                        \
            check_hr(__FILE__, __LINE__, "Close", ID3D12GraphicsCommandList_Close(l), (hr));    \
            RELEASE0(l);                                                                        \
            RELEASE0(a_);                                                                       \
        }                                                                                       \
    } while (0)
#define DIRECT D3D12_COMMAND_LIST_TYPE_DIRECT

static void copy_tex(ID3D12GraphicsCommandList *l, D3D12_TEXTURE_COPY_LOCATION dst, UINT x, UINT y,
                     D3D12_TEXTURE_COPY_LOCATION src, const D3D12_BOX *box)
{
    ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, x, y, 0, &src, box);
}

static void test_invalid_copies(void)
{
    ULONG base = refcount(dev);
    D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, SEED_W, SEED_H, 1, 1, 0);
    D3D12_RESOURCE_DESC bc = tex_desc(DXGI_FORMAT_BC1_UNORM, 16, 16, 1, 1, 0);
    D3D12_RESOURCE_DESC r32 = tex_desc(DXGI_FORMAT_R32_FLOAT, SEED_W, SEED_H, 1, 1, 0);
    D3D12_RESOURCE_DESC srgb = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, SEED_W, SEED_H, 1, 1, 0);
    ID3D12Resource *tex = make_texture(&td), *tex2 = make_texture(&td), *bct = make_texture(&bc);
    ID3D12Resource *rtex = make_texture(&r32), *stex = make_texture(&srgb);
    ID3D12Resource *up = make_buffer(D3D12_HEAP_TYPE_UPLOAD, 16384);
    ID3D12Resource *up_exact = make_buffer(D3D12_HEAP_TYPE_UPLOAD, SEED_TOTAL);
    ID3D12Resource *def = make_buffer(D3D12_HEAP_TYPE_DEFAULT, 16384);
    ID3D12Resource *def2 = make_buffer(D3D12_HEAP_TYPE_DEFAULT, 8192);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 16384);
    if (!tex || !tex2 || !bct || !rtex || !stex || !up || !up_exact || !def || !def2 || !rb)
        goto out;
    struct footprint f = footprint_of(&td, 0);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp = f.fp;

    /* Control: the valid forms of the copies below close with S_OK. */
    set_ctx("valid copies");
    EXPECT_CLOSE(DIRECT, S_OK, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up_exact, &fp), NULL));
    fp.Offset = 512;
    EXPECT_CLOSE(DIRECT, S_OK, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up, &fp), NULL));
    fp.Offset = 0;
    fp.Footprint.RowPitch = 512;
    EXPECT_CLOSE(DIRECT, S_OK, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up, &fp), NULL));
    fp.Footprint.RowPitch = 256;
    EXPECT_CLOSE(DIRECT, S_OK, copy_tex(l, loc_fp(rb, &fp), 0, 0, loc_sub(tex, 0), NULL));
    {
        D3D12_BOX box = {0, 0, 0, 32, 32, 1};
        EXPECT_CLOSE(DIRECT, S_OK, copy_tex(l, loc_sub(tex2, 0), 0, 0, loc_sub(tex, 0), &box));
        D3D12_BOX half = {16, 0, 0, 32, 32, 1};
        EXPECT_CLOSE(DIRECT, S_OK, copy_tex(l, loc_sub(tex2, 0), 16, 0, loc_sub(tex, 0), &half));
        /* An empty box is a no-op, not an error. */
        D3D12_BOX empty = {4, 4, 0, 4, 8, 1};
        EXPECT_CLOSE(DIRECT, S_OK, copy_tex(l, loc_sub(tex2, 0), 0, 0, loc_sub(tex, 0), &empty));
    }
    /* Same cast group (R8G8B8A8_TYPELESS): UNORM ↔ UNORM_SRGB. */
    EXPECT_CLOSE(DIRECT, S_OK, copy_tex(l, loc_sub(stex, 0), 0, 0, loc_sub(tex, 0), NULL));
    EXPECT_CLOSE(DIRECT, S_OK, ID3D12GraphicsCommandList_CopyResource(l, stex, tex));
    EXPECT_CLOSE(DIRECT, S_OK, ID3D12GraphicsCommandList_CopyBufferRegion(l, def, 16000, up, 0, 384));
    EXPECT_CLOSE(DIRECT, S_OK, ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 0, rb, 8192, 4096));
    /* Copy lists take copies too. */
    EXPECT_CLOSE(D3D12_COMMAND_LIST_TYPE_COPY, S_OK,
                 copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up_exact, &fp), NULL));

    /* Options13.UnrestrictedBufferTextureCopyPitchSupported FALSE: the 512 / 256 rules apply. */
    set_ctx("OPTIONS13");
    {
        D3D12_FEATURE_DATA_D3D12_OPTIONS13 o13;
        memset(&o13, 0, sizeof(o13));
        HRESULT hr = ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS13, &o13, sizeof(o13));
        if (SUCCEEDED(hr))
            CHECK_EQ(o13.UnrestrictedBufferTextureCopyPitchSupported, FALSE);
    }

    set_ctx("footprint Offset 256 (not a multiple of 512)");
    fp.Offset = 256;
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up, &fp), NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_fp(rb, &fp), 0, 0, loc_sub(tex, 0), NULL));
    fp.Offset = 0;

    set_ctx("RowPitch 384 (not a multiple of 256)");
    fp.Footprint.RowPitch = 384;
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up, &fp), NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_fp(rb, &fp), 0, 0, loc_sub(tex, 0), NULL));
    set_ctx("RowPitch 0 (below the row size)");
    fp.Footprint.RowPitch = 0;
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up, &fp), NULL));
    fp.Footprint.RowPitch = 256;

    set_ctx("footprint past the end of the buffer");
    /* 8064 bytes needed from Offset 512 of an 8064-byte buffer. */
    fp.Offset = 512;
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up_exact, &fp), NULL));
    fp.Offset = 0;
    fp.Footprint.Height = 64; /* 64 rows of 256 bytes do not fit in 16384 - 1 + ... */
    fp.Footprint.RowPitch = 512;
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_fp(rb, &fp), 0, 0, loc_sub(tex, 0), NULL));
    fp = f.fp;

    set_ctx("footprint of height 0");
    fp.Footprint.Height = 0;
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up, &fp), NULL));
    fp = f.fp;

    set_ctx("box beyond the source");
    {
        D3D12_BOX wide = {0, 0, 0, 33, 32, 1}, tall = {0, 16, 0, 16, 33, 1}, deep = {0, 0, 0, 8, 8, 2};
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex2, 0), 0, 0, loc_sub(tex, 0), &wide));
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex2, 0), 0, 0, loc_sub(tex, 0), &tall));
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex2, 0), 0, 0, loc_sub(tex, 0), &deep));
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up_exact, &fp), &wide));
    }

    set_ctx("destination region out of bounds");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex, 0), 16, 0, loc_fp(up_exact, &fp), NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex2, 0), 0, 1, loc_sub(tex, 0), NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex2, 1), 0, 0, loc_sub(tex, 0), NULL));
    {
        D3D12_BOX half = {0, 0, 0, 16, 16, 1};
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex2, 0), 17, 0, loc_sub(tex, 0), &half));
    }

    set_ctx("copy into an UPLOAD buffer");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_fp(up, &fp), 0, 0, loc_sub(tex, 0), NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyBufferRegion(l, up, 0, def, 0, 256));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyBufferRegion(l, up, 0, up, 8192, 256));

    set_ctx("CopyBufferRegion out of range");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyBufferRegion(l, def, 16000, up, 0, 385));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyBufferRegion(l, def, 0, up, 16384, 1));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyBufferRegion(l, def, ~0ull, up, 0, 2));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyBufferRegion(l, def, 0, up, 8, ~0ull));
    set_ctx("CopyBufferRegion on a texture");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyBufferRegion(l, tex, 0, up, 0, 16));

    set_ctx("NULL resource");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyBufferRegion(l, NULL, 0, up, 0, 16));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyBufferRegion(l, def, 0, NULL, 0, 16));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(NULL, 0), 0, 0, loc_fp(up_exact, &fp), NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(NULL, &fp), NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyResource(l, NULL, tex));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyResource(l, tex2, NULL));
    set_ctx("CopyResource onto itself");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyResource(l, tex, tex));

    set_ctx("location types");
    /* SUBRESOURCE_INDEX on a buffer, PLACED_FOOTPRINT on a texture, subresource out of range. */
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_sub(up, 0), NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_fp(tex2, &fp), 0, 0, loc_sub(tex, 0), NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex2, 0), 0, 0, loc_sub(tex, 1), NULL));

    set_ctx("incompatible formats");
    /* R8G8B8A8 and R32 are different cast groups (same size, no conversion pair). */
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyResource(l, rtex, tex));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(rtex, 0), 0, 0, loc_sub(tex, 0), NULL));
    fp.Footprint.Format = DXGI_FORMAT_R32_FLOAT;
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(tex, 0), 0, 0, loc_fp(up_exact, &fp), NULL));
    fp = f.fp;
    set_ctx("CopyResource between different sizes");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyResource(l, def, def2));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyResource(l, def, tex));

    set_ctx("BC1 rules");
    {
        struct footprint bf = footprint_of(&bc, 0);
        EXPECT_CLOSE(DIRECT, S_OK, copy_tex(l, loc_sub(bct, 0), 0, 0, loc_fp(up, &bf.fp), NULL));
        /* A footprint of 2x2 texels (not whole blocks): invalid, also when the adapter reports
         * OPTIONS8.UnalignedBlockTexturesSupported (that frees texture extents; footprints stay
         * whole blocks: issue #16, Windows fails Close with E_INVALIDARG). */
        D3D12_PLACED_SUBRESOURCE_FOOTPRINT b2 = bf.fp;
        b2.Footprint.Width = 2;
        b2.Footprint.Height = 2;
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(bct, 0), 0, 0, loc_fp(up, &b2), NULL));
        /* DstX not a multiple of the block width. */
        b2.Footprint.Width = 4;
        b2.Footprint.Height = 4;
        EXPECT_CLOSE(DIRECT, S_OK, copy_tex(l, loc_sub(bct, 0), 4, 8, loc_fp(up, &b2), NULL));
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_sub(bct, 0), 2, 0, loc_fp(up, &b2), NULL));
        /* A source box not aligned to blocks. */
        D3D12_BOX box = {0, 0, 0, 2, 4, 1};
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, copy_tex(l, loc_fp(rb, &bf.fp), 0, 0, loc_sub(bct, 0), &box));
    }

    /* The first error is kept: a valid copy after an invalid one does not clear it. */
    set_ctx("sticky recording error");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_CopyBufferRegion(l, NULL, 0, up, 0, 16);
                 ID3D12GraphicsCommandList_CopyBufferRegion(l, def, 0, up, 0, 16));

out:
    RELEASE0(tex);
    RELEASE0(tex2);
    RELEASE0(bct);
    RELEASE0(rtex);
    RELEASE0(stex);
    RELEASE0(up);
    RELEASE0(up_exact);
    RELEASE0(def);
    RELEASE0(def2);
    RELEASE0(rb);
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

static void test_invalid_barriers(void)
{
    ULONG base = refcount(dev);
    D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, SEED_W, SEED_H, 1, 2, 0);
    ID3D12Resource *tex = make_texture(&td);
    ID3D12Resource *up = make_buffer(D3D12_HEAP_TYPE_UPLOAD, 4096);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 4096);
    ID3D12Resource *def = make_buffer(D3D12_HEAP_TYPE_DEFAULT, 4096);
    if (!tex || !up || !rb || !def)
        goto out;

    set_ctx("valid barriers");
    EXPECT_CLOSE(DIRECT, S_OK, barrier(l, tex, 0, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_DEST);
                 barrier(l, tex, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
                 barrier(l, tex, 0, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COMMON));
    EXPECT_CLOSE(DIRECT, S_OK,
                 barrier(l, tex, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_COMMON,
                         D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE | D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE));
    EXPECT_CLOSE(DIRECT, S_OK, ID3D12GraphicsCommandList_ResourceBarrier(l, 0, NULL));
    {
        /* A split barrier: BEGIN_ONLY then END_ONLY with the same states. */
        D3D12_RESOURCE_BARRIER b[2] = {
            transition(def, 0, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_DEST),
            transition(def, 0, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_DEST),
        };
        b[0].Flags = D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY;
        b[1].Flags = D3D12_RESOURCE_BARRIER_FLAG_END_ONLY;
        EXPECT_CLOSE(DIRECT, S_OK, ID3D12GraphicsCommandList_ResourceBarrier(l, 2, b));
        set_ctx("split barrier: BEGIN_ONLY without END_ONLY");
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_ResourceBarrier(l, 1, b));
        set_ctx("split barrier: BEGIN_ONLY | END_ONLY");
        b[0].Flags = D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY | D3D12_RESOURCE_BARRIER_FLAG_END_ONLY;
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_ResourceBarrier(l, 1, b));
    }
    {
        /* Global aliasing and UAV barriers (NULL resources) are valid. */
        D3D12_RESOURCE_BARRIER b[2];
        memset(b, 0, sizeof(b));
        b[0].Type = D3D12_RESOURCE_BARRIER_TYPE_ALIASING;
        b[1].Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        set_ctx("NULL aliasing / UAV barriers");
        EXPECT_CLOSE(DIRECT, S_OK, ID3D12GraphicsCommandList_ResourceBarrier(l, 2, b));
        set_ctx("barrier type 3");
        b[0].Type = (D3D12_RESOURCE_BARRIER_TYPE)3;
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_ResourceBarrier(l, 1, b));
    }

    set_ctx("transition of a NULL resource");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 barrier(l, NULL, 0, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_DEST));
    set_ctx("after-state UNORDERED_ACCESS | PIXEL_SHADER_RESOURCE");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 barrier(l, def, 0, D3D12_RESOURCE_STATE_COMMON,
                         D3D12_RESOURCE_STATE_UNORDERED_ACCESS | D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE));
    set_ctx("after-state COPY_DEST | COPY_SOURCE");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 barrier(l, tex, 0, D3D12_RESOURCE_STATE_COMMON,
                         D3D12_RESOURCE_STATE_COPY_DEST | D3D12_RESOURCE_STATE_COPY_SOURCE));
    set_ctx("UPLOAD buffer leaving GENERIC_READ");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 barrier(l, up, 0, D3D12_RESOURCE_STATE_GENERIC_READ, D3D12_RESOURCE_STATE_COPY_DEST));
    set_ctx("READBACK buffer leaving COPY_DEST");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 barrier(l, rb, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE));
    set_ctx("subresource out of range");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 barrier(l, tex, 2, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_DEST));
    set_ctx("StateBefore differs from the previous StateAfter in the list");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 barrier(l, tex, 0, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_DEST);
                 barrier(l, tex, 0, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COMMON));

out:
    RELEASE0(tex);
    RELEASE0(up);
    RELEASE0(rb);
    RELEASE0(def);
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

static void test_lifecycle(void)
{
    ULONG base = refcount(dev);
    ID3D12CommandAllocator *a = NULL, *a2 = NULL, *ac = NULL, *ab = NULL;
    ID3D12GraphicsCommandList *l = NULL, *l2 = NULL, *x;
    ID3D12Resource *up = make_buffer(D3D12_HEAP_TYPE_UPLOAD, 256);

    set_ctx("Close twice");
    if (open_list(DIRECT, &a, &l)) {
        /* The list holds no public reference on its allocator (native: count stays 1). */
        CHECK_EQ(refcount(a), 1);
        CHECK_EQ(ID3D12GraphicsCommandList_GetType(l), D3D12_COMMAND_LIST_TYPE_DIRECT);

        set_ctx("Reset while recording");
        CHECK_HR(ID3D12GraphicsCommandList_Reset(l, a, NULL), E_FAIL);

        set_ctx("allocator Reset while a list records into it");
        CHECK_HR(ID3D12CommandAllocator_Reset(a), E_FAIL);
        CHECK_HR(ID3D12CommandAllocator_Reset(a), E_FAIL);

        set_ctx("a second list on a recording allocator");
        CHECK_FAILS(ID3D12Device_CreateCommandList(dev, 0, DIRECT, a, NULL, &IID_ID3D12GraphicsCommandList,
                                                   (void **)&x),
                    x, E_INVALIDARG);

        set_ctx("Close twice");
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), S_OK);
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_FAIL);

        set_ctx("allocator Reset after Close");
        CHECK_HR(ID3D12CommandAllocator_Reset(a), S_OK);
        CHECK_HR(ID3D12CommandAllocator_Reset(a), S_OK);

        /* Once the first list is closed, a second list may record into the allocator; then
         * Reset of the first list with that allocator is contention (native E_INVALIDARG). */
        set_ctx("two lists on one allocator");
        CHECK_CREATED(ID3D12Device_CreateCommandList(dev, 0, DIRECT, a, NULL, &IID_ID3D12GraphicsCommandList,
                                                     (void **)&l2),
                      l2);
        if (l2) {
            CHECK_HR(ID3D12GraphicsCommandList_Reset(l, a, NULL), E_INVALIDARG);
            CHECK_HR(ID3D12GraphicsCommandList_Close(l2), S_OK);
            CHECK_HR(ID3D12GraphicsCommandList_Reset(l, a, NULL), S_OK);
            CHECK_HR(ID3D12GraphicsCommandList_Close(l), S_OK);
        }
        CHECK_EQ(refcount(a), 1);
    }

    set_ctx("Reset after a failed Close");
    if (l && up) {
        CHECK_HR(ID3D12GraphicsCommandList_Reset(l, a, NULL), S_OK);
        ID3D12GraphicsCommandList_CopyBufferRegion(l, NULL, 0, up, 0, 16);
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_INVALIDARG);
        /* Docs (Reset): "If Close fails, Reset returns the same error" — forever. */
        CHECK_HR(ID3D12GraphicsCommandList_Reset(l, a, NULL), E_INVALIDARG);
        CHECK_HR(ID3D12CommandAllocator_Reset(a), S_OK);
        CHECK_HR(ID3D12GraphicsCommandList_Reset(l, a, NULL), E_INVALIDARG);
        /* The allocator is not held by the failed list. */
        CHECK_HR(ID3D12CommandAllocator_Reset(a), S_OK);
    }

    set_ctx("CreateCommandList: NULL / wrong-type allocator");
    CHECK_FAILS(ID3D12Device_CreateCommandList(dev, 0, DIRECT, NULL, NULL, &IID_ID3D12GraphicsCommandList,
                                               (void **)&x),
                x, E_INVALIDARG);
    CHECK_CREATED(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_COPY, &IID_ID3D12CommandAllocator,
                                                      (void **)&ac),
                  ac);
    CHECK_CREATED(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_BUNDLE, &IID_ID3D12CommandAllocator,
                                                      (void **)&ab),
                  ab);
    if (ac) {
        CHECK_FAILS(ID3D12Device_CreateCommandList(dev, 0, DIRECT, ac, NULL, &IID_ID3D12GraphicsCommandList,
                                                   (void **)&x),
                    x, E_INVALIDARG);
        CHECK_FAILS(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_COMPUTE, ac, NULL,
                                                   &IID_ID3D12GraphicsCommandList, (void **)&x),
                    x, E_INVALIDARG);
        /* A failed creation leaves the allocator free. */
        CHECK_HR(ID3D12CommandAllocator_Reset(ac), S_OK);
    }
    if (ab)
        CHECK_FAILS(ID3D12Device_CreateCommandList(dev, 0, DIRECT, ab, NULL, &IID_ID3D12GraphicsCommandList,
                                                   (void **)&x),
                    x, E_INVALIDARG);
    set_ctx("Reset with a wrong-type / NULL allocator");
    if (l && ac) {
        CHECK_HR(ID3D12GraphicsCommandList_Reset(l2, ac, NULL), E_INVALIDARG);
        CHECK_HR(ID3D12GraphicsCommandList_Reset(l2, NULL, NULL), E_INVALIDARG);
    }
    set_ctx("CreateCommandAllocator(~0)");
    CHECK_FAILS(ID3D12Device_CreateCommandAllocator(dev, (D3D12_COMMAND_LIST_TYPE)~0u, &IID_ID3D12CommandAllocator,
                                                    (void **)&a2),
                a2, E_INVALIDARG);

    /* ID3D12Device4::CreateCommandList1: a closed list with no allocator. */
    set_ctx("CreateCommandList1");
    {
        ID3D12Device4 *d4 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device4, (void **)&d4), S_OK);
        if (d4) {
            CHECK_CREATED(ID3D12Device4_CreateCommandList1(d4, 0, DIRECT, D3D12_COMMAND_LIST_FLAG_NONE,
                                                           &IID_ID3D12GraphicsCommandList, (void **)&x),
                          x);
            if (x) {
                CHECK_HR(ID3D12GraphicsCommandList_Close(x), E_FAIL);
                if (a) {
                    CHECK_HR(ID3D12GraphicsCommandList_Reset(x, a, NULL), S_OK);
                    CHECK_HR(ID3D12GraphicsCommandList_Close(x), S_OK);
                }
            }
            RELEASE0(x);
            CHECK_FAILS(ID3D12Device4_CreateCommandList1(d4, 0, DIRECT, (D3D12_COMMAND_LIST_FLAGS)1,
                                                         &IID_ID3D12GraphicsCommandList, (void **)&x),
                        x, E_INVALIDARG);
            ID3D12Device4_Release(d4);
        }
    }
    RELEASE0(l2);
    RELEASE0(l);
    RELEASE0(a);
    RELEASE0(ac);
    RELEASE0(ab);
    RELEASE0(up);

    /* Queue descriptions. */
    set_ctx("CreateCommandQueue");
    {
        static const struct {
            int type, priority, flags;
            unsigned node;
            const char *what;
        } bad[] = {
            {D3D12_COMMAND_LIST_TYPE_BUNDLE, 0, 0, 0, "BUNDLE"},
            {7, 0, 0, 0, "type 7"},
            {-1, 0, 0, 0, "type NONE"},
            {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_QUEUE_PRIORITY_GLOBAL_REALTIME, 0, 0, "priority 10000"},
            {D3D12_COMMAND_LIST_TYPE_DIRECT, 7, 0, 0, "priority 7"},
            {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, 2, 0, "flags 2"},
            {D3D12_COMMAND_LIST_TYPE_COPY, 0, 0x80, 0, "flags 0x80"},
            {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, 0, 2, "node mask 2"},
        };
        ID3D12CommandQueue *cq;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            set_ctx("CreateCommandQueue(%s)", bad[i].what);
            D3D12_COMMAND_QUEUE_DESC qd = {(D3D12_COMMAND_LIST_TYPE)bad[i].type, bad[i].priority,
                                           (D3D12_COMMAND_QUEUE_FLAGS)bad[i].flags, bad[i].node};
            CHECK_FAILS(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&cq), cq,
                        E_INVALIDARG);
        }
        /* GlobalRealtime is reported unsupported (REC of the spec: a CPU adapter). */
        set_ctx("COMMAND_QUEUE_PRIORITY 10000");
        D3D12_FEATURE_DATA_COMMAND_QUEUE_PRIORITY pr = {D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                        D3D12_COMMAND_QUEUE_PRIORITY_GLOBAL_REALTIME, TRUE};
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_COMMAND_QUEUE_PRIORITY, &pr, sizeof(pr)), S_OK);
        CHECK_EQ(pr.PriorityForTypeIsSupported, FALSE);

        /* GetDesc by value: as given, NodeMask 0 → 1. */
        static const D3D12_COMMAND_QUEUE_DESC good[] = {
            {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0},
            {D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_QUEUE_PRIORITY_HIGH,
             D3D12_COMMAND_QUEUE_FLAG_DISABLE_GPU_TIMEOUT, 1},
            {D3D12_COMMAND_LIST_TYPE_COPY, D3D12_COMMAND_QUEUE_PRIORITY_NORMAL, D3D12_COMMAND_QUEUE_FLAG_NONE, 0},
        };
        for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
            set_ctx("CreateCommandQueue(type %d) GetDesc", (int)good[i].Type);
            CHECK_CREATED(ID3D12Device_CreateCommandQueue(dev, &good[i], &IID_ID3D12CommandQueue, (void **)&cq), cq);
            if (cq) {
                /* Spec §2.1 (native): one device reference per queue. */
                CHECK_EQ(refcount(dev), base + 1);
                D3D12_COMMAND_QUEUE_DESC d = ID3D12CommandQueue_GetDesc(cq);
                CHECK_EQ(d.Type, good[i].Type);
                CHECK_EQ(d.Priority, good[i].Priority);
                CHECK_EQ(d.Flags, good[i].Flags);
                CHECK_EQ(d.NodeMask, 1);
            }
            RELEASE0(cq);
        }
        set_ctx("CreateCommandQueue(NULL desc)");
        CHECK_FAILS(ID3D12Device_CreateCommandQueue(dev, NULL, &IID_ID3D12CommandQueue, (void **)&cq), cq,
                    E_INVALIDARG);
    }

    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 3. fences ------------------------------------------------------------------------------ */

static int event_fired(int fd, int ms, uint64_t *count);

/* A thread that waits `delay_ms`, notes that it is about to signal, then signals. */
struct signaller {
    ID3D12Fence *fence[2];
    UINT64 value[2];
    unsigned delay_ms;
    int signalled; /* set (atomically) just before the first Signal */
    HRESULT hr;
};

static void *signaller_main(void *p)
{
    struct signaller *s = p;
    sleep_ms(s->delay_ms);
    __atomic_store_n(&s->signalled, 1, __ATOMIC_SEQ_CST);
    s->hr = S_OK;
    for (int i = 0; i < 2; i++)
        if (s->fence[i]) {
            HRESULT hr = ID3D12Fence_Signal(s->fence[i], s->value[i]);
            if (FAILED(hr))
                s->hr = hr;
        }
    return NULL;
}

static void test_fences(void)
{
    ULONG base = refcount(dev);
    ID3D12Fence *f = NULL, *f2 = NULL;
    ID3D12CommandQueue *queue = make_queue(DIRECT);
    int ev = eventfd(0, EFD_CLOEXEC), ev2 = eventfd(0, EFD_CLOEXEC);
    uint64_t count;
    CHECK(ev >= 0 && ev2 >= 0);
    HANDLE h = (HANDLE)(intptr_t)ev, h2 = (HANDLE)(intptr_t)ev2;

    set_ctx("initial value");
    static const UINT64 initial[] = {0, 99, 1ull << 60, UINT64_MAX - 1};
    for (size_t i = 0; i < sizeof(initial) / sizeof(initial[0]); i++) {
        f = make_fence(initial[i]);
        if (f)
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), initial[i]);
        RELEASE0(f);
    }
    if (!queue || ev < 0 || ev2 < 0)
        goto out;

    set_ctx("CPU Signal 1 → 10 → 5 → 0");
    f = make_fence(0);
    if (!f)
        goto out;
    static const UINT64 seq[] = {1, 10, 5, 0, 7};
    for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
        CHECK_HR(ID3D12Fence_Signal(f, seq[i]), S_OK);
        CHECK_EQ(ID3D12Fence_GetCompletedValue(f), seq[i]);
    }

    /* A reached value signals the event at once; the count is 1 (one registration). */
    set_ctx("SetEventOnCompletion(reached value)");
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 3, h), S_OK);
    count = 0;
    CHECK(event_fired(ev, 0, &count));
    CHECK_EQ(count, 1);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 7, h), S_OK);
    CHECK(event_fired(ev, 0, NULL));
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 7, NULL), S_OK);

    /* A future value: nothing until a queue Signal reaches it (or passes it). */
    set_ctx("SetEventOnCompletion(future value) + queue Signal");
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 20, h), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 20, h2), S_OK); /* two events, one value */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 30, h2), S_OK); /* one event, two values */
    CHECK(!event_fired(ev, 0, NULL));
    CHECK(!event_fired(ev2, 0, NULL));
    CHECK_HR(ID3D12CommandQueue_Signal(queue, f, 19), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 19, NULL), S_OK);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 19);
    CHECK(!event_fired(ev, 20, NULL));
    CHECK_HR(ID3D12CommandQueue_Signal(queue, f, 25), S_OK);
    count = 0;
    CHECK(event_fired(ev, 10000, &count));
    CHECK_EQ(count, 1);
    CHECK(event_fired(ev2, 10000, NULL));
    CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 25);
    /* Each registration fires once: 30 is still pending on ev2, nothing is left on ev. */
    CHECK(!event_fired(ev2, 0, NULL));
    CHECK_HR(ID3D12Fence_Signal(f, 30), S_OK);
    CHECK(event_fired(ev2, 0, NULL));
    CHECK_HR(ID3D12Fence_Signal(f, 40), S_OK);
    CHECK(!event_fired(ev, 0, NULL));
    CHECK(!event_fired(ev2, 0, NULL));

    /* A queue Signal of a lower value goes down (native: 1 << 60 then 0 → 0). */
    set_ctx("queue Signal lower value");
    CHECK_HR(ID3D12CommandQueue_Signal(queue, f, 1ull << 60), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, f, 0), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(queue, f, 1), S_OK);
    {
        /* Once a later signal of another fence has run, the three ran in order. */
        ID3D12Fence *mark = make_fence(0);
        if (mark) {
            CHECK_HR(ID3D12CommandQueue_Signal(queue, mark, 1), S_OK);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(mark, 1, NULL), S_OK);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 1);
        }
        RELEASE0(mark);
    }
    set_ctx("queue Signal / Wait with a NULL fence");
    CHECK_HR(ID3D12CommandQueue_Signal(queue, NULL, 1), E_INVALIDARG);
    CHECK_HR(ID3D12CommandQueue_Wait(queue, NULL, 1), E_INVALIDARG);

    /* NULL event: the call returns only once another thread has signalled. */
    set_ctx("SetEventOnCompletion(NULL event) blocks");
    {
        struct signaller sg = {{f, NULL}, {50, 0}, 100, 0, E_FAIL};
        pthread_t t;
        CHECK_EQ(pthread_create(&t, NULL, signaller_main, &sg), 0);
        UINT64 t0 = mono_ns();
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 50, NULL), S_OK);
        CHECK_EQ(__atomic_load_n(&sg.signalled, __ATOMIC_SEQ_CST), 1);
        CHECK(mono_ns() - t0 >= 90000000ull);
        CHECK(ID3D12Fence_GetCompletedValue(f) >= 50);
        pthread_join(t, NULL);
        CHECK_HR(sg.hr, S_OK);
    }

    /* ID3D12Device1::SetEventOnMultipleFenceCompletion. */
    set_ctx("SetEventOnMultipleFenceCompletion");
    f2 = make_fence(0);
    {
        ID3D12Device1 *d1 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device1, (void **)&d1), S_OK);
        if (d1 && f2) {
            CHECK_HR(ID3D12Fence_Signal(f, 0), S_OK);
            ID3D12Fence *both[2] = {f, f2};
            UINT64 v[2] = {1, 2};
            set_ctx("SetEventOnMultipleFenceCompletion ALL");
            CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, both, v, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_ALL,
                                                                     h),
                     S_OK);
            CHECK(!event_fired(ev, 0, NULL));
            CHECK_HR(ID3D12Fence_Signal(f, 1), S_OK);
            CHECK(!event_fired(ev, 0, NULL));
            CHECK_HR(ID3D12CommandQueue_Signal(queue, f2, 2), S_OK);
            count = 0;
            CHECK(event_fired(ev, 10000, &count));
            CHECK_EQ(count, 1);
            /* Already reached: at once. */
            CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, both, v, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_ALL,
                                                                     h),
                     S_OK);
            CHECK(event_fired(ev, 0, NULL));

            set_ctx("SetEventOnMultipleFenceCompletion ANY");
            v[0] = 10;
            v[1] = 10;
            CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, both, v, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY,
                                                                     h),
                     S_OK);
            CHECK(!event_fired(ev, 0, NULL));
            CHECK_HR(ID3D12Fence_Signal(f2, 10), S_OK);
            count = 0;
            CHECK(event_fired(ev, 10000, &count));
            CHECK_EQ(count, 1);
            /* The wait fired once: the other fence reaching its value adds nothing. */
            CHECK_HR(ID3D12Fence_Signal(f, 10), S_OK);
            CHECK(!event_fired(ev, 0, NULL));

            set_ctx("SetEventOnMultipleFenceCompletion ALL, NULL event");
            {
                struct signaller sg = {{f, f2}, {20, 20}, 50, 0, E_FAIL};
                pthread_t t;
                v[0] = 20;
                v[1] = 20;
                CHECK_EQ(pthread_create(&t, NULL, signaller_main, &sg), 0);
                CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(
                             d1, both, v, 2, D3D12_MULTIPLE_FENCE_WAIT_FLAG_ALL, NULL),
                         S_OK);
                CHECK_EQ(__atomic_load_n(&sg.signalled, __ATOMIC_SEQ_CST), 1);
                CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 20);
                CHECK_EQ(ID3D12Fence_GetCompletedValue(f2), 20);
                pthread_join(t, NULL);
            }

            set_ctx("SetEventOnMultipleFenceCompletion invalid flags");
            CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, both, v, 2,
                                                                     (D3D12_MULTIPLE_FENCE_WAIT_FLAGS)2, h),
                     E_INVALIDARG);
            CHECK(!event_fired(ev, 0, NULL));
        }
        if (d1)
            ID3D12Device1_Release(d1);
    }

    set_ctx("CreateFence flags");
    {
        ID3D12Fence *x;
        CHECK_FAILS(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_SHARED_CROSS_ADAPTER, &IID_ID3D12Fence,
                                             (void **)&x),
                    x, E_INVALIDARG);
        CHECK_FAILS(ID3D12Device_CreateFence(dev, 0, (D3D12_FENCE_FLAGS)8, &IID_ID3D12Fence, (void **)&x), x,
                    E_INVALIDARG);
        static const D3D12_FENCE_FLAGS good[] = {D3D12_FENCE_FLAG_NONE, D3D12_FENCE_FLAG_SHARED,
                                                 D3D12_FENCE_FLAG_NON_MONITORED};
        for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
            set_ctx("GetCreationFlags(0x%x)", (unsigned)good[i]);
            ID3D12Fence1 *f1;
            CHECK_CREATED(ID3D12Device_CreateFence(dev, 5, good[i], &IID_ID3D12Fence1, (void **)&f1), f1);
            if (f1) {
                CHECK_EQ(ID3D12Fence1_GetCreationFlags(f1), good[i]);
                CHECK_EQ(ID3D12Fence1_GetCompletedValue(f1), 5);
            }
            RELEASE0(f1);
        }
    }

out:
    RELEASE0(f);
    RELEASE0(f2);
    RELEASE0(queue);
    if (ev >= 0)
        close(ev);
    if (ev2 >= 0)
        close(ev2);
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 4. two queues ----------------------------------------------------------------------------- */

static void test_two_queues(void)
{
    ULONG base = refcount(dev);
    struct q prod, cons;
    int have_prod = q_init(&prod, D3D12_COMMAND_LIST_TYPE_COPY);
    int have_cons = q_init(&cons, DIRECT);
    ID3D12Fence *ready = make_fence(0);
    ID3D12Resource *def = make_buffer(D3D12_HEAP_TYPE_DEFAULT, 4096);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 4096);
    int rounds = under_valgrind() ? 2 : 6;
    unsigned char data[4096], got[4096], zero[4096];
    memset(zero, 0, sizeof(zero));
    if (!have_prod || !have_cons || !ready || !def || !rb)
        goto out;

    /* Producer (COPY queue) fills `def` and signals `ready`; the consumer (DIRECT queue) waits for
     * it, copies `def` into the READBACK buffer and signals its own fence. The consumer's work is
     * submitted first. */
    for (int i = 1; i <= rounds; i++) {
        set_ctx("producer/consumer round %d", i);
        fill_pattern(data, sizeof(data), 200 + i);
        ID3D12Resource *up = upload_of(data, sizeof(data));
        if (!up)
            break;
        /* Clear the READBACK buffer so that a stale round cannot pass. */
        unsigned char *m = map_buf(rb);
        if (m) {
            memset(m, 0, sizeof(zero));
            unmap_buf(rb);
        }
        ID3D12GraphicsCommandList *lc = q_begin(&cons);
        ID3D12GraphicsCommandList *lp = q_begin(&prod);
        if (lc && lp) {
            ID3D12GraphicsCommandList_CopyBufferRegion(lc, rb, 0, def, 0, sizeof(data));
            ID3D12GraphicsCommandList_CopyBufferRegion(lp, def, 0, up, 0, sizeof(data));
            CHECK_HR(ID3D12GraphicsCommandList_Close(lc), S_OK);
            CHECK_HR(ID3D12GraphicsCommandList_Close(lp), S_OK);
            CHECK_HR(ID3D12CommandQueue_Wait(cons.queue, ready, (UINT64)i), S_OK);
            execute(cons.queue, lc);
            cons.value++;
            CHECK_HR(ID3D12CommandQueue_Signal(cons.queue, cons.fence, cons.value), S_OK);
            if (i == 1) {
                /* The consumer cannot have run: nothing has been produced. */
                sleep_ms(30);
                CHECK_EQ(ID3D12Fence_GetCompletedValue(cons.fence), cons.value - 1);
                read_buf(rb, 0, got, sizeof(got));
                CHECK_BYTES("READBACK before the producer ran", got, zero, sizeof(zero));
            }
            execute(prod.queue, lp);
            CHECK_HR(ID3D12CommandQueue_Signal(prod.queue, ready, (UINT64)i), S_OK);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(cons.fence, cons.value, NULL), S_OK);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(ready), (UINT64)i);
            read_buf(rb, 0, got, sizeof(got));
            CHECK_BYTES("consumer's copy of the producer's data", got, data, sizeof(data));
        }
        RELEASE0(up);
    }

    /* A queue Wait on a value that the CPU signals later. */
    set_ctx("queue Wait on a CPU Signal");
    {
        ID3D12Fence *gate = make_fence(0);
        fill_pattern(data, sizeof(data), 333);
        ID3D12Resource *up = upload_of(data, sizeof(data));
        ID3D12Resource *rb2 = make_buffer(D3D12_HEAP_TYPE_READBACK, sizeof(data));
        ID3D12GraphicsCommandList *l = gate && up && rb2 ? q_begin(&cons) : NULL;
        if (l) {
            ID3D12GraphicsCommandList_CopyBufferRegion(l, rb2, 0, up, 0, sizeof(data));
            CHECK_HR(ID3D12GraphicsCommandList_Close(l), S_OK);
            CHECK_HR(ID3D12CommandQueue_Wait(cons.queue, gate, 1), S_OK); /* returns at once */
            execute(cons.queue, l);
            cons.value++;
            CHECK_HR(ID3D12CommandQueue_Signal(cons.queue, cons.fence, cons.value), S_OK);
            sleep_ms(50);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(cons.fence), cons.value - 1);
            read_buf(rb2, 0, got, sizeof(got));
            CHECK_BYTES("READBACK untouched before the CPU Signal", got, zero, sizeof(zero));
            CHECK_HR(ID3D12Fence_Signal(gate, 1), S_OK);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(cons.fence, cons.value, NULL), S_OK);
            read_buf(rb2, 0, got, sizeof(got));
            CHECK_BYTES("READBACK after the CPU Signal", got, data, sizeof(data));
        }
        RELEASE0(rb2);
        RELEASE0(up);
        RELEASE0(gate);
    }

out:
    RELEASE0(def);
    RELEASE0(rb);
    RELEASE0(ready);
    if (have_prod)
        q_release(&prod);
    if (have_cons)
        q_release(&cons);
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 5. queries and timestamps ------------------------------------------------------------- */

static ID3D12QueryHeap *make_query_heap(D3D12_QUERY_HEAP_TYPE type, UINT count)
{
    D3D12_QUERY_HEAP_DESC d = {type, count, 0};
    ID3D12QueryHeap *h;
    CHECK_CREATED(ID3D12Device_CreateQueryHeap(dev, &d, &IID_ID3D12QueryHeap, (void **)&h), h);
    return h;
}

/* Fills a READBACK buffer with 0xff so that a resolve must overwrite it. */
static void poison(ID3D12Resource *rb, size_t n)
{
    unsigned char *m = map_buf(rb);
    if (m) {
        memset(m, 0xff, n);
        unmap_buf(rb);
    }
}

/* EndQuery / copy / EndQuery / ResolveQueryData on `q` with timestamp heap `ts` (queries 0, 1):
 * the two values are ordered, inside the GPU clock's calibration samples around the submission,
 * and apart by no more than the CPU time elapsed. */
static void timestamps_around_copy(struct q *q, ID3D12QueryHeap *ts)
{
    ID3D12Resource *rbq = make_buffer(D3D12_HEAP_TYPE_READBACK, 64);
    ID3D12Resource *src = make_buffer(D3D12_HEAP_TYPE_UPLOAD, 16384);
    ID3D12Resource *dst = make_buffer(D3D12_HEAP_TYPE_DEFAULT, 16384);
    UINT64 freq = 0, g0 = 0, c0 = 0, g1 = 0, c1 = 0;
    CHECK_HR(ID3D12CommandQueue_GetTimestampFrequency(q->queue, &freq), S_OK);
    /* The CPU adapter's GPU clock is CLOCK_MONOTONIC in ns. */
    CHECK_EQ(freq, 1000000000ull);
    ID3D12GraphicsCommandList *l = rbq && src && dst ? q_begin(q) : NULL;
    if (l) {
        poison(rbq, 64);
        ID3D12GraphicsCommandList_EndQuery(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 0);
        ID3D12GraphicsCommandList_CopyBufferRegion(l, dst, 0, src, 0, 16384);
        ID3D12GraphicsCommandList_EndQuery(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 1);
        ID3D12GraphicsCommandList_ResolveQueryData(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 0, 2, rbq, 8);
        CHECK_HR(ID3D12CommandQueue_GetClockCalibration(q->queue, &g0, &c0), S_OK);
        UINT64 t0 = mono_ns();
        if (q_submit(q)) {
            UINT64 t1 = mono_ns();
            CHECK_HR(ID3D12CommandQueue_GetClockCalibration(q->queue, &g1, &c1), S_OK);
            UINT64 v[3];
            read_buf(rbq, 0, v, sizeof(v));
            CHECK_EQ(v[0], UINT64_MAX); /* bytes before AlignedDestinationBufferOffset untouched */
            CHECK(v[1] != UINT64_MAX && v[2] != UINT64_MAX);
            CHECK(v[1] <= v[2]);
            CHECK(g0 <= v[1] && v[2] <= g1);
            /* Elapsed ticks / frequency ≤ elapsed CPU time. */
            CHECK((v[2] - v[1]) * (1000000000.0 / (double)(freq ? freq : 1)) <= (double)(t1 - t0));
            CHECK(c0 <= c1 && g0 <= g1);
        }
    }
    RELEASE0(rbq);
    RELEASE0(src);
    RELEASE0(dst);
}

static void test_queries(struct q *q)
{
    ULONG base = refcount(dev);
    ID3D12QueryHeap *ts = make_query_heap(D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 4);
    ID3D12QueryHeap *occ = make_query_heap(D3D12_QUERY_HEAP_TYPE_OCCLUSION, 2);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 64);
    ID3D12Resource *up = make_buffer(D3D12_HEAP_TYPE_UPLOAD, 64);
    if (!ts || !occ || !rb || !up)
        goto out;

    set_ctx("timestamps around a copy (DIRECT)");
    timestamps_around_copy(q, ts);
    set_ctx("GetTimestampFrequency(NULL)");
    CHECK_HR(ID3D12CommandQueue_GetTimestampFrequency(q->queue, NULL), E_INVALIDARG);

    set_ctx("BeginQuery on a timestamp");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_BeginQuery(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 0));
    set_ctx("EndQuery beyond the heap");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_EndQuery(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 4));
    set_ctx("query type of another heap");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_EndQuery(l, ts, D3D12_QUERY_TYPE_OCCLUSION, 0));
    set_ctx("ResolveQueryData offset 4 (not a multiple of 8)");
    EXPECT_CLOSE(DIRECT, S_OK,
                 ID3D12GraphicsCommandList_ResolveQueryData(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 0, 1, rb, 56));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ResolveQueryData(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 0, 1, rb, 4));
    set_ctx("ResolveQueryData out of range");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ResolveQueryData(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 3, 2, rb, 0));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ResolveQueryData(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 0, 2, rb, 56));
    set_ctx("ResolveQueryData into NULL");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ResolveQueryData(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 0, 1, NULL, 0));

    /* Occlusion: nothing is drawn, so both OCCLUSION and BINARY_OCCLUSION resolve to 0. */
    set_ctx("occlusion Begin/End");
    {
        ID3D12GraphicsCommandList *l = q_begin(q);
        if (l) {
            poison(rb, 64);
            ID3D12GraphicsCommandList_BeginQuery(l, occ, D3D12_QUERY_TYPE_OCCLUSION, 0);
            ID3D12GraphicsCommandList_EndQuery(l, occ, D3D12_QUERY_TYPE_OCCLUSION, 0);
            ID3D12GraphicsCommandList_BeginQuery(l, occ, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1);
            ID3D12GraphicsCommandList_EndQuery(l, occ, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1);
            ID3D12GraphicsCommandList_ResolveQueryData(l, occ, D3D12_QUERY_TYPE_OCCLUSION, 0, 1, rb, 0);
            ID3D12GraphicsCommandList_ResolveQueryData(l, occ, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1, 1, rb, 8);
            if (q_submit(q)) {
                UINT64 v[3];
                read_buf(rb, 0, v, sizeof(v));
                CHECK_EQ(v[0], 0);
                CHECK_EQ(v[1], 0);
                CHECK_EQ(v[2], UINT64_MAX);
            }
        }
    }
    set_ctx("unmatched BeginQuery");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_BeginQuery(l, occ, D3D12_QUERY_TYPE_OCCLUSION, 0));
    set_ctx("EndQuery without BeginQuery");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_EndQuery(l, occ, D3D12_QUERY_TYPE_OCCLUSION, 0));
    set_ctx("BeginQuery twice");
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_BeginQuery(l, occ, D3D12_QUERY_TYPE_OCCLUSION, 0);
                 ID3D12GraphicsCommandList_BeginQuery(l, occ, D3D12_QUERY_TYPE_OCCLUSION, 0);
                 ID3D12GraphicsCommandList_EndQuery(l, occ, D3D12_QUERY_TYPE_OCCLUSION, 0));

    /* Docs (query heap types): a copy list cannot write a regular TIMESTAMP heap; the
     * COPY_QUEUE_TIMESTAMP heap is for copy lists only. */
    set_ctx("copy list + TIMESTAMP heap");
    EXPECT_CLOSE(D3D12_COMMAND_LIST_TYPE_COPY, E_INVALIDARG,
                 ID3D12GraphicsCommandList_EndQuery(l, ts, D3D12_QUERY_TYPE_TIMESTAMP, 0));
    set_ctx("COPY_QUEUE_TIMESTAMP");
    {
        D3D12_FEATURE_DATA_D3D12_OPTIONS3 o3;
        memset(&o3, 0, sizeof(o3));
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS3, &o3, sizeof(o3)), S_OK);
        struct q cq;
        if (o3.CopyQueueTimestampQueriesSupported) {
            ID3D12QueryHeap *cts = make_query_heap(D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP, 2);
            if (cts && q_init(&cq, D3D12_COMMAND_LIST_TYPE_COPY)) {
                timestamps_around_copy(&cq, cts);
                q_release(&cq);
            }
            set_ctx("COPY_QUEUE_TIMESTAMP on a DIRECT list");
            if (cts)
                EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                             ID3D12GraphicsCommandList_EndQuery(l, cts, D3D12_QUERY_TYPE_TIMESTAMP, 0));
            RELEASE0(cts);
        } else {
            ID3D12QueryHeap *x;
            D3D12_QUERY_HEAP_DESC d = {D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP, 2, 0};
            CHECK_FAILS(ID3D12Device_CreateQueryHeap(dev, &d, &IID_ID3D12QueryHeap, (void **)&x), x, E_INVALIDARG);
            ID3D12CommandQueue *copyq = make_queue(D3D12_COMMAND_LIST_TYPE_COPY);
            UINT64 freq = 0;
            if (copyq)
                CHECK_HR(ID3D12CommandQueue_GetTimestampFrequency(copyq, &freq), E_FAIL);
            RELEASE0(copyq);
        }
    }
    set_ctx("CreateQueryHeap(Count 0)");
    {
        ID3D12QueryHeap *x;
        D3D12_QUERY_HEAP_DESC d = {D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 0, 0};
        CHECK_FAILS(ID3D12Device_CreateQueryHeap(dev, &d, &IID_ID3D12QueryHeap, (void **)&x), x, E_INVALIDARG);
    }

out:
    RELEASE0(ts);
    RELEASE0(occ);
    RELEASE0(rb);
    RELEASE0(up);
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 6. WriteBufferImmediate, atomic copies, predication ------------------------------------ */

/* WriteBufferImmediate and the atomic copies through the interfaces that declare them. */
static void wbi(ID3D12GraphicsCommandList *l, UINT n, const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER *p,
                const D3D12_WRITEBUFFERIMMEDIATE_MODE *m)
{
    ID3D12GraphicsCommandList2 *l2 = NULL;
    CHECK_HR(ID3D12GraphicsCommandList_QueryInterface(l, &IID_ID3D12GraphicsCommandList2, (void **)&l2), S_OK);
    if (l2) {
        ID3D12GraphicsCommandList2_WriteBufferImmediate(l2, n, p, m);
        ID3D12GraphicsCommandList2_Release(l2);
    }
}

static void atomic_copy(ID3D12GraphicsCommandList *l, int wide, ID3D12Resource *dst, UINT64 dst_off,
                        ID3D12Resource *src, UINT64 src_off)
{
    ID3D12GraphicsCommandList1 *l1 = NULL;
    CHECK_HR(ID3D12GraphicsCommandList_QueryInterface(l, &IID_ID3D12GraphicsCommandList1, (void **)&l1), S_OK);
    if (!l1)
        return;
    if (wide)
        ID3D12GraphicsCommandList1_AtomicCopyBufferUINT64(l1, dst, dst_off, src, src_off, 0, NULL, NULL);
    else
        ID3D12GraphicsCommandList1_AtomicCopyBufferUINT(l1, dst, dst_off, src, src_off, 0, NULL, NULL);
    ID3D12GraphicsCommandList1_Release(l1);
}

static void test_immediate(struct q *q)
{
    ULONG base = refcount(dev);
    ID3D12Resource *def = make_buffer(D3D12_HEAP_TYPE_DEFAULT, 256);
    ID3D12Resource *def2 = make_buffer(D3D12_HEAP_TYPE_DEFAULT, 256);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 2048);
    ID3D12Resource *up_init = NULL;
    unsigned char got[2048], want[2048];
    if (!def || !def2 || !rb)
        goto out;
    D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(def);
    CHECK(va != 0);

    /* Both DEFAULT buffers start from a known pattern written by a copy in the same list, so
     * these checks do not depend on zero-initialised memory (checked in group 1). */
    unsigned char init[256];
    fill_pattern(init, sizeof(init), 76);
    up_init = upload_of(init, sizeof(init));
    if (!up_init)
        goto out;

    set_ctx("WriteBufferImmediate");
    {
        ID3D12GraphicsCommandList *l = q_begin(q);
        if (l) {
            D3D12_WRITEBUFFERIMMEDIATE_PARAMETER p[3] = {{va + 0, 0xdeadbeef}, {va + 8, 0x12345678},
                                                          {va + 252, 0xcafef00d}};
            D3D12_WRITEBUFFERIMMEDIATE_MODE m[2] = {D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_IN,
                                                    D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_OUT};
            ID3D12GraphicsCommandList_CopyBufferRegion(l, def, 0, up_init, 0, 256);
            wbi(l, 1, p, NULL);
            wbi(l, 2, p + 1, m);
            barrier(l, def, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
            ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 0, def, 0, 256);
            if (q_submit(q)) {
                read_buf(rb, 0, got, 256);
                memcpy(want, init, 256);
                UINT32 v[3] = {0xdeadbeef, 0x12345678, 0xcafef00d};
                memcpy(want + 0, &v[0], 4);
                memcpy(want + 8, &v[1], 4);
                memcpy(want + 252, &v[2], 4);
                CHECK_BYTES("values written by WriteBufferImmediate", got, want, 256);
            }
        }
    }
    {
        D3D12_WRITEBUFFERIMMEDIATE_PARAMETER ok = {va + 4, 1}, unaligned = {va + 2, 1};
        D3D12_WRITEBUFFERIMMEDIATE_MODE bad = (D3D12_WRITEBUFFERIMMEDIATE_MODE)3;
        set_ctx("WriteBufferImmediate invalid mode");
        EXPECT_CLOSE(DIRECT, S_OK, wbi(l, 1, &ok, NULL));
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, wbi(l, 1, &ok, &bad));
        set_ctx("WriteBufferImmediate unaligned Dest");
        EXPECT_CLOSE(DIRECT, E_INVALIDARG, wbi(l, 1, &unaligned, NULL));
    }

    /* AtomicCopyBufferUINT / UINT64 from an UPLOAD buffer (GENERIC_READ includes COPY_SOURCE). */
    set_ctx("AtomicCopyBufferUINT/UINT64");
    {
        unsigned char src[64];
        fill_pattern(src, sizeof(src), 77);
        ID3D12Resource *up = upload_of(src, sizeof(src));
        ID3D12GraphicsCommandList *l = up ? q_begin(q) : NULL;
        if (l) {
            ID3D12GraphicsCommandList_CopyBufferRegion(l, def2, 0, up_init, 0, 256);
            atomic_copy(l, 0, def2, 8, up, 4);
            atomic_copy(l, 1, def2, 24, up, 16);
            barrier(l, def2, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
            ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 0, def2, 0, 64);
            if (q_submit(q)) {
                read_buf(rb, 0, got, 64);
                memcpy(want, init, 64);
                memcpy(want + 8, src + 4, 4);
                memcpy(want + 24, src + 16, 8);
                CHECK_BYTES("atomic copies", got, want, 64);
            }
        }
        if (up) {
            set_ctx("AtomicCopyBuffer invalid offsets");
            EXPECT_CLOSE(DIRECT, S_OK, atomic_copy(l, 1, def2, 248, up, 56));
            EXPECT_CLOSE(DIRECT, E_INVALIDARG, atomic_copy(l, 0, def2, 2, up, 0));
            EXPECT_CLOSE(DIRECT, E_INVALIDARG, atomic_copy(l, 1, def2, 4, up, 0));
            EXPECT_CLOSE(DIRECT, E_INVALIDARG, atomic_copy(l, 0, def2, 256, up, 0));
            EXPECT_CLOSE(DIRECT, E_INVALIDARG, atomic_copy(l, 1, def2, 0, up, 60));
        }
        RELEASE0(up);
    }

    /* SetPredication (docs): EQUAL_ZERO "enables predication if all 64-bits are zero" — the
     * predicated copy is skipped; NOT_EQUAL_ZERO the other way round; NULL turns it off. */
    set_ctx("SetPredication");
    {
        UINT64 predicate[2] = {0, 1};
        unsigned char a[256], b[256];
        fill_pattern(a, sizeof(a), 81);
        fill_pattern(b, sizeof(b), 82);
        ID3D12Resource *pred = upload_of(predicate, sizeof(predicate));
        ID3D12Resource *ua = upload_of(a, sizeof(a)), *ub = upload_of(b, sizeof(b));
        ID3D12GraphicsCommandList *l = pred && ua && ub ? q_begin(q) : NULL;
        if (l) {
            unsigned char *m = map_buf(rb);
            if (m) {
                memset(m, 0, 2048);
                unmap_buf(rb);
            }
            ID3D12GraphicsCommandList_SetPredication(l, pred, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
            ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 0, ua, 0, 256); /* skipped */
            ID3D12GraphicsCommandList_SetPredication(l, pred, 8, D3D12_PREDICATION_OP_EQUAL_ZERO);
            ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 256, ua, 0, 256); /* runs */
            ID3D12GraphicsCommandList_SetPredication(l, pred, 0, D3D12_PREDICATION_OP_NOT_EQUAL_ZERO);
            ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 512, ub, 0, 256); /* runs */
            ID3D12GraphicsCommandList_SetPredication(l, pred, 8, D3D12_PREDICATION_OP_NOT_EQUAL_ZERO);
            ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 768, ub, 0, 256); /* skipped */
            ID3D12GraphicsCommandList_SetPredication(l, NULL, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
            ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 1024, ua, 0, 256); /* runs */
            if (q_submit(q)) {
                read_buf(rb, 0, got, 1280);
                memset(want, 0, 1280);
                memcpy(want + 256, a, 256);
                memcpy(want + 512, b, 256);
                memcpy(want + 1024, a, 256);
                CHECK_BYTES("predicated copies", got, want, 1280);
            }
        }
        if (pred) {
            set_ctx("SetPredication offset 4");
            EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                         ID3D12GraphicsCommandList_SetPredication(l, pred, 4, D3D12_PREDICATION_OP_EQUAL_ZERO));
            set_ctx("SetPredication beyond the buffer");
            EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                         ID3D12GraphicsCommandList_SetPredication(l, pred, 16, D3D12_PREDICATION_OP_EQUAL_ZERO));
            set_ctx("SetPredication op 2");
            EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                         ID3D12GraphicsCommandList_SetPredication(l, pred, 0, (D3D12_PREDICATION_OP)2));
            /* Close docs: E_FAIL when a method invalid for the list type was recorded. */
            set_ctx("SetPredication on a copy list");
            EXPECT_CLOSE(D3D12_COMMAND_LIST_TYPE_COPY, E_FAIL,
                         ID3D12GraphicsCommandList_SetPredication(l, pred, 0, D3D12_PREDICATION_OP_EQUAL_ZERO));
        }
        RELEASE0(pred);
        RELEASE0(ua);
        RELEASE0(ub);
    }

out:
    RELEASE0(up_init);
    RELEASE0(def);
    RELEASE0(def2);
    RELEASE0(rb);
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 7. reserved buffers --------------------------------------------------------------------- */

/* Maps tile `tile` of the reserved buffer to heap tile `heap_tile` (heap NULL: unmaps it). */
static void map_tile(ID3D12CommandQueue *queue, ID3D12Resource *r, UINT tile, ID3D12Heap *heap, UINT heap_tile)
{
    D3D12_TILED_RESOURCE_COORDINATE c = {tile, 0, 0, 0};
    D3D12_TILE_REGION_SIZE sz = {1, FALSE, 0, 0, 0};
    D3D12_TILE_RANGE_FLAGS fl = heap ? D3D12_TILE_RANGE_FLAG_NONE : D3D12_TILE_RANGE_FLAG_NULL;
    UINT one = 1;
    ID3D12CommandQueue_UpdateTileMappings(queue, r, 1, &c, &sz, heap, 1, &fl, &heap_tile, &one,
                                          D3D12_TILE_MAPPING_FLAG_NONE);
}

static void test_reserved(struct q *q)
{
    ULONG base = refcount(dev);
    D3D12_RESOURCE_DESC bd = buf_desc(2 * 65536);
    ID3D12Resource *r = NULL, *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 8192), *view = NULL;
    ID3D12Heap *heap = NULL;
    unsigned char data[4096], got[8192], want[8192];
    fill_pattern(data, sizeof(data), 99);
    ID3D12Resource *up = upload_of(data, sizeof(data));

    set_ctx("reserved buffer");
    CHECK_CREATED(ID3D12Device_CreateReservedResource(dev, &bd, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                                                      (void **)&r),
                  r);
    D3D12_HEAP_DESC hd;
    memset(&hd, 0, sizeof(hd));
    hd.SizeInBytes = 65536;
    hd.Properties = hprops(D3D12_HEAP_TYPE_DEFAULT);
    hd.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    CHECK_CREATED(ID3D12Device_CreateHeap(dev, &hd, &IID_ID3D12Heap, (void **)&heap), heap);
    if (!r || !rb || !heap || !up)
        goto out;

    /* Tile 0 → heap tile 0; tile 1 stays unmapped (writes dropped, reads zero: tier 2+). */
    map_tile(q->queue, r, 0, heap, 0);
    ID3D12GraphicsCommandList *l = q_begin(q);
    if (l) {
        ID3D12GraphicsCommandList_CopyBufferRegion(l, r, 512, up, 0, sizeof(data));
        ID3D12GraphicsCommandList_CopyBufferRegion(l, r, 65536 + 512, up, 0, sizeof(data));
        barrier(l, r, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 0, r, 512, 4096);
        ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 4096, r, 65536 + 512, 4096);
        if (q_submit(q)) {
            read_buf(rb, 0, got, 8192);
            memset(want, 0, sizeof(want));
            memcpy(want, data, 4096);
            CHECK_BYTES("mapped tile 0 then unmapped tile 1", got, want, 8192);
        }
    }

    /* The data lives in the heap: a buffer placed at offset 0 sees it at 512. */
    set_ctx("heap behind the mapped tile");
    {
        D3D12_RESOURCE_DESC vd = buf_desc(65536);
        CHECK_CREATED(ID3D12Device_CreatePlacedResource(dev, heap, 0, &vd, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                        &IID_ID3D12Resource, (void **)&view),
                      view);
    }
    if (view && buf_readback(q, view, 512, got, 4096))
        CHECK_BYTES("heap bytes [512, 4608)", got, data, 4096);

    /* Tile 1 → the same heap tile: both tiles show the data, and a write through tile 1 lands
     * in the heap. */
    set_ctx("tile 1 mapped onto heap tile 0");
    map_tile(q->queue, r, 1, heap, 0);
    if (buf_readback(q, r, 65536 + 512, got, 4096))
        CHECK_BYTES("tile 1 aliases heap tile 0", got, data, 4096);
    {
        unsigned char more[1024];
        fill_pattern(more, sizeof(more), 98);
        if (view && buf_upload(q, r, 65536 + 8192, more, sizeof(more)) && buf_readback(q, view, 8192, got, 1024))
            CHECK_BYTES("written through tile 1, read in the heap", got, more, 1024);
    }

    /* WriteBufferImmediate reaches the reserved buffer by its GPU virtual address: a word
     * written through tile 1 lands in the heap tile behind it. */
    set_ctx("WriteBufferImmediate into a reserved buffer");
    {
        ID3D12GraphicsCommandList *wl = q_begin(q);
        if (wl) {
            D3D12_WRITEBUFFERIMMEDIATE_PARAMETER p = {ID3D12Resource_GetGPUVirtualAddress(r) + 65536 + 16384,
                                                      0xC0FFEE11u};
            wbi(wl, 1, &p, NULL);
            if (q_submit(q) && view && buf_readback(q, view, 16384, got, 4)) {
                UINT v;
                memcpy(&v, got, 4);
                CHECK_EQ(v, 0xC0FFEE11u);
            }
        }
    }

    /* CopyTileMappings: a second reserved buffer's tile 0 takes tile 1's mapping of the first
     * (heap tile 0), then its own tile 1 takes its tile 0's; both show the heap's bytes. */
    set_ctx("CopyTileMappings");
    {
        ID3D12Resource *r2 = NULL;
        CHECK_CREATED(ID3D12Device_CreateReservedResource(dev, &bd, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                          &IID_ID3D12Resource, (void **)&r2),
                      r2);
        if (r2) {
            D3D12_TILED_RESOURCE_COORDINATE t0 = {0, 0, 0, 0}, t1 = {1, 0, 0, 0};
            D3D12_TILE_REGION_SIZE one = {1, FALSE, 0, 0, 0};
            ID3D12CommandQueue_CopyTileMappings(q->queue, r2, &t0, r, &t1, &one, D3D12_TILE_MAPPING_FLAG_NONE);
            ID3D12CommandQueue_CopyTileMappings(q->queue, r2, &t1, r2, &t0, &one, D3D12_TILE_MAPPING_FLAG_NONE);
            if (buf_readback(q, r2, 512, got, 4096))
                CHECK_BYTES("tile 0 copied from the other buffer", got, data, 4096);
            if (buf_readback(q, r2, 65536 + 512, got, 4096))
                CHECK_BYTES("tile 1 copied within the buffer", got, data, 4096);
            RELEASE0(r2);
        }
    }

    /* Unmapping tile 0 (NULL range): it reads zero again. */
    set_ctx("tile 0 unmapped");
    map_tile(q->queue, r, 0, NULL, 0);
    memset(want, 0, 4096);
    if (buf_readback(q, r, 512, got, 4096))
        CHECK_BYTES("unmapped tile reads zero", got, want, 4096);

out:
    RELEASE0(view);
    RELEASE0(r);
    RELEASE0(heap);
    RELEASE0(rb);
    RELEASE0(up);
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 11. clears ------------------------------------------------------------------------------
 * ClearRenderTargetView, ClearDepthStencilView and ClearUnorderedAccessView{Uint,Float} write
 * their values into the views' elements (whole views, rectangles, one mip/slice of an array,
 * planes of depth-stencil formats, buffer views); results are read back through copies. Values
 * are converted by the D3D rules (FLOAT -> UNORM multiplies by 255 and rounds: 0.2 -> 0x33,
 * 0.6 -> 0x99; ClearUnorderedAccessViewUint writes the low bits of each value unconverted). */

static ID3D12DescriptorHeap *make_heap(D3D12_DESCRIPTOR_HEAP_TYPE type, UINT n, int visible)
{
    D3D12_DESCRIPTOR_HEAP_DESC hd;
    memset(&hd, 0, sizeof(hd));
    hd.Type = type;
    hd.NumDescriptors = n;
    hd.Flags = visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE : D3D12_DESCRIPTOR_HEAP_FLAG_NONE;
    ID3D12DescriptorHeap *h;
    CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&h), h);
    return h;
}

static D3D12_CPU_DESCRIPTOR_HANDLE cpu_at(ID3D12DescriptorHeap *h, UINT i)
{
    D3D12_CPU_DESCRIPTOR_HANDLE c = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(h);
    D3D12_DESCRIPTOR_HEAP_DESC d = ID3D12DescriptorHeap_GetDesc(h);
    c.ptr += (SIZE_T)i * ID3D12Device_GetDescriptorHandleIncrementSize(dev, d.Type);
    return c;
}

static D3D12_GPU_DESCRIPTOR_HANDLE gpu_at(ID3D12DescriptorHeap *h, UINT i)
{
    D3D12_GPU_DESCRIPTOR_HANDLE g = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(h);
    D3D12_DESCRIPTOR_HEAP_DESC d = ID3D12DescriptorHeap_GetDesc(h);
    g.ptr += (UINT64)i * ID3D12Device_GetDescriptorHandleIncrementSize(dev, d.Type);
    return g;
}

/* Copies subresource `sub` of texture `t` (in `state`) into a READBACK buffer and returns it
 * (NULL on failure); `fp` receives the footprint. The texture is back in `state` afterwards. */
static ID3D12Resource *readback_sub(struct q *q, ID3D12Resource *t, const D3D12_RESOURCE_DESC *d, UINT sub,
                                    D3D12_RESOURCE_STATES state, struct footprint *fp)
{
    *fp = footprint_of(d, sub);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, fp->total);
    ID3D12GraphicsCommandList *l = q_begin(q);
    if (!rb || !l)
        return rb;
    barrier(l, t, sub, state, D3D12_RESOURCE_STATE_COPY_SOURCE);
    D3D12_TEXTURE_COPY_LOCATION dl = loc_fp(rb, &fp->fp), sl = loc_sub(t, sub);
    ID3D12GraphicsCommandList_CopyTextureRegion(l, &dl, 0, 0, 0, &sl, NULL);
    barrier(l, t, sub, D3D12_RESOURCE_STATE_COPY_SOURCE, state);
    q_submit(q);
    return rb;
}

/* Reads texel (x, y) of `bytes` bytes from a read-back footprint. */
static void texel_at(ID3D12Resource *rb, const struct footprint *fp, UINT x, UINT y, UINT bytes, void *out)
{
    read_buf(rb, fp->fp.Offset + (UINT64)y * fp->fp.Footprint.RowPitch + (UINT64)x * bytes, out, bytes);
}

static void test_clear_rtv(struct q *q)
{
    set_ctx("ClearRenderTargetView");
    ID3D12DescriptorHeap *rtvs = make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 2, 0);
    /* 8x8 RGBA8, 2 slices, 2 mips, render target. */
    D3D12_RESOURCE_DESC d = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8, 2, 2, 0);
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    ID3D12Resource *t = make_committed(D3D12_HEAP_TYPE_DEFAULT, &d, D3D12_RESOURCE_STATE_RENDER_TARGET);
    if (!rtvs || !t)
        goto out;
    /* View 0: mip 0 of both slices; view 1: mip 1 of slice 1. */
    D3D12_RENDER_TARGET_VIEW_DESC v;
    memset(&v, 0, sizeof(v));
    v.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    v.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DARRAY;
    v.Texture2DArray.ArraySize = 2;
    ID3D12Device_CreateRenderTargetView(dev, t, &v, cpu_at(rtvs, 0));
    v.Texture2DArray.MipSlice = 1;
    v.Texture2DArray.FirstArraySlice = 1;
    v.Texture2DArray.ArraySize = 1;
    ID3D12Device_CreateRenderTargetView(dev, t, &v, cpu_at(rtvs, 1));

    ID3D12GraphicsCommandList *l = q_begin(q);
    if (!l)
        goto out;
    const FLOAT c0[4] = {1.0f, 0.0f, 0.2f, 0.6f}, c1[4] = {0.0f, 1.0f, 0.0f, 1.0f}, c2[4] = {0.6f, 0.6f, 0.6f, 0.0f};
    ID3D12GraphicsCommandList_ClearRenderTargetView(l, cpu_at(rtvs, 0), c0, 0, NULL);
    /* Two rectangles, one partly outside the view (clipped), one empty (ignored). */
    D3D12_RECT r[3] = {{2, 1, 5, 3}, {6, 6, 20, 20}, {4, 4, 4, 8}};
    ID3D12GraphicsCommandList_ClearRenderTargetView(l, cpu_at(rtvs, 0), c1, 3, r);
    ID3D12GraphicsCommandList_ClearRenderTargetView(l, cpu_at(rtvs, 1), c2, 0, NULL);
    if (!q_submit(q))
        goto out;

    for (UINT slice = 0; slice < 2; slice++) {
        struct footprint fp;
        ID3D12Resource *rb = readback_sub(q, t, &d, slice * 2, D3D12_RESOURCE_STATE_RENDER_TARGET, &fp);
        unsigned bad = 0;
        for (UINT y = 0; y < 8 && rb; y++)
            for (UINT x = 0; x < 8; x++) {
                unsigned char px[4];
                texel_at(rb, &fp, x, y, 4, px);
                int in_rect = (x >= 2 && x < 5 && y >= 1 && y < 3) || (x >= 6 && y >= 6);
                const unsigned char *want = in_rect ? (const unsigned char *)"\x00\xff\x00\xff"
                                                    : (const unsigned char *)"\xff\x00\x33\x99";
                if (memcmp(px, want, 4) != 0 && bad++ == 0)
                    printf("slice %u texel (%u,%u) = %02x%02x%02x%02x\n", slice, x, y, px[0], px[1], px[2], px[3]);
            }
        set_ctx("ClearRenderTargetView slice %u mip 0", slice);
        CHECK_EQ(bad, 0);
        RELEASE0(rb);
        /* Mip 1: cleared through view 1 on slice 1 only; slice 0's mip 1 keeps its zeros. */
        rb = readback_sub(q, t, &d, slice * 2 + 1, D3D12_RESOURCE_STATE_RENDER_TARGET, &fp);
        bad = 0;
        for (UINT y = 0; y < 4 && rb; y++)
            for (UINT x = 0; x < 4; x++) {
                unsigned char px[4];
                texel_at(rb, &fp, x, y, 4, px);
                const unsigned char *want = slice == 1 ? (const unsigned char *)"\x99\x99\x99\x00"
                                                       : (const unsigned char *)"\x00\x00\x00\x00";
                bad += memcmp(px, want, 4) != 0;
            }
        set_ctx("ClearRenderTargetView slice %u mip 1", slice);
        CHECK_EQ(bad, 0);
        RELEASE0(rb);
    }

    /* Invalid clears: Close fails with E_INVALIDARG (a handle in no heap, NULL rects with
     * NumRects > 0, NULL color) or E_FAIL (a compute list). */
    set_ctx("ClearRenderTargetView invalid");
    D3D12_CPU_DESCRIPTOR_HANDLE bogus = {0x1000}, rt0 = cpu_at(rtvs, 0);
    EXPECT_CLOSE(DIRECT, S_OK, ID3D12GraphicsCommandList_ClearRenderTargetView(l, rt0, c0, 0, NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_ClearRenderTargetView(l, bogus, c0, 0, NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_ClearRenderTargetView(l, rt0, c0, 1, NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG, ID3D12GraphicsCommandList_ClearRenderTargetView(l, rt0, NULL, 0, NULL));
    EXPECT_CLOSE(D3D12_COMMAND_LIST_TYPE_COMPUTE, E_FAIL,
                 ID3D12GraphicsCommandList_ClearRenderTargetView(l, rt0, c0, 0, NULL));
out:
    RELEASE0(t);
    RELEASE0(rtvs);
    set_ctx("%s", "");
}

static void test_clear_dsv(struct q *q)
{
    set_ctx("ClearDepthStencilView");
    ID3D12DescriptorHeap *dsvs = make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 3, 0);
    D3D12_RESOURCE_DESC d32 = tex_desc(DXGI_FORMAT_D32_FLOAT, 4, 4, 1, 1, 0);
    d32.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    D3D12_RESOURCE_DESC d24 = tex_desc(DXGI_FORMAT_D24_UNORM_S8_UINT, 4, 4, 1, 1, 0);
    d24.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    ID3D12Resource *a = make_committed(D3D12_HEAP_TYPE_DEFAULT, &d32, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    ID3D12Resource *b = make_committed(D3D12_HEAP_TYPE_DEFAULT, &d24, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    if (!dsvs || !a || !b)
        goto out;
    ID3D12Device_CreateDepthStencilView(dev, a, NULL, cpu_at(dsvs, 0));
    ID3D12Device_CreateDepthStencilView(dev, b, NULL, cpu_at(dsvs, 1));
    D3D12_DEPTH_STENCIL_VIEW_DESC ro;
    memset(&ro, 0, sizeof(ro));
    ro.Format = DXGI_FORMAT_D24_UNORM_S8_UINT;
    ro.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2D;
    ro.Flags = D3D12_DSV_FLAG_READ_ONLY_DEPTH;
    ID3D12Device_CreateDepthStencilView(dev, b, &ro, cpu_at(dsvs, 2));

    ID3D12GraphicsCommandList *l = q_begin(q);
    if (!l)
        goto out;
    D3D12_RECT r = {1, 1, 3, 4};
    ID3D12GraphicsCommandList_ClearDepthStencilView(l, cpu_at(dsvs, 0), D3D12_CLEAR_FLAG_DEPTH, 0.5f, 0, 0, NULL);
    ID3D12GraphicsCommandList_ClearDepthStencilView(l, cpu_at(dsvs, 0), D3D12_CLEAR_FLAG_DEPTH, 0.25f, 0, 1, &r);
    ID3D12GraphicsCommandList_ClearDepthStencilView(l, cpu_at(dsvs, 1),
                                                    D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL, 1.0f, 0x7f, 0,
                                                    NULL);
    /* Stencil only, through the read-only-depth view, on the rectangle. */
    ID3D12GraphicsCommandList_ClearDepthStencilView(l, cpu_at(dsvs, 2), D3D12_CLEAR_FLAG_STENCIL, 0.0f, 0xa5, 1, &r);
    if (!q_submit(q))
        goto out;

    struct footprint fp;
    ID3D12Resource *rb = readback_sub(q, a, &d32, 0, D3D12_RESOURCE_STATE_DEPTH_WRITE, &fp);
    unsigned bad = 0;
    for (UINT y = 0; y < 4 && rb; y++)
        for (UINT x = 0; x < 4; x++) {
            float v;
            texel_at(rb, &fp, x, y, 4, &v);
            int in_rect = x >= 1 && x < 3 && y >= 1;
            bad += v != (in_rect ? 0.25f : 0.5f);
        }
    set_ctx("ClearDepthStencilView D32_FLOAT");
    CHECK_EQ(bad, 0);
    RELEASE0(rb);
    /* D24S8 plane 0 (depth 1.0 = 0xffffff in the low 24 bits), plane 1 (stencil bytes). */
    rb = readback_sub(q, b, &d24, 0, D3D12_RESOURCE_STATE_DEPTH_WRITE, &fp);
    bad = 0;
    for (UINT y = 0; y < 4 && rb; y++)
        for (UINT x = 0; x < 4; x++) {
            uint32_t v;
            texel_at(rb, &fp, x, y, 4, &v);
            bad += (v & 0xffffff) != 0xffffff;
        }
    set_ctx("ClearDepthStencilView D24S8 depth");
    CHECK_EQ(bad, 0);
    RELEASE0(rb);
    rb = readback_sub(q, b, &d24, 1, D3D12_RESOURCE_STATE_DEPTH_WRITE, &fp);
    bad = 0;
    for (UINT y = 0; y < 4 && rb; y++)
        for (UINT x = 0; x < 4; x++) {
            unsigned char s;
            texel_at(rb, &fp, x, y, 1, &s);
            bad += s != ((x >= 1 && x < 3 && y >= 1) ? 0xa5 : 0x7f);
        }
    set_ctx("ClearDepthStencilView D24S8 stencil");
    CHECK_EQ(bad, 0);
    RELEASE0(rb);

    /* Invalid: no flags, unknown flags, depth outside [0, 1], an RTV-type handle. Depth
     * through a read-only-depth view is accepted, as on Windows (conf_recording.c reads back
     * what such clears write). */
    set_ctx("ClearDepthStencilView invalid");
    D3D12_CPU_DESCRIPTOR_HANDLE ds0 = cpu_at(dsvs, 0), ds2 = cpu_at(dsvs, 2);
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ClearDepthStencilView(l, ds0, (D3D12_CLEAR_FLAGS)0, 0.0f, 0, 0, NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ClearDepthStencilView(l, ds0, (D3D12_CLEAR_FLAGS)4, 0.0f, 0, 0, NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ClearDepthStencilView(l, ds0, D3D12_CLEAR_FLAG_DEPTH, 1.5f, 0, 0, NULL));
    EXPECT_CLOSE(DIRECT, S_OK,
                 ID3D12GraphicsCommandList_ClearDepthStencilView(l, ds2, D3D12_CLEAR_FLAG_DEPTH, 0.0f, 0, 0, NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ClearDepthStencilView(l, cpu_at(dsvs, 0), D3D12_CLEAR_FLAG_DEPTH, 0.0f, 0, 1,
                                                                 NULL));
out:
    RELEASE0(a);
    RELEASE0(b);
    RELEASE0(dsvs);
    set_ctx("%s", "");
}

static void test_clear_uav(struct q *q)
{
    set_ctx("ClearUnorderedAccessView");
    ID3D12DescriptorHeap *cpu = make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, 0);
    ID3D12DescriptorHeap *gpu = make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, 1);
    D3D12_RESOURCE_DESC bd = buf_desc(256);
    bd.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    ID3D12Resource *buf = make_committed(D3D12_HEAP_TYPE_DEFAULT, &bd, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_R32_FLOAT, 4, 4, 1, 1, 0);
    td.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    ID3D12Resource *tex = make_committed(D3D12_HEAP_TYPE_DEFAULT, &td, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 256);
    if (!cpu || !gpu || !buf || !tex || !rb)
        goto out;
    /* 0: raw view of words 2..5; 1: R16_UINT view of elements 40..47 (bytes 80..95);
     * 2: structured view (stride 8) of structures 16..17 (bytes 128..143); 3: the texture. */
    D3D12_UNORDERED_ACCESS_VIEW_DESC v[4];
    memset(v, 0, sizeof(v));
    v[0].Format = DXGI_FORMAT_R32_TYPELESS;
    v[0].ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    v[0].Buffer.FirstElement = 2;
    v[0].Buffer.NumElements = 4;
    v[0].Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    v[1].Format = DXGI_FORMAT_R16_UINT;
    v[1].ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    v[1].Buffer.FirstElement = 40;
    v[1].Buffer.NumElements = 8;
    v[2].ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    v[2].Buffer.FirstElement = 16;
    v[2].Buffer.NumElements = 2;
    v[2].Buffer.StructureByteStride = 8;
    v[3].Format = DXGI_FORMAT_R32_FLOAT;
    v[3].ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
    for (UINT i = 0; i < 4; i++) {
        ID3D12Resource *r = i == 3 ? tex : buf;
        ID3D12Device_CreateUnorderedAccessView(dev, r, NULL, &v[i], cpu_at(cpu, i));
        ID3D12Device_CreateUnorderedAccessView(dev, r, NULL, &v[i], cpu_at(gpu, i));
    }
    ID3D12GraphicsCommandList *l = q_begin(q);
    if (!l)
        goto out;
    ID3D12GraphicsCommandList_SetDescriptorHeaps(l, 1, &gpu);
    const UINT u0[4] = {0x11223344u, 1, 2, 3}, u1[4] = {0xabcd1234u, 0, 0, 0}, u2[4] = {0xcafef00du, 9, 9, 9};
    const FLOAT f3[4] = {1.5f, 0, 0, 0};
    ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(l, gpu_at(gpu, 0), cpu_at(cpu, 0), buf, u0, 0, NULL);
    ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(l, gpu_at(gpu, 1), cpu_at(cpu, 1), buf, u1, 0, NULL);
    ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(l, gpu_at(gpu, 2), cpu_at(cpu, 2), buf, u2, 0, NULL);
    D3D12_RECT r = {0, 0, 2, 1};
    ID3D12GraphicsCommandList_ClearUnorderedAccessViewFloat(l, gpu_at(gpu, 3), cpu_at(cpu, 3), tex, f3, 1, &r);
    D3D12_RESOURCE_BARRIER uav;
    memset(&uav, 0, sizeof(uav));
    uav.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &uav);
    barrier(l, buf, 0, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 0, buf, 0, 256);
    barrier(l, buf, 0, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    if (!q_submit(q))
        goto out;
    unsigned char want[256], got[256];
    memset(want, 0, sizeof(want));
    for (int i = 0; i < 4; i++)
        memcpy(want + 8 + 4 * i, "\x44\x33\x22\x11", 4);
    for (int i = 0; i < 8; i++)
        memcpy(want + 80 + 2 * i, "\x34\x12", 2); /* the low 16 bits of 0xabcd1234 */
    for (int i = 0; i < 4; i++)
        memcpy(want + 128 + 4 * i, "\x0d\xf0\xfe\xca", 4);
    read_buf(rb, 0, got, 256);
    set_ctx("ClearUnorderedAccessViewUint buffers");
    CHECK_BYTES("buffer bytes", got, want, 256);

    struct footprint fp;
    ID3D12Resource *trb = readback_sub(q, tex, &td, 0, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, &fp);
    unsigned bad = 0;
    for (UINT y = 0; y < 4 && trb; y++)
        for (UINT x = 0; x < 4; x++) {
            float f;
            texel_at(trb, &fp, x, y, 4, &f);
            bad += f != ((x < 2 && y < 1) ? 1.5f : 0.0f);
        }
    set_ctx("ClearUnorderedAccessViewFloat texture rect");
    CHECK_EQ(bad, 0);
    RELEASE0(trb);

    /* Invalid: Float on a structured view; a CPU handle in the shader-visible heap; pResource
     * not the view's resource; a GPU handle outside shader-visible heaps. All: Close
     * E_INVALIDARG. Float on a UINT view is accepted, as on Windows (values converted as
     * conf_recording.c checks). */
    set_ctx("ClearUnorderedAccessView invalid");
    D3D12_GPU_DESCRIPTOR_HANDLE g0 = gpu_at(gpu, 0), g1 = gpu_at(gpu, 1), g2 = gpu_at(gpu, 2);
    D3D12_GPU_DESCRIPTOR_HANDLE not_gpu = {cpu_at(cpu, 0).ptr};
    D3D12_CPU_DESCRIPTOR_HANDLE c0 = cpu_at(cpu, 0), c1 = cpu_at(cpu, 1), c2 = cpu_at(cpu, 2);
    D3D12_CPU_DESCRIPTOR_HANDLE visible0 = cpu_at(gpu, 0);
    EXPECT_CLOSE(DIRECT, S_OK, ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(l, g0, c0, buf, u0, 0, NULL));
    EXPECT_CLOSE(D3D12_COMMAND_LIST_TYPE_COMPUTE, S_OK,
                 ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(l, g0, c0, buf, u0, 0, NULL));
    EXPECT_CLOSE(DIRECT, S_OK, ID3D12GraphicsCommandList_ClearUnorderedAccessViewFloat(l, g1, c1, buf, f3, 0, NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ClearUnorderedAccessViewFloat(l, g2, c2, buf, f3, 0, NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(l, g0, visible0, buf, u0, 0, NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(l, g0, c0, tex, u0, 0, NULL));
    EXPECT_CLOSE(DIRECT, E_INVALIDARG,
                 ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(l, not_gpu, c0, buf, u0, 0, NULL));
out:
    RELEASE0(rb);
    RELEASE0(tex);
    RELEASE0(buf);
    RELEASE0(gpu);
    RELEASE0(cpu);
    set_ctx("%s", "");
}

static void test_clears(struct q *q)
{
    test_clear_rtv(q);
    test_clear_dsv(q);
    test_clear_uav(q);
}

/* ---- 2b. device removal by an invalid ExecuteCommandLists (second process) ----------------- */

/* The modes a child can run; each but "control" makes ExecuteCommandLists invalid. */
static const char *const g_removal_modes[] = {
    "control", "recording", "failed-close", "wrong-type", "bundle", "allocator-reset",
};

static char g_exe[4096];

/* Runs this program again as "--child MODE" and returns its exit status (or -1). */
static int run_child(const char *mode)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        execl(g_exe, g_exe, "--child", mode, (char *)NULL);
        _exit(127);
    }
    CHECK(pid > 0);
    if (pid <= 0)
        return -1;
    int status = 0;
    pid_t w;
    do
        w = waitpid(pid, &status, 0);
    while (w < 0 && errno == EINTR);
    if (w != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

static void test_removal(void)
{
    ssize_t n = readlink("/proc/self/exe", g_exe, sizeof(g_exe) - 1);
    CHECK(n > 0);
    g_exe[n > 0 ? n : 0] = 0;
    for (size_t i = 0; n > 0 && i < sizeof(g_removal_modes) / sizeof(g_removal_modes[0]); i++) {
        set_ctx("child %s", g_removal_modes[i]);
        /* The child exits 0 only when it ran its checks and all of them passed. */
        CHECK_EQ(run_child(g_removal_modes[i]), 0);
    }
    /* This process's device is untouched. */
    set_ctx("parent after the children");
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
    g_ctx[0] = 0;
}

/* Whether an eventfd is readable within `ms` milliseconds; reads (resets) it when it is. */
static int event_fired(int fd, int ms, uint64_t *count)
{
    struct pollfd p = {fd, POLLIN, 0};
    int r;
    do
        r = poll(&p, 1, ms);
    while (r < 0 && errno == EINTR);
    if (r != 1)
        return 0;
    uint64_t c = 0;
    if (read(fd, &c, sizeof(c)) != sizeof(c))
        return 0;
    if (count)
        *count = c;
    return 1;
}

/* The second process: a fresh device, one invalid submission (per the mode), then the removed
 * device's documented behaviour. Exit status 0 when at least one check ran and none failed;
 * otherwise the number of failed checks (at most 120), or 121 when no check ran. */
static int child_main(const char *mode)
{
    static char name_buf[96];
    snprintf(name_buf, sizeof(name_buf), "commands_c child (%s)", mode);
    g_name = name_buf;
    set_ctx("child %s", mode);
    alarm(60);
    int control = strcmp(mode, "control") == 0;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (!dev)
        goto done;
    ID3D12CommandQueue *queue = make_queue(DIRECT);
    ID3D12Fence *fence = make_fence(0);
    ID3D12Resource *up = make_buffer(D3D12_HEAP_TYPE_UPLOAD, 256);
    ID3D12Resource *def = make_buffer(D3D12_HEAP_TYPE_DEFAULT, 256);
    D3D12_COMMAND_LIST_TYPE type = strcmp(mode, "wrong-type") == 0 ? D3D12_COMMAND_LIST_TYPE_COPY
                                   : strcmp(mode, "bundle") == 0   ? D3D12_COMMAND_LIST_TYPE_BUNDLE
                                                                   : DIRECT;
    ID3D12CommandAllocator *a = NULL;
    ID3D12GraphicsCommandList *l = NULL;
    int ev = eventfd(0, EFD_CLOEXEC);
    CHECK(ev >= 0);
    if (queue && fence && up && def && ev >= 0 && open_list(type, &a, &l)) {
        if (type != D3D12_COMMAND_LIST_TYPE_BUNDLE)
            ID3D12GraphicsCommandList_CopyBufferRegion(l, def, 0, up, 0, 256);
        if (strcmp(mode, "failed-close") == 0) {
            ID3D12GraphicsCommandList_CopyBufferRegion(l, NULL, 0, up, 0, 256);
            CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_INVALIDARG);
        } else if (strcmp(mode, "recording") != 0) {
            CHECK_HR(ID3D12GraphicsCommandList_Close(l), S_OK);
        }
        if (strcmp(mode, "allocator-reset") == 0)
            CHECK_HR(ID3D12CommandAllocator_Reset(a), S_OK);
        /* An event registered before the removal. */
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 5, (HANDLE)(intptr_t)ev), S_OK);
        CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);

        execute(queue, l);

        if (control) {
            CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(fence), 1);
            CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
            CHECK(!event_fired(ev, 0, NULL));
        } else {
            /* Native Windows 10+: the device is removed with DXGI_ERROR_INVALID_CALL (sticky). */
            CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), DXGI_ERROR_INVALID_CALL);
            CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), DXGI_ERROR_INVALID_CALL);
            ID3D12Fence *f2;
            ID3D12CommandAllocator *a2;
            ID3D12Resource *r2;
            CHECK_FAILS(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&f2), f2,
                        DXGI_ERROR_DEVICE_REMOVED);
            CHECK_FAILS(ID3D12Device_CreateCommandAllocator(dev, DIRECT, &IID_ID3D12CommandAllocator, (void **)&a2),
                        a2, DXGI_ERROR_DEVICE_REMOVED);
            D3D12_HEAP_PROPERTIES hp = hprops(D3D12_HEAP_TYPE_DEFAULT);
            D3D12_RESOURCE_DESC bd = buf_desc(256);
            CHECK_FAILS(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &bd,
                                                             D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                                                             (void **)&r2),
                        r2, DXGI_ERROR_DEVICE_REMOVED);
            /* Docs (GetCompletedValue): UINT64_MAX once the device is removed; every event is
             * signalled, the ones registered before and after the removal. */
            CHECK_EQ(ID3D12Fence_GetCompletedValue(fence), UINT64_MAX);
            CHECK(event_fired(ev, 5000, NULL));
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1000, (HANDLE)(intptr_t)ev), S_OK);
            CHECK(event_fired(ev, 5000, NULL));
            /* A NULL event returns instead of blocking (SIGALRM would end a hang). */
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 2000, NULL), S_OK);
        }
    }
    RELEASE0(l);
    RELEASE0(a);
    RELEASE0(up);
    RELEASE0(def);
    RELEASE0(fence);
    RELEASE0(queue);
    if (ev >= 0)
        close(ev);
    CHECK_EQ(ID3D12Device_Release(dev), 0);
    dev = NULL;
done:
    g_ctx[0] = 0;
    printf("%s: %u passed, %u failed\n", g_name, g_passed, g_failed);
    fflush(stdout);
    if (g_failed)
        return g_failed > 120 ? 120 : (int)g_failed;
    return g_passed ? 0 : 121;
}

/* ---- main -------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child_main(argv[2]);
    if (argc != 1) {
        fprintf(stderr, "usage: %s (no arguments)\n", argv[0]);
        return 2;
    }

    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    CHECK(dev != NULL);
    if (dev) {
        CHECK_EQ(refcount(dev), 1);
        struct q q;
        if (q_init(&q, D3D12_COMMAND_LIST_TYPE_DIRECT)) {
            test_copies(&q);
            test_invalid_copies();
            test_invalid_barriers();
            test_lifecycle();
            test_removal();
            test_fences();
            test_two_queues();
            test_queries(&q);
            test_immediate(&q);
            test_reserved(&q);
            test_clears(&q);
            q_release(&q);
        }
        CHECK_EQ(refcount(dev), 1);
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    }

    printf("%s: %u passed, %u failed\n", g_name, g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
