/* tests/abi/conf_sync.c - Windows conformance of private data and fences (issue #16, items 16 to
 * 20) through the C ABI of libd3d12.so, written the way a C program compiled against Microsoft's
 * DirectX-Headers calls the runtime: CINTERFACE + COBJMACROS, IIDs from libDirectX-Guids.a,
 * event HANDLEs that are eventfds (DirectX-Headers' Linux convention).
 *
 *  16. ID3D12Object private data on every kind of object that has it: SetPrivateData with NULL
 *      data deletes (S_OK; S_FALSE when there was nothing), whatever the size;
 *      SetPrivateDataInterface(NULL) stores a NULL pointer (8 bytes); GetPrivateData's
 *      DXGI_ERROR_NOT_FOUND / DXGI_ERROR_MORE_DATA with the size written; stored interfaces are
 *      AddRef'd when stored and returned, Released when replaced, deleted or the object dies.
 *  17. A fence released while a queue Wait(fence, UINT64_MAX) and a SetEventOnCompletion on it
 *      are pending: Release returns 0, the event fires, the queue proceeds, the device lives.
 *  18. SetEventOnMultipleFenceCompletion: count 0, NULL arrays, unknown flags -> E_INVALIDARG;
 *      a one-fence ALL wait fires when the fence reaches the value, exactly once.
 *  19. A queue wait that a signal satisfied stays satisfied when the CPU rewinds the fence right
 *      after.
 *  20. Stress: wait-before-signal chains over three queues with a ping-pong between two of
 *      them, CPU and queue signals mixed, events. A watchdog thread ends the program with a
 *      failure if a pattern stops making progress (a lost wake-up), so it never hangs.
 *
 * Build and run like the other C tests (tests/abi/README.md), with -pthread; the last line is
 * "conf_sync_c: N passed, M failed" and the exit status is 0 only when M is 0. With
 * RD3D12_UNDER_VALGRIND set the stress loops run fewer iterations. The program re-executes
 * itself (/proc/self/exe --debug-child) for the debug layer's messages, which need a device
 * created with the layer on (one device per process); that mode is internal. */
#define _GNU_SOURCE
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static ID3D12Device *dev;

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Milliseconds a queue thread gets to reach a Wait it was given (more under valgrind). */
static unsigned settle_ms(void)
{
    return under_valgrind() ? 400 : 40;
}

/* Whether the eventfd becomes readable within `ms`; its counter (read, so reset) in *count. */
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

static HANDLE as_handle(int fd)
{
    return (HANDLE)(intptr_t)fd;
}

static ID3D12CommandQueue *make_queue(D3D12_COMMAND_LIST_TYPE type)
{
    D3D12_COMMAND_QUEUE_DESC d = {type, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    ID3D12CommandQueue *q;
    CHECK_CREATED(ID3D12Device_CreateCommandQueue(dev, &d, &IID_ID3D12CommandQueue, (void **)&q), q);
    return q;
}

static ID3D12Fence *make_fence(UINT64 initial)
{
    ID3D12Fence *f;
    CHECK_CREATED(ID3D12Device_CreateFence(dev, initial, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&f), f);
    return f;
}

/* ---- 16. private data ---------------------------------------------------------------------- */

/* A C-implemented IUnknown that counts its references. */
typedef struct counted {
    IUnknown iface;
    ULONG refs;
} counted;

static ULONG STDMETHODCALLTYPE counted_add_ref(IUnknown *This)
{
    return __atomic_add_fetch(&((counted *)This)->refs, 1, __ATOMIC_SEQ_CST);
}

static ULONG STDMETHODCALLTYPE counted_release(IUnknown *This)
{
    return __atomic_sub_fetch(&((counted *)This)->refs, 1, __ATOMIC_SEQ_CST);
}

static HRESULT STDMETHODCALLTYPE counted_query_interface(IUnknown *This, REFIID riid, void **ppv)
{
    (void)This;
    (void)riid;
    if (ppv)
        *ppv = NULL;
    return E_NOINTERFACE;
}

static IUnknownVtbl counted_vtbl = {counted_query_interface, counted_add_ref, counted_release};

static void counted_init(counted *c)
{
    c->iface.lpVtbl = &counted_vtbl;
    c->refs = 1;
}

static ULONG refs_of(const counted *c)
{
    return __atomic_load_n(&c->refs, __ATOMIC_SEQ_CST);
}

static const GUID GUID_BYTES = {0x5f1c0a11, 0x1d2e, 0x4c3b, {0x9a, 0x01, 0x16, 0x00, 0x00, 0x00, 0x00, 0x01}};
static const GUID GUID_IFACE = {0x5f1c0a11, 0x1d2e, 0x4c3b, {0x9a, 0x01, 0x16, 0x00, 0x00, 0x00, 0x00, 0x02}};
static const GUID GUID_KEEP = {0x5f1c0a11, 0x1d2e, 0x4c3b, {0x9a, 0x01, 0x16, 0x00, 0x00, 0x00, 0x00, 0x03}};

/* The whole GetPrivateData / SetPrivateData / SetPrivateDataInterface contract on one object.
 * Leaves `keep` stored under GUID_KEEP (one reference), for the object's destruction to
 * release. */
static void private_data_contract(ID3D12Object *o, counted *keep)
{
    unsigned char buf[16];
    UINT size;

    /* Nothing stored: DXGI_ERROR_NOT_FOUND, size 0. */
    size = sizeof(buf);
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_BYTES, &size, buf), DXGI_ERROR_NOT_FOUND);
    CHECK_EQ(size, 0);
    size = 7;
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_BYTES, &size, NULL), DXGI_ERROR_NOT_FOUND);
    CHECK_EQ(size, 0);
    /* Deleting an unset GUID: S_FALSE, whatever the size. */
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_BYTES, 0, NULL), S_FALSE);
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_BYTES, 5, NULL), S_FALSE);

    /* Bytes: a copy; size query; too small a buffer gets DXGI_ERROR_MORE_DATA and the size. */
    unsigned char hello[5] = {'h', 'e', 'l', 'l', 'o'};
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_BYTES, 5, hello), S_OK);
    hello[0] = 'j';
    size = 0;
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_BYTES, &size, NULL), S_OK);
    CHECK_EQ(size, 5);
    size = 4;
    memset(buf, 0xcc, sizeof(buf));
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_BYTES, &size, buf), DXGI_ERROR_MORE_DATA);
    CHECK_EQ(size, 5);
    size = sizeof(buf);
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_BYTES, &size, buf), S_OK);
    CHECK_EQ(size, 5);
    CHECK(memcmp(buf, "hello", 5) == 0);
    CHECK_EQ(buf[5], 0xcc);
    /* pDataSize NULL is invalid. */
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_BYTES, NULL, buf), E_INVALIDARG);

    /* SetPrivateData(guid, n, NULL), n != 0: deletes (S_OK), a second delete is S_FALSE. */
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_BYTES, 5, NULL), S_OK);
    size = sizeof(buf);
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_BYTES, &size, buf), DXGI_ERROR_NOT_FOUND);
    CHECK_EQ(size, 0);
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_BYTES, 5, NULL), S_FALSE);
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_BYTES, 0, NULL), S_FALSE);

    /* SetPrivateDataInterface(guid, NULL): an entry holding a NULL pointer, pointer-sized. */
    CHECK_HR(ID3D12Object_SetPrivateDataInterface(o, &GUID_IFACE, NULL), S_OK);
    size = 0;
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_IFACE, &size, NULL), S_OK);
    CHECK_EQ(size, 8);
    IUnknown *out = SENTINEL;
    size = sizeof(out);
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_IFACE, &size, &out), S_OK);
    CHECK_EQ(size, 8);
    CHECK_PTR(out, NULL);
    size = 4;
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_IFACE, &size, buf), DXGI_ERROR_MORE_DATA);
    CHECK_EQ(size, 8);
    /* ... which SetPrivateData(NULL) deletes like any entry. */
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_IFACE, 0, NULL), S_OK);
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_IFACE, 0, NULL), S_FALSE);

    /* Interfaces: one reference held; GetPrivateData returns it AddRef'd; replaced, deleted,
     * or replaced by bytes, it is Released. */
    counted a, b;
    counted_init(&a);
    counted_init(&b);
    CHECK_HR(ID3D12Object_SetPrivateDataInterface(o, &GUID_IFACE, &a.iface), S_OK);
    CHECK_EQ(refs_of(&a), 2);
    CHECK_HR(ID3D12Object_SetPrivateDataInterface(o, &GUID_IFACE, &a.iface), S_OK);
    CHECK_EQ(refs_of(&a), 2);
    size = sizeof(out);
    out = NULL;
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_IFACE, &size, &out), S_OK);
    CHECK_EQ(size, 8);
    CHECK_PTR(out, &a.iface);
    CHECK_EQ(refs_of(&a), 3);
    if (out == &a.iface)
        IUnknown_Release(out);
    /* A size query and a too-small buffer return no reference. */
    size = 0;
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_IFACE, &size, NULL), S_OK);
    size = 4;
    CHECK_HR(ID3D12Object_GetPrivateData(o, &GUID_IFACE, &size, buf), DXGI_ERROR_MORE_DATA);
    CHECK_EQ(refs_of(&a), 2);
    CHECK_HR(ID3D12Object_SetPrivateDataInterface(o, &GUID_IFACE, &b.iface), S_OK);
    CHECK_EQ(refs_of(&a), 1);
    CHECK_EQ(refs_of(&b), 2);
    CHECK_HR(ID3D12Object_SetPrivateDataInterface(o, &GUID_IFACE, NULL), S_OK);
    CHECK_EQ(refs_of(&b), 1);
    CHECK_HR(ID3D12Object_SetPrivateDataInterface(o, &GUID_IFACE, &a.iface), S_OK);
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_IFACE, 2, "x"), S_OK);
    CHECK_EQ(refs_of(&a), 1);
    CHECK_HR(ID3D12Object_SetPrivateDataInterface(o, &GUID_IFACE, &b.iface), S_OK);
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_IFACE, 4, NULL), S_OK);
    CHECK_EQ(refs_of(&b), 1);
    CHECK_HR(ID3D12Object_SetPrivateData(o, &GUID_IFACE, 4, NULL), S_FALSE);

    /* Left for the object's destruction. */
    CHECK_HR(ID3D12Object_SetPrivateDataInterface(o, &GUID_KEEP, &keep->iface), S_OK);
    CHECK_EQ(refs_of(keep), 2);
}

/* The contract on `obj` (any ID3D12Object), then its last Release, which releases what it held. */
static void private_data_on(const char *what, void *obj)
{
    set_ctx("private data: %s", what);
    CHECK(obj != NULL);
    if (!obj)
        return;
    ID3D12Object *o = NULL;
    CHECK_HR(IUnknown_QueryInterface((IUnknown *)obj, &IID_ID3D12Object, (void **)&o), S_OK);
    if (o) {
        counted keep;
        counted_init(&keep);
        private_data_contract(o, &keep);
        ID3D12Object_Release(o);
        CHECK_EQ(IUnknown_Release((IUnknown *)obj), 0);
        CHECK_EQ(refs_of(&keep), 1);
    } else {
        IUnknown_Release((IUnknown *)obj);
    }
}

/* cs_5_0: [numthreads(1,1,1)] void main() {} (byte-identical to FXC's output) */
static const uint32_t cs_dxbc[] = {
    0x43425844, 0x1acc3ad0, 0x71c7b057, 0xc72c4306, 0xf432cb57, 0x00000001, 0x00000074, 0x00000003,
    0x0000002c, 0x0000003c, 0x0000004c, 0x4e475349, 0x00000008, 0x00000000, 0x00000008, 0x4e47534f,
    0x00000008, 0x00000000, 0x00000008, 0x58454853, 0x00000020, 0x00050050, 0x00000008, 0x0100086a,
    0x0400009b, 0x00000001, 0x00000001, 0x00000001, 0x0100003e,
};

static D3D12_RESOURCE_DESC buffer_desc(UINT64 width)
{
    D3D12_RESOURCE_DESC d = {D3D12_RESOURCE_DIMENSION_BUFFER, 0, width, 1, 1, 1, DXGI_FORMAT_UNKNOWN, {1, 0},
                             D3D12_TEXTURE_LAYOUT_ROW_MAJOR, D3D12_RESOURCE_FLAG_NONE};
    return d;
}

static void test_private_data(void)
{
    void *p;

    {
        D3D12_HEAP_DESC hd = {65536, {D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, 0}, 0, D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS};
        ID3D12Heap *heap;
        CHECK_CREATED(ID3D12Device_CreateHeap(dev, &hd, &IID_ID3D12Heap, (void **)&heap), heap);
        if (heap) {
            D3D12_RESOURCE_DESC bd = buffer_desc(65536);
            CHECK_CREATED(ID3D12Device_CreatePlacedResource(dev, heap, 0, &bd, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                            &IID_ID3D12Resource, &p),
                          p);
            private_data_on("placed resource", p);
        }
        private_data_on("heap", heap);
    }
    {
        D3D12_HEAP_PROPERTIES hp = {D3D12_HEAP_TYPE_UPLOAD, 0, 0, 0, 0};
        D3D12_RESOURCE_DESC bd = buffer_desc(256);
        CHECK_CREATED(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &bd,
                                                           D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
                                                           &IID_ID3D12Resource, &p),
                      p);
        private_data_on("committed resource", p);
        bd = buffer_desc(65536);
        CHECK_CREATED(ID3D12Device_CreateReservedResource(dev, &bd, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                          &IID_ID3D12Resource, &p),
                      p);
        private_data_on("reserved resource", p);
    }
    {
        ID3D12CommandAllocator *alloc;
        CHECK_CREATED(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                          &IID_ID3D12CommandAllocator, (void **)&alloc),
                      alloc);
        if (alloc) {
            CHECK_CREATED(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, alloc, NULL,
                                                         &IID_ID3D12GraphicsCommandList, &p),
                          p);
            private_data_on("command list", p);
        }
        private_data_on("command allocator", alloc);
    }
    private_data_on("command queue", make_queue(D3D12_COMMAND_LIST_TYPE_DIRECT));
    private_data_on("fence", make_fence(0));
    {
        D3D12_DESCRIPTOR_HEAP_DESC dd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4,
                                         D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
        CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &dd, &IID_ID3D12DescriptorHeap, &p), p);
        private_data_on("descriptor heap", p);
        D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_OCCLUSION, 1, 0};
        CHECK_CREATED(ID3D12Device_CreateQueryHeap(dev, &qd, &IID_ID3D12QueryHeap, &p), p);
        private_data_on("query heap", p);
        D3D12_INDIRECT_ARGUMENT_DESC arg = {.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH};
        D3D12_COMMAND_SIGNATURE_DESC sd = {sizeof(D3D12_DISPATCH_ARGUMENTS), 1, &arg, 0};
        CHECK_CREATED(ID3D12Device_CreateCommandSignature(dev, &sd, NULL, &IID_ID3D12CommandSignature, &p), p);
        private_data_on("command signature", p);
    }
    {
        D3D12_ROOT_SIGNATURE_DESC rd = {0, NULL, 0, NULL, D3D12_ROOT_SIGNATURE_FLAG_NONE};
        ID3DBlob *blob = NULL, *err = NULL;
        ID3D12RootSignature *rs = NULL;
        CHECK_HR(D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err), S_OK);
        if (err)
            ID3D10Blob_Release(err);
        if (blob) {
            CHECK_CREATED(ID3D12Device_CreateRootSignature(dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                                           ID3D10Blob_GetBufferSize(blob),
                                                           &IID_ID3D12RootSignature, (void **)&rs),
                          rs);
            ID3D10Blob_Release(blob);
        }
        if (rs) {
            D3D12_COMPUTE_PIPELINE_STATE_DESC cd = {rs, {cs_dxbc, sizeof(cs_dxbc)}, 0, {NULL, 0},
                                                    D3D12_PIPELINE_STATE_FLAG_NONE};
            CHECK_CREATED(ID3D12Device_CreateComputePipelineState(dev, &cd, &IID_ID3D12PipelineState, &p), p);
            private_data_on("pipeline state", p);
        }
        private_data_on("root signature", rs);
    }
    {
        ID3D12Device1 *d1 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device1, (void **)&d1), S_OK);
        if (d1) {
            CHECK_CREATED(ID3D12Device1_CreatePipelineLibrary(d1, NULL, 0, &IID_ID3D12PipelineLibrary, &p), p);
            private_data_on("pipeline library", p);
            ID3D12Device1_Release(d1);
        }
    }
    set_ctx(" ");
}

/* ---- 17. a fence released while waited on -------------------------------------------------- */

static void test_release_while_waited(void)
{
    set_ctx("fence released while waited on");
    ID3D12CommandQueue *q = make_queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Fence *f = make_fence(0), *done = make_fence(0);
    int ev = eventfd(0, EFD_CLOEXEC), ev_done = eventfd(0, EFD_CLOEXEC);
    CHECK(ev >= 0 && ev_done >= 0);
    if (q && f && done && ev >= 0 && ev_done >= 0) {
        CHECK_HR(ID3D12CommandQueue_Wait(q, f, UINT64_MAX), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(q, done, 1), S_OK);
        /* The documented device-removal callback: an event at UINT64_MAX. */
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, UINT64_MAX, as_handle(ev)), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, as_handle(ev_done)), S_OK);
        sleep_ms(settle_ms());
        CHECK(!event_fired(ev, 0, NULL));
        CHECK(!event_fired(ev_done, 0, NULL));
        CHECK_EQ(ID3D12Fence_GetCompletedValue(done), 0);

        CHECK_EQ(ID3D12Fence_Release(f), 0);
        f = NULL;
        uint64_t count = 0;
        CHECK(event_fired(ev, 5000, &count));
        CHECK_EQ(count, 1);
        /* The queue proceeds past the wait. */
        CHECK(event_fired(ev_done, 5000, NULL));
        CHECK_EQ(ID3D12Fence_GetCompletedValue(done), 1);
        CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
        /* And keeps executing what comes next. */
        CHECK_HR(ID3D12CommandQueue_Signal(q, done, 2), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 2, as_handle(ev_done)), S_OK);
        CHECK(event_fired(ev_done, 5000, NULL));
        CHECK_EQ(ID3D12Fence_GetCompletedValue(done), 2);
    }
    if (f)
        ID3D12Fence_Release(f);
    RELEASE0(done);
    RELEASE0(q);
    if (ev >= 0)
        close(ev);
    if (ev_done >= 0)
        close(ev_done);
}

/* ---- 18. SetEventOnMultipleFenceCompletion ------------------------------------------------- */

static void test_multiple_fence_wait(void)
{
    set_ctx("SetEventOnMultipleFenceCompletion");
    ID3D12Device1 *d1 = NULL;
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device1, (void **)&d1), S_OK);
    ID3D12Fence *f = make_fence(0);
    ID3D12CommandQueue *q = make_queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    int ev = eventfd(0, EFD_CLOEXEC);
    CHECK(ev >= 0);
    if (d1 && f && q && ev >= 0) {
        HANDLE h = as_handle(ev);
        ID3D12Fence *one[1] = {f}, *null_entry[1] = {NULL};
        UINT64 v[1] = {3};
        const D3D12_MULTIPLE_FENCE_WAIT_FLAGS ALL = D3D12_MULTIPLE_FENCE_WAIT_FLAG_ALL;

        set_ctx("SetEventOnMultipleFenceCompletion invalid arguments");
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, one, v, 0, ALL, h), E_INVALIDARG);
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, NULL, NULL, 0, ALL, h), E_INVALIDARG);
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, one, v, 0, D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY,
                                                                 h),
                 E_INVALIDARG);
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, NULL, v, 1, ALL, h), E_INVALIDARG);
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, one, NULL, 1, ALL, h), E_INVALIDARG);
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, null_entry, v, 1, ALL, h), E_INVALIDARG);
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, one, v, 1, (D3D12_MULTIPLE_FENCE_WAIT_FLAGS)2,
                                                                 h),
                 E_INVALIDARG);
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, one, v, 1,
                                                                 (D3D12_MULTIPLE_FENCE_WAIT_FLAGS)0x80000000u, h),
                 E_INVALIDARG);
        /* A NULL event does not block on a refused call. */
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, one, v, 0, ALL, NULL), E_INVALIDARG);
        /* Nothing was registered by the refused calls: reaching the value fires nothing. */
        CHECK_HR(ID3D12Fence_Signal(f, 3), S_OK);
        CHECK(!event_fired(ev, 50, NULL));

        set_ctx("SetEventOnMultipleFenceCompletion one fence, ALL");
        CHECK_HR(ID3D12Fence_Signal(f, 0), S_OK);
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, one, v, 1, ALL, h), S_OK);
        CHECK_HR(ID3D12Fence_Signal(f, 1), S_OK);
        CHECK_HR(ID3D12Fence_Signal(f, 2), S_OK);
        CHECK(!event_fired(ev, 20, NULL));
        CHECK_HR(ID3D12CommandQueue_Signal(q, f, 3), S_OK);
        uint64_t count = 0;
        CHECK(event_fired(ev, 5000, &count));
        CHECK_EQ(count, 1);
        /* Exactly once: further signals past, below and past again add nothing. */
        CHECK_HR(ID3D12Fence_Signal(f, 4), S_OK);
        CHECK_HR(ID3D12Fence_Signal(f, 0), S_OK);
        CHECK_HR(ID3D12Fence_Signal(f, 9), S_OK);
        CHECK(!event_fired(ev, 20, NULL));

        /* Already reached: fires at once, once. */
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, one, v, 1, ALL, h), S_OK);
        count = 0;
        CHECK(event_fired(ev, 0, &count));
        CHECK_EQ(count, 1);
        CHECK_HR(ID3D12Fence_Signal(f, 10), S_OK);
        CHECK(!event_fired(ev, 20, NULL));
        /* A NULL event blocks until then; here the value is reached, so it returns. */
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, one, v, 1, ALL, NULL), S_OK);
    }
    RELEASE0(q);
    RELEASE0(f);
    if (d1)
        ID3D12Device1_Release(d1);
    if (ev >= 0)
        close(ev);
}

/* The second process: the debug layer's message for unknown flags. Exit status 0 when every
 * check passed. */
static int debug_child(void)
{
    ID3D12Debug *dbg = NULL;
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&dbg), S_OK);
    if (dbg) {
        ID3D12Debug_EnableDebugLayer(dbg);
        ID3D12Debug_Release(dbg);
    }
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    ID3D12InfoQueue *iq = NULL;
    ID3D12Device1 *d1 = NULL;
    ID3D12Fence *f = NULL;
    if (dev) {
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12InfoQueue, (void **)&iq), S_OK);
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device1, (void **)&d1), S_OK);
        f = make_fence(0);
    }
    if (iq && d1 && f) {
        set_ctx("debug layer: SetEventOnMultipleFenceCompletion flags 2");
        ID3D12InfoQueue_ClearStoredMessages(iq);
        ID3D12Fence *one[1] = {f};
        UINT64 v[1] = {1};
        CHECK_HR(ID3D12Device1_SetEventOnMultipleFenceCompletion(d1, one, v, 1, (D3D12_MULTIPLE_FENCE_WAIT_FLAGS)2,
                                                                 NULL),
                 E_INVALIDARG);
        UINT64 n = ID3D12InfoQueue_GetNumStoredMessages(iq);
        CHECK_EQ(n, 1);
        SIZE_T len = 0;
        if (n >= 1 && SUCCEEDED(ID3D12InfoQueue_GetMessage(iq, n - 1, NULL, &len))) {
            D3D12_MESSAGE *m = malloc(len);
            if (m && SUCCEEDED(ID3D12InfoQueue_GetMessage(iq, n - 1, m, &len))) {
                CHECK_EQ(m->ID, D3D12_MESSAGE_ID_SETEVENTONMULTIPLEFENCECOMPLETION_INVALIDFLAGS);
                CHECK_EQ(m->Severity, D3D12_MESSAGE_SEVERITY_ERROR);
            }
            free(m);
        }
    }
    if (f)
        ID3D12Fence_Release(f);
    if (d1)
        ID3D12Device1_Release(d1);
    if (iq)
        ID3D12InfoQueue_Release(iq);
    if (dev)
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    printf("conf_sync_c debug child: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 && g_passed > 0 ? 0 : 1;
}

/* Runs this program again with --debug-child; its exit status, or -1. */
static int run_debug_child(void)
{
    static char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return -1;
    exe[n] = 0;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        execl(exe, exe, "--debug-child", (char *)NULL);
        _exit(127);
    }
    if (pid < 0)
        return -1;
    int status = 0;
    pid_t w;
    do
        w = waitpid(pid, &status, 0);
    while (w < 0 && errno == EINTR);
    return w == pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- 19. a queued wait keeps the signal it saw --------------------------------------------- */

static void test_wait_survives_rewind(void)
{
    ID3D12CommandQueue *q = make_queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    ID3D12Fence *f = make_fence(0), *done = make_fence(0);
    int ev = eventfd(0, EFD_CLOEXEC);
    CHECK(ev >= 0);
    if (!q || !f || !done || ev < 0)
        goto out;
    for (UINT64 v = 5; v <= 8; v++) {
        set_ctx("queue Wait(f, %llu), f signalled to 8 then rewound to 0", (unsigned long long)v);
        CHECK_HR(ID3D12CommandQueue_Wait(q, f, v), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(q, done, v), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, v, as_handle(ev)), S_OK);
        sleep_ms(settle_ms()); /* the queue is waiting now */
        CHECK_EQ(ID3D12Fence_GetCompletedValue(done), v - 1 < 5 ? 0 : v - 1);
        CHECK_HR(ID3D12Fence_Signal(f, 8), S_OK);
        CHECK_HR(ID3D12Fence_Signal(f, 0), S_OK);
        int fired = event_fired(ev, 5000, NULL);
        CHECK(fired);
        CHECK_EQ(ID3D12Fence_GetCompletedValue(done), v);
        CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 0);
        if (!fired) {
            /* Unblock the queue for the next round and the cleanup. */
            CHECK_HR(ID3D12Fence_Signal(f, UINT64_MAX), S_OK);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, v, NULL), S_OK);
            CHECK_HR(ID3D12Fence_Signal(f, 0), S_OK);
        }
    }

    /* Four waits queued one behind the other (the queue reaches the later ones after the
     * rewind): one signal to 8 satisfies all of them, as it reached each value after its Wait
     * was called. */
    set_ctx("queue Wait(f, 5..8) queued, f signalled to 8 then rewound to 0");
    CHECK_HR(ID3D12Fence_Signal(done, 0), S_OK);
    for (UINT64 v = 5; v <= 8; v++)
        CHECK_HR(ID3D12CommandQueue_Wait(q, f, v), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(q, done, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 1, as_handle(ev)), S_OK);
    CHECK_HR(ID3D12Fence_Signal(f, 8), S_OK);
    CHECK_HR(ID3D12Fence_Signal(f, 0), S_OK);
    {
        int fired = event_fired(ev, 5000, NULL);
        CHECK(fired);
        CHECK_EQ(ID3D12Fence_GetCompletedValue(done), 1);
        if (!fired)
            CHECK_HR(ID3D12Fence_Signal(f, UINT64_MAX), S_OK);
    }
    /* A wait for a value that is not reached still waits. */
    set_ctx("queue Wait(f, 9) after the rewind");
    CHECK_HR(ID3D12CommandQueue_Wait(q, f, 9), S_OK);
    CHECK_HR(ID3D12CommandQueue_Signal(q, done, 2), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(done, 2, as_handle(ev)), S_OK);
    CHECK(!event_fired(ev, (int)settle_ms(), NULL));
    CHECK_HR(ID3D12Fence_Signal(f, 9), S_OK);
    CHECK(event_fired(ev, 5000, NULL));
out:
    RELEASE0(q);
    RELEASE0(f);
    RELEASE0(done);
    if (ev >= 0)
        close(ev);
}

/* ---- 20. stress: chains of waits before signals over three queues -------------------------- */

/* The watchdog: each pattern arms it with a deadline; if the deadline passes before the pattern
 * disarms it, the program reports the pattern and its progress as a failure and exits (the
 * queues are stuck, so no cleanup is possible). */
static pthread_mutex_t g_wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_wd_cond = PTHREAD_COND_INITIALIZER;
static const char *g_wd_pattern; /* NULL: disarmed */
static struct timespec g_wd_deadline;
static int g_wd_quit;
static volatile unsigned g_progress; /* the iteration a pattern is in */

static void *watchdog_main(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&g_wd_lock);
    while (!g_wd_quit) {
        if (!g_wd_pattern) {
            pthread_cond_wait(&g_wd_cond, &g_wd_lock);
            continue;
        }
        if (pthread_cond_timedwait(&g_wd_cond, &g_wd_lock, &g_wd_deadline) == ETIMEDOUT && g_wd_pattern) {
            g_failed++;
            printf("tests/abi/conf_sync.c: [stress: %s] no progress before the deadline: stuck at iteration %u "
                   "(a lost wake-up)\n",
                   g_wd_pattern, __atomic_load_n(&g_progress, __ATOMIC_SEQ_CST));
            printf("conf_sync_c: %u passed, %u failed\n", g_passed, g_failed);
            fflush(stdout);
            _exit(1);
        }
    }
    pthread_mutex_unlock(&g_wd_lock);
    return NULL;
}

static void watchdog_arm(const char *pattern, unsigned seconds)
{
    pthread_mutex_lock(&g_wd_lock);
    clock_gettime(CLOCK_REALTIME, &g_wd_deadline);
    g_wd_deadline.tv_sec += seconds;
    g_wd_pattern = pattern;
    __atomic_store_n(&g_progress, 0, __ATOMIC_SEQ_CST);
    pthread_cond_signal(&g_wd_cond);
    pthread_mutex_unlock(&g_wd_lock);
}

static void watchdog_disarm(void)
{
    pthread_mutex_lock(&g_wd_lock);
    g_wd_pattern = NULL;
    pthread_cond_signal(&g_wd_cond);
    pthread_mutex_unlock(&g_wd_lock);
}

static unsigned stress_iterations(void)
{
    return under_valgrind() ? 150 : 2000;
}

static unsigned stress_deadline_s(void)
{
    return under_valgrind() ? 240 : 60;
}

/* Blocks until `f` reaches `v` through an eventfd registration (poll with no timeout: the
 * watchdog bounds it). */
static void wait_event(ID3D12Fence *f, UINT64 v, int ev)
{
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, v, as_handle(ev)), S_OK);
    CHECK(event_fired(ev, -1, NULL));
}

struct stress {
    ID3D12CommandQueue *a, *b, *c;
    ID3D12Fence *f1, *f2, *f3;
    int ev;
};

/* A waits f1 >= i then signals f2 = i; B waits f2 >= i then signals f1 = i + 1; C waits on both
 * and signals f3 = i. Every wait is enqueued before the signal that satisfies it. */
static void pattern_ping_pong(struct stress *s, unsigned n)
{
    CHECK_HR(ID3D12Fence_Signal(s->f1, 1), S_OK);
    for (unsigned i = 1; i <= n; i++) {
        __atomic_store_n(&g_progress, i, __ATOMIC_SEQ_CST);
        CHECK_HR(ID3D12CommandQueue_Wait(s->c, s->f1, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(s->c, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->c, s->f3, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(s->b, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->b, s->f1, i + 1), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(s->a, s->f1, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->a, s->f2, i), S_OK);
        if (i % 64 == 0)
            wait_event(s->f3, i, s->ev);
    }
    wait_event(s->f3, n, s->ev);
    wait_event(s->f1, n + 1, s->ev); /* B's last signal may come after C's */
    CHECK_EQ(ID3D12Fence_GetCompletedValue(s->f1), n + 1);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(s->f2), n);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(s->f3), n);
}

/* The CPU signals f1 = i after A and C already wait for it; A forwards to f2, C waits on f2
 * and signals f3, which the CPU waits for with a NULL event every few iterations. */
static void pattern_cpu_signals(struct stress *s, unsigned n)
{
    for (unsigned i = 1; i <= n; i++) {
        __atomic_store_n(&g_progress, i, __ATOMIC_SEQ_CST);
        CHECK_HR(ID3D12CommandQueue_Wait(s->a, s->f1, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->a, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(s->c, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->c, s->f3, i), S_OK);
        CHECK_HR(ID3D12Fence_Signal(s->f1, i), S_OK);
        if (i % 8 == 0)
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(s->f3, i, NULL), S_OK);
    }
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(s->f3, n, NULL), S_OK);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(s->f3), n);
}

/* One fence signalled by the CPU (odd values) and by queue B (even values) in turn: A waits
 * f1 >= 2i - 1 (the CPU's) and signals f2 = i; B waits f2 >= i and signals f1 = 2i; the CPU
 * waits for 2i with an event before it signals 2i + 1. C follows both. Each registration fires
 * once: one eventfd count per value waited for. */
static void pattern_mixed(struct stress *s, unsigned n)
{
    uint64_t fired = 0;
    for (unsigned i = 1; i <= n; i++) {
        __atomic_store_n(&g_progress, i, __ATOMIC_SEQ_CST);
        CHECK_HR(ID3D12CommandQueue_Wait(s->b, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->b, s->f1, 2 * (UINT64)i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(s->a, s->f1, 2 * (UINT64)i - 1), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->a, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(s->c, s->f1, 2 * (UINT64)i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(s->c, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->c, s->f3, i), S_OK);
        CHECK_HR(ID3D12Fence_Signal(s->f1, 2 * (UINT64)i - 1), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(s->f1, 2 * (UINT64)i, as_handle(s->ev)), S_OK);
        uint64_t c = 0;
        CHECK(event_fired(s->ev, -1, &c));
        fired += c;
    }
    CHECK_EQ(fired, n);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(s->f3, n, NULL), S_OK);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(s->f1), 2 * (UINT64)n);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(s->f3), n);
}

/* A ping-pong through a fence that is raised and lowered at once: B pulses f1 (1, then 0) once
 * f2 >= i - 1; A, whose Wait(f1, 1) was called before that pulse, signals f2 = i; C follows f2.
 * Each pulse comes after the Wait it must satisfy was called, so every wait is satisfied even
 * though f1 is back at 0 almost at once. */
static void pattern_pulses(struct stress *s, unsigned n)
{
    for (unsigned i = 1; i <= n; i++) {
        __atomic_store_n(&g_progress, i, __ATOMIC_SEQ_CST);
        CHECK_HR(ID3D12CommandQueue_Wait(s->a, s->f1, 1), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->a, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(s->b, s->f2, i - 1), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->b, s->f1, 1), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->b, s->f1, 0), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(s->c, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->c, s->f3, i), S_OK);
        if (i % 64 == 0)
            wait_event(s->f3, i, s->ev);
    }
    wait_event(s->f3, n, s->ev);
    /* B's last pulse may come after C's signal: a signal behind it on B says it is done. */
    CHECK_HR(ID3D12CommandQueue_Signal(s->b, s->f3, n + 1), S_OK);
    wait_event(s->f3, n + 1, s->ev);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(s->f1), 0);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(s->f2), n);
}

/* The CPU raises f1 to i and rewinds it to 0 at once, after A's Wait(f1, i) was called; A
 * forwards to f2, C to f3. */
static void pattern_cpu_pulses(struct stress *s, unsigned n)
{
    for (unsigned i = 1; i <= n; i++) {
        __atomic_store_n(&g_progress, i, __ATOMIC_SEQ_CST);
        CHECK_HR(ID3D12CommandQueue_Wait(s->a, s->f1, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->a, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Wait(s->c, s->f2, i), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(s->c, s->f3, i), S_OK);
        CHECK_HR(ID3D12Fence_Signal(s->f1, i), S_OK);
        CHECK_HR(ID3D12Fence_Signal(s->f1, 0), S_OK);
        if (i % 8 == 0)
            wait_event(s->f3, i, s->ev);
    }
    wait_event(s->f3, n, s->ev);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(s->f2), n);
}

static void test_stress(void)
{
    pthread_t wd;
    CHECK_EQ(pthread_create(&wd, NULL, watchdog_main, NULL), 0);
    static const struct {
        const char *name;
        void (*run)(struct stress *, unsigned);
    } patterns[] = {
        {"ping-pong A/B, C on both", pattern_ping_pong},
        {"CPU signals, queues forward", pattern_cpu_signals},
        {"CPU and queue signals on one fence", pattern_mixed},
        {"ping-pong through a fence pulsed 1 then 0", pattern_pulses},
        {"CPU pulses f1 = i then 0", pattern_cpu_pulses},
    };
    unsigned n = stress_iterations();
    for (size_t k = 0; k < sizeof(patterns) / sizeof(patterns[0]); k++) {
        set_ctx("stress: %s", patterns[k].name);
        struct stress s = {make_queue(D3D12_COMMAND_LIST_TYPE_DIRECT), make_queue(D3D12_COMMAND_LIST_TYPE_COMPUTE),
                           make_queue(D3D12_COMMAND_LIST_TYPE_COPY),   make_fence(0),
                           make_fence(0),                              make_fence(0),
                           eventfd(0, EFD_CLOEXEC)};
        CHECK(s.ev >= 0);
        if (s.a && s.b && s.c && s.f1 && s.f2 && s.f3 && s.ev >= 0) {
            watchdog_arm(patterns[k].name, stress_deadline_s());
            patterns[k].run(&s, n);
            watchdog_disarm();
        }
        RELEASE0(s.a);
        RELEASE0(s.b);
        RELEASE0(s.c);
        RELEASE0(s.f1);
        RELEASE0(s.f2);
        RELEASE0(s.f3);
        if (s.ev >= 0)
            close(s.ev);
    }
    pthread_mutex_lock(&g_wd_lock);
    g_wd_quit = 1;
    pthread_cond_signal(&g_wd_cond);
    pthread_mutex_unlock(&g_wd_lock);
    pthread_join(wd, NULL);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc == 2 && strcmp(argv[1], "--debug-child") == 0)
        return debug_child();
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    CHECK(dev != NULL);
    if (dev) {
        counted keep;
        counted_init(&keep);
        set_ctx("private data: device");
        private_data_contract((ID3D12Object *)dev, &keep);
        set_ctx(" ");
        test_private_data();
        test_release_while_waited();
        test_multiple_fence_wait();
        set_ctx("SetEventOnMultipleFenceCompletion with the debug layer (child process)");
        CHECK_EQ(run_debug_child(), 0);
        test_wait_survives_rewind();
        test_stress();
        set_ctx("the device's last Release");
        CHECK_EQ(refcount(dev), 1);
        CHECK_EQ(ID3D12Device_Release(dev), 0);
        /* The device's destruction releases what its private data held. */
        CHECK_EQ(refs_of(&keep), 1);
    }
    printf("conf_sync_c: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
