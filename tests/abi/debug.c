/* tests/abi/debug.c - ABI test of the debug layer of libd3d12.so: D3D12GetDebugInterface and
 * the ID3D12Debug interfaces, ID3D12InfoQueue / ID3D12InfoQueue1 on a device created with the
 * layer on, and the messages the runtime reports, written the way a C program compiled against
 * Microsoft's DirectX-Headers calls the runtime (CINTERFACE + COBJMACROS, IIDs from
 * libDirectX-Guids.a).
 *
 * Expected behaviour: shared/spec/debug-layer.md (message IDs, categories, severities, the
 * printed line, storage/retrieval filters, callbacks) and Microsoft's docs (EnableDebugLayer
 * after device creation removes the device; GetMessage's two-call size protocol). The two
 * seed messages are reproduced: #721 CREATERESOURCE_INVALIDALIGNMENT (a 4 KB alignment for a
 * texture needing more than 16 tiles) and #869 COPYTEXTUREREGION_INVALIDSRCPLACEMENT (an
 * upload buffer smaller than its footprint), checked by ID, category, severity and the facts
 * their text states, and in the line printed on stderr.
 *
 * Build and run (see tests/abi/README.md):
 *   gcc -std=c11 -Wall -Werror -DCINTERFACE -DCOBJMACROS -pthread -I/usr/include/directx \
 *       -I/usr/include/wsl/stubs -I/usr/include/wsl -I/usr/include tests/abi/debug.c \
 *       -o $OUT/debug_c -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR \
 *       /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
 *
 * Every check prints one line when it fails; the last line is "debug_c: N passed, M failed"
 * and the exit status is 0 only when M is 0. */
#define _GNU_SOURCE
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the check counter: check.h, plus this file's own checks ---------------------------- */

#include "check.h"


static ID3D12Device *dev;
static ID3D12InfoQueue1 *iq;

/* ---- helpers --------------------------------------------------------------------------------- */

/* The newest stored message visible through the retrieval filter (malloc'd; NULL if none). */
static D3D12_MESSAGE *last_message(void)
{
    UINT64 n = ID3D12InfoQueue1_GetNumStoredMessagesAllowedByRetrievalFilter(iq);
    if (n == 0)
        return NULL;
    SIZE_T len = 0;
    if (FAILED(ID3D12InfoQueue1_GetMessage(iq, n - 1, NULL, &len)) || len < sizeof(D3D12_MESSAGE))
        return NULL;
    D3D12_MESSAGE *m = malloc(len);
    if (m && FAILED(ID3D12InfoQueue1_GetMessage(iq, n - 1, m, &len))) {
        free(m);
        return NULL;
    }
    return m;
}

/* Checks the newest message: ID, category, severity, and that its text contains each of the
 * NULL-terminated fragments. */
static void expect_last(int line, D3D12_MESSAGE_ID id, D3D12_MESSAGE_CATEGORY cat, D3D12_MESSAGE_SEVERITY sev, ...)
{
    D3D12_MESSAGE *m = last_message();
    check_true(__FILE__, line, "a message was stored", m != NULL);
    if (!m)
        return;
    check_u64(__FILE__, line, "message ID", m->ID, id);
    check_u64(__FILE__, line, "message category", m->Category, cat);
    check_u64(__FILE__, line, "message severity", m->Severity, sev);
    check_u64(__FILE__, line, "DescriptionByteLength", m->DescriptionByteLength, strlen(m->pDescription) + 1);
    va_list ap;
    va_start(ap, sev);
    for (const char *frag = va_arg(ap, const char *); frag; frag = va_arg(ap, const char *)) {
        int found = strstr(m->pDescription, frag) != NULL;
        check_true(__FILE__, line, frag, found);
        if (!found)
            printf("    description: %s\n", m->pDescription);
    }
    va_end(ap);
    free(m);
}

/* Everything written to stderr while `fn` runs. */
static char captured[8192];
static void capture_stderr(void (*fn)(void))
{
    char path[] = "/tmp/rd3d12-debug-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        fn();
        return;
    }
    unlink(path);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, captured, sizeof(captured) - 1, 0);
    captured[n > 0 ? n : 0] = 0;
    close(fd);
}

static D3D12_HEAP_PROPERTIES hprops(D3D12_HEAP_TYPE t)
{
    D3D12_HEAP_PROPERTIES p;
    memset(&p, 0, sizeof(p));
    p.Type = t;
    return p;
}

/* A buffer desc of `width` bytes. */
static D3D12_RESOURCE_DESC buf_desc(UINT64 width)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Width = width;
    d.Height = 1;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return d;
}

/* A w x h RGBA8 2D texture desc, one mip. */
static D3D12_RESOURCE_DESC tex_desc(UINT64 w, UINT h, D3D12_RESOURCE_FLAGS flags)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = w;
    d.Height = h;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.SampleDesc.Count = 1;
    d.Flags = flags;
    return d;
}

/* Seed #721: a 256x256 RGBA8 texture (256 KB; 4 KB tiles of 32x32 texels → 64 tiles) with
 * Alignment 4096. */
static HRESULT seed_721_hr;
static void seed_721(void)
{
    D3D12_RESOURCE_DESC d = tex_desc(256, 256, D3D12_RESOURCE_FLAG_NONE);
    d.Alignment = 4096;
    D3D12_HEAP_PROPERTIES hp = hprops(D3D12_HEAP_TYPE_DEFAULT);
    ID3D12Resource *r = NULL;
    seed_721_hr = ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &d,
                                                       D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                                                       (void **)&r);
    if (r)
        ID3D12Resource_Release(r);
}

/* Seed #869: a 32x32 RGBA8 footprint (RowPitch 256, 8064 bytes) read from a 4096-byte upload
 * buffer. Close fails with E_INVALIDARG. */
static HRESULT seed_869_close;
static void seed_869(void)
{
    D3D12_RESOURCE_DESC bd = buf_desc(4096), td = tex_desc(32, 32, D3D12_RESOURCE_FLAG_NONE);
    D3D12_HEAP_PROPERTIES up = hprops(D3D12_HEAP_TYPE_UPLOAD), def = hprops(D3D12_HEAP_TYPE_DEFAULT);
    ID3D12Resource *buf = NULL, *tex = NULL;
    ID3D12CommandAllocator *a = NULL;
    ID3D12GraphicsCommandList *l = NULL;
    ID3D12Device_CreateCommittedResource(dev, &up, D3D12_HEAP_FLAG_NONE, &bd, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
                                         &IID_ID3D12Resource, (void **)&buf);
    ID3D12Device_CreateCommittedResource(dev, &def, D3D12_HEAP_FLAG_NONE, &td, D3D12_RESOURCE_STATE_COPY_DEST, NULL,
                                         &IID_ID3D12Resource, (void **)&tex);
    ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator, (void **)&a);
    if (a)
        ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, a, NULL, &IID_ID3D12GraphicsCommandList,
                                       (void **)&l);
    seed_869_close = S_OK;
    if (buf && tex && l) {
        D3D12_TEXTURE_COPY_LOCATION dst, src;
        memset(&dst, 0, sizeof(dst));
        memset(&src, 0, sizeof(src));
        dst.pResource = tex;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        src.pResource = buf;
        src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        src.PlacedFootprint.Footprint.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        src.PlacedFootprint.Footprint.Width = 32;
        src.PlacedFootprint.Footprint.Height = 32;
        src.PlacedFootprint.Footprint.Depth = 1;
        src.PlacedFootprint.Footprint.RowPitch = 256;
        ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 0, 0, 0, &src, NULL);
        seed_869_close = ID3D12GraphicsCommandList_Close(l);
    }
    if (l)
        ID3D12GraphicsCommandList_Release(l);
    if (a)
        ID3D12CommandAllocator_Release(a);
    if (tex)
        ID3D12Resource_Release(tex);
    if (buf)
        ID3D12Resource_Release(buf);
}

/* ---- 1. the debug interfaces, and the layer's switch ------------------------------------------ */

static void test_debug_interfaces(void)
{
    set_ctx("D3D12GetDebugInterface");
    ID3D12Debug *dbg = SENTINEL;
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, NULL), S_FALSE);
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Device, (void **)&dbg), E_NOINTERFACE);
    CHECK_PTR(dbg, NULL);
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&dbg), S_OK);
    if (!dbg)
        return;
    /* The Debug/Debug3..6 chain answers on one object; Debug1 and Debug2 are their own. */
    ID3D12Debug6 *d6 = NULL;
    ID3D12Debug1 *d1 = NULL;
    ID3D12Debug2 *d2 = NULL;
    CHECK_HR(ID3D12Debug_QueryInterface(dbg, &IID_ID3D12Debug6, (void **)&d6), S_OK);
    CHECK_HR(ID3D12Debug_QueryInterface(dbg, &IID_ID3D12Debug1, (void **)&d1), S_OK);
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug2, (void **)&d2), S_OK);
    if (d6) {
        ID3D12Debug6_SetEnableGPUBasedValidation(d6, TRUE);
        ID3D12Debug6_SetEnableSynchronizedCommandQueueValidation(d6, TRUE);
        ID3D12Debug6_SetGPUBasedValidationFlags(d6, D3D12_GPU_BASED_VALIDATION_FLAGS_DISABLE_STATE_TRACKING);
        ID3D12Debug6_SetEnableAutoName(d6, FALSE);
        ID3D12Debug6_SetForceLegacyBarrierValidation(d6, FALSE);
        ID3D12Debug6_SetEnableGPUBasedValidation(d6, FALSE);
    }
    if (d2)
        ID3D12Debug2_SetGPUBasedValidationFlags(d2, D3D12_GPU_BASED_VALIDATION_FLAGS_NONE);

    /* A device made before the layer is on has no info queue; EnableDebugLayer then removes it
     * (the docs of EnableDebugLayer). */
    set_ctx("EnableDebugLayer after device creation");
    ID3D12Device *before = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&before), S_OK);
    if (before) {
        void *q = SENTINEL;
        CHECK_HR(ID3D12Device_QueryInterface(before, &IID_ID3D12InfoQueue, &q), E_NOINTERFACE);
        CHECK_PTR(q, NULL);
        if (d1)
            ID3D12Debug1_EnableDebugLayer(d1);
        CHECK_HR(ID3D12Device_GetDeviceRemovedReason(before), DXGI_ERROR_DEVICE_REMOVED);
        CHECK_EQ(ID3D12Device_Release(before), 0);
    }
    ID3D12Debug_EnableDebugLayer(dbg); /* idempotent */
    if (d2)
        CHECK_EQ(ID3D12Debug2_Release(d2), 0);
    if (d1)
        CHECK_EQ(ID3D12Debug1_Release(d1), 0);
    if (d6)
        CHECK_EQ(ID3D12Debug6_Release(d6), 1);
    CHECK_EQ(ID3D12Debug_Release(dbg), 0);
    set_ctx("%s", "");
}

static int has_message_in(D3D12_MESSAGE_CATEGORY cat, D3D12_MESSAGE_ID id, const char *a, const char *b);

/* ---- 2. the seed messages -------------------------------------------------------------------- */

static void test_seeds(void)
{
    /* The device starts with the startup options, reflecting the ID3D12Debug settings made
     * before it (GPU-based validation was switched off again, synchronized queue validation on). */
    set_ctx("startup options");
    CHECK(has_message_in(D3D12_MESSAGE_CATEGORY_STATE_CREATION, D3D12_MESSAGE_ID_CREATEDEVICE_DEBUG_LAYER_STARTUP_OPTIONS,
                         "GPU-Based Validation: disabled", "Synchronized Command Queue Validation: enabled"));
    ID3D12InfoQueue1_ClearStoredMessages(iq);

    set_ctx("seed #721");
    capture_stderr(seed_721);
    CHECK_HR(seed_721_hr, E_INVALIDARG);
    expect_last(__LINE__, D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT, D3D12_MESSAGE_CATEGORY_STATE_CREATION,
                D3D12_MESSAGE_SEVERITY_ERROR, "ID3D12Device::CreateCommittedResource: ",
                "the number of tiles needed is 64", "while 16 tiles is the maximum", NULL);
    CHECK(strstr(captured, "D3D12 ERROR: ID3D12Device::CreateCommittedResource: ") != NULL);
    CHECK(strstr(captured, " [ STATE_CREATION ERROR #721: CREATERESOURCE_INVALIDALIGNMENT]\n") != NULL);

    set_ctx("seed #869");
    capture_stderr(seed_869);
    CHECK_HR(seed_869_close, E_INVALIDARG);
    expect_last(__LINE__, D3D12_MESSAGE_ID_COPYTEXTUREREGION_INVALIDSRCPLACEMENT,
                D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, D3D12_MESSAGE_SEVERITY_ERROR,
                "ID3D12GraphicsCommandList::CopyTextureRegion: ", "8064", "4096", NULL);
    CHECK(strstr(captured, "D3D12 ERROR: ID3D12GraphicsCommandList::CopyTextureRegion: ") != NULL);
    CHECK(strstr(captured, " [ RESOURCE_MANIPULATION ERROR #869: COPYTEXTUREREGION_INVALIDSRCPLACEMENT]\n") !=
          NULL);
    /* Close does not report the recorded error a second time. */
    CHECK(strstr(strstr(captured, "#869") + 1, "#869") == NULL);
    set_ctx("%s", "");
}

/* ---- 3. storage, retrieval, limits ------------------------------------------------------------ */

static void test_queue(void)
{
    set_ctx("info queue storage");
    CHECK_EQ(ID3D12InfoQueue1_GetMessageCountLimit(iq), 1024);
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, TRUE);
    CHECK_EQ(ID3D12InfoQueue1_GetMuteDebugOutput(iq), TRUE);
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    CHECK_EQ(ID3D12InfoQueue1_GetNumStoredMessages(iq), 0);
    UINT64 allowed0 = ID3D12InfoQueue1_GetNumMessagesAllowedByStorageFilter(iq);

    CHECK_HR(ID3D12InfoQueue1_AddApplicationMessage(iq, D3D12_MESSAGE_SEVERITY_WARNING, "hello from the app"), S_OK);
    expect_last(__LINE__, D3D12_MESSAGE_ID_STRING_FROM_APPLICATION, D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED,
                D3D12_MESSAGE_SEVERITY_WARNING, "hello from the app", NULL);
    CHECK_HR(ID3D12InfoQueue1_AddMessage(iq, D3D12_MESSAGE_CATEGORY_EXECUTION, D3D12_MESSAGE_SEVERITY_INFO,
                                         D3D12_MESSAGE_ID_COMMAND_LIST_CLOSED, "injected"),
             S_OK);
    expect_last(__LINE__, D3D12_MESSAGE_ID_COMMAND_LIST_CLOSED, D3D12_MESSAGE_CATEGORY_EXECUTION,
                D3D12_MESSAGE_SEVERITY_INFO, "injected", NULL);
    CHECK_HR(ID3D12InfoQueue1_AddApplicationMessage(iq, D3D12_MESSAGE_SEVERITY_ERROR, NULL), E_INVALIDARG);
    CHECK_EQ(ID3D12InfoQueue1_GetNumStoredMessages(iq), 2);
    CHECK_EQ(ID3D12InfoQueue1_GetNumMessagesAllowedByStorageFilter(iq) - allowed0, 2);

    /* GetMessage: size query, too small a buffer, index out of range, NULL length. */
    SIZE_T len = 0;
    CHECK_HR(ID3D12InfoQueue1_GetMessage(iq, 0, NULL, &len), S_OK);
    CHECK_EQ(len, sizeof(D3D12_MESSAGE) + strlen("hello from the app") + 1);
    unsigned char small[sizeof(D3D12_MESSAGE)];
    SIZE_T small_len = sizeof(small);
    CHECK_HR(ID3D12InfoQueue1_GetMessage(iq, 0, (D3D12_MESSAGE *)small, &small_len), E_INVALIDARG);
    CHECK_HR(ID3D12InfoQueue1_GetMessage(iq, 2, NULL, &len), E_INVALIDARG);
    CHECK_HR(ID3D12InfoQueue1_GetMessage(iq, 0, NULL, NULL), E_INVALIDARG);

    /* The limit pushes out the oldest. */
    set_ctx("message count limit");
    UINT64 discarded0 = ID3D12InfoQueue1_GetNumMessagesDiscardedByMessageCountLimit(iq);
    CHECK_HR(ID3D12InfoQueue1_SetMessageCountLimit(iq, 2), S_OK);
    CHECK_HR(ID3D12InfoQueue1_AddApplicationMessage(iq, D3D12_MESSAGE_SEVERITY_MESSAGE, "third"), S_OK);
    CHECK_EQ(ID3D12InfoQueue1_GetNumStoredMessages(iq), 2);
    CHECK_EQ(ID3D12InfoQueue1_GetNumMessagesDiscardedByMessageCountLimit(iq) - discarded0, 1);
    expect_last(__LINE__, D3D12_MESSAGE_ID_STRING_FROM_APPLICATION, D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED,
                D3D12_MESSAGE_SEVERITY_MESSAGE, "third", NULL);
    CHECK_HR(ID3D12InfoQueue1_SetMessageCountLimit(iq, (UINT64)-1), S_OK);
    CHECK_EQ(ID3D12InfoQueue1_GetMessageCountLimit(iq), (UINT64)-1);
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, FALSE);
    set_ctx("%s", "");
}

/* ---- 4. filters --------------------------------------------------------------------------------- */

static void test_filters(void)
{
    set_ctx("storage filter");
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, TRUE);
    CHECK_EQ(ID3D12InfoQueue1_GetStorageFilterStackSize(iq), 1);
    D3D12_MESSAGE_SEVERITY deny_sev[] = {D3D12_MESSAGE_SEVERITY_INFO};
    D3D12_MESSAGE_ID deny_ids[] = {D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT};
    D3D12_INFO_QUEUE_FILTER f;
    memset(&f, 0, sizeof(f));
    f.DenyList.NumSeverities = 1;
    f.DenyList.pSeverityList = deny_sev;
    f.DenyList.NumIDs = 1;
    f.DenyList.pIDList = deny_ids;
    CHECK_HR(ID3D12InfoQueue1_PushStorageFilter(iq, &f), S_OK);
    CHECK_EQ(ID3D12InfoQueue1_GetStorageFilterStackSize(iq), 2);
    UINT64 denied0 = ID3D12InfoQueue1_GetNumMessagesDeniedByStorageFilter(iq);
    UINT64 stored0 = ID3D12InfoQueue1_GetNumStoredMessages(iq);
    seed_721(); /* denied by ID */
    CHECK_HR(ID3D12InfoQueue1_AddApplicationMessage(iq, D3D12_MESSAGE_SEVERITY_INFO, "denied by severity"), S_OK);
    CHECK_HR(ID3D12InfoQueue1_AddApplicationMessage(iq, D3D12_MESSAGE_SEVERITY_WARNING, "kept"), S_OK);
    CHECK_EQ(ID3D12InfoQueue1_GetNumMessagesDeniedByStorageFilter(iq) - denied0, 2);
    CHECK_EQ(ID3D12InfoQueue1_GetNumStoredMessages(iq) - stored0, 1);

    /* GetStorageFilter: 96-byte struct + 2 values; the lists point into the buffer. */
    SIZE_T len = 0;
    CHECK_HR(ID3D12InfoQueue1_GetStorageFilter(iq, NULL, &len), S_OK);
    CHECK_EQ(len, sizeof(D3D12_INFO_QUEUE_FILTER) + 2 * 4);
    D3D12_INFO_QUEUE_FILTER *got = malloc(len);
    if (got) {
        CHECK_HR(ID3D12InfoQueue1_GetStorageFilter(iq, got, &len), S_OK);
        CHECK_EQ(got->DenyList.NumSeverities, 1);
        CHECK_EQ(got->DenyList.NumIDs, 1);
        CHECK_EQ(got->AllowList.NumCategories + got->AllowList.NumSeverities + got->AllowList.NumIDs, 0);
        CHECK(got->DenyList.pSeverityList && got->DenyList.pSeverityList[0] == D3D12_MESSAGE_SEVERITY_INFO);
        CHECK(got->DenyList.pIDList && got->DenyList.pIDList[0] == D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT);
        CHECK((unsigned char *)got->DenyList.pIDList >= (unsigned char *)got &&
              (unsigned char *)got->DenyList.pIDList < (unsigned char *)got + len);
        SIZE_T short_len = len - 1;
        CHECK_HR(ID3D12InfoQueue1_GetStorageFilter(iq, got, &short_len), E_INVALIDARG);
        free(got);
    }
    /* Allow list: only EXECUTION messages are stored. */
    D3D12_MESSAGE_CATEGORY allow_cat[] = {D3D12_MESSAGE_CATEGORY_EXECUTION};
    D3D12_INFO_QUEUE_FILTER a;
    memset(&a, 0, sizeof(a));
    a.AllowList.NumCategories = 1;
    a.AllowList.pCategoryList = allow_cat;
    CHECK_HR(ID3D12InfoQueue1_PushCopyOfStorageFilter(iq), S_OK);
    CHECK_HR(ID3D12InfoQueue1_AddStorageFilterEntries(iq, &a), S_OK);
    stored0 = ID3D12InfoQueue1_GetNumStoredMessages(iq);
    CHECK_HR(ID3D12InfoQueue1_AddApplicationMessage(iq, D3D12_MESSAGE_SEVERITY_ERROR, "not EXECUTION"), S_OK);
    CHECK_HR(ID3D12InfoQueue1_AddMessage(iq, D3D12_MESSAGE_CATEGORY_EXECUTION, D3D12_MESSAGE_SEVERITY_ERROR,
                                         D3D12_MESSAGE_ID_COMMAND_LIST_CLOSED, "EXECUTION"),
             S_OK);
    CHECK_EQ(ID3D12InfoQueue1_GetNumStoredMessages(iq) - stored0, 1);
    ID3D12InfoQueue1_PopStorageFilter(iq);
    ID3D12InfoQueue1_PopStorageFilter(iq);
    ID3D12InfoQueue1_PopStorageFilter(iq); /* the bottom entry stays */
    CHECK_EQ(ID3D12InfoQueue1_GetStorageFilterStackSize(iq), 1);
    CHECK_HR(ID3D12InfoQueue1_PushEmptyStorageFilter(iq), S_OK);
    ID3D12InfoQueue1_ClearStorageFilter(iq);
    ID3D12InfoQueue1_PopStorageFilter(iq);

    /* Retrieval filter: hides without removing. */
    set_ctx("retrieval filter");
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    CHECK_HR(ID3D12InfoQueue1_AddApplicationMessage(iq, D3D12_MESSAGE_SEVERITY_WARNING, "w"), S_OK);
    CHECK_HR(ID3D12InfoQueue1_AddApplicationMessage(iq, D3D12_MESSAGE_SEVERITY_ERROR, "e"), S_OK);
    D3D12_MESSAGE_SEVERITY only_err[] = {D3D12_MESSAGE_SEVERITY_ERROR};
    D3D12_INFO_QUEUE_FILTER r;
    memset(&r, 0, sizeof(r));
    r.AllowList.NumSeverities = 1;
    r.AllowList.pSeverityList = only_err;
    CHECK_HR(ID3D12InfoQueue1_PushRetrievalFilter(iq, &r), S_OK);
    CHECK_EQ(ID3D12InfoQueue1_GetRetrievalFilterStackSize(iq), 2);
    CHECK_EQ(ID3D12InfoQueue1_GetNumStoredMessages(iq), 2);
    CHECK_EQ(ID3D12InfoQueue1_GetNumStoredMessagesAllowedByRetrievalFilter(iq), 1);
    expect_last(__LINE__, D3D12_MESSAGE_ID_STRING_FROM_APPLICATION, D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED,
                D3D12_MESSAGE_SEVERITY_ERROR, "e", NULL);
    SIZE_T len2 = 0;
    CHECK_HR(ID3D12InfoQueue1_GetRetrievalFilter(iq, NULL, &len2), S_OK);
    CHECK_EQ(len2, sizeof(D3D12_INFO_QUEUE_FILTER) + 4);
    ID3D12InfoQueue1_PopRetrievalFilter(iq);
    CHECK_EQ(ID3D12InfoQueue1_GetNumStoredMessagesAllowedByRetrievalFilter(iq), 2);
    CHECK_HR(ID3D12InfoQueue1_PushStorageFilter(iq, NULL), E_INVALIDARG);
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, FALSE);
    set_ctx("%s", "");
}

/* ---- 5. callbacks and break-on ------------------------------------------------------------------ */

struct seen {
    int calls;
    D3D12_MESSAGE_CATEGORY cat;
    D3D12_MESSAGE_SEVERITY sev;
    D3D12_MESSAGE_ID id;
    char text[256];
};

static void on_message(D3D12_MESSAGE_CATEGORY c, D3D12_MESSAGE_SEVERITY s, D3D12_MESSAGE_ID id, LPCSTR d, void *ctx)
{
    struct seen *x = ctx;
    x->calls++;
    x->cat = c;
    x->sev = s;
    x->id = id;
    snprintf(x->text, sizeof(x->text), "%s", d ? d : "");
}

static volatile sig_atomic_t traps;
static void on_trap(int sig)
{
    (void)sig;
    traps++;
}

static void test_callbacks_and_breaks(void)
{
    set_ctx("callbacks");
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, TRUE);
    struct seen filtered = {0}, all = {0};
    DWORD c1 = 0, c2 = 0;
    CHECK_HR(ID3D12InfoQueue1_RegisterMessageCallback(iq, on_message, D3D12_MESSAGE_CALLBACK_FLAG_NONE, &filtered, &c1),
             S_OK);
    CHECK_HR(ID3D12InfoQueue1_RegisterMessageCallback(iq, on_message, D3D12_MESSAGE_CALLBACK_IGNORE_FILTERS, &all, &c2),
             S_OK);
    CHECK(c1 != 0 && c2 != 0 && c1 != c2);
    seed_721();
    CHECK_EQ(filtered.calls, 1);
    CHECK_EQ(all.calls, 1);
    CHECK_EQ(filtered.id, D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT);
    CHECK_EQ(filtered.cat, D3D12_MESSAGE_CATEGORY_STATE_CREATION);
    CHECK_EQ(filtered.sev, D3D12_MESSAGE_SEVERITY_ERROR);
    CHECK(strstr(filtered.text, "CreateCommittedResource") != NULL);
    /* A message the storage filter denies reaches only the IGNORE_FILTERS callback. */
    D3D12_MESSAGE_SEVERITY deny[] = {D3D12_MESSAGE_SEVERITY_ERROR};
    D3D12_INFO_QUEUE_FILTER f;
    memset(&f, 0, sizeof(f));
    f.DenyList.NumSeverities = 1;
    f.DenyList.pSeverityList = deny;
    CHECK_HR(ID3D12InfoQueue1_PushStorageFilter(iq, &f), S_OK);
    seed_721();
    CHECK_EQ(filtered.calls, 1);
    CHECK_EQ(all.calls, 2);
    ID3D12InfoQueue1_PopStorageFilter(iq);
    CHECK_HR(ID3D12InfoQueue1_UnregisterMessageCallback(iq, c1), S_OK);
    CHECK_HR(ID3D12InfoQueue1_UnregisterMessageCallback(iq, c1), E_INVALIDARG);
    CHECK_HR(ID3D12InfoQueue1_UnregisterMessageCallback(iq, c2), S_OK);
    seed_721();
    CHECK_EQ(all.calls, 2);
    DWORD c3 = 1234;
    CHECK_HR(ID3D12InfoQueue1_RegisterMessageCallback(iq, NULL, D3D12_MESSAGE_CALLBACK_FLAG_NONE, NULL, &c3),
             E_INVALIDARG);
    CHECK_EQ(c3, 0);

    /* Break-on: SIGTRAP only when asked, once per matching message. */
    set_ctx("break on");
    struct sigaction sa, old;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_trap;
    sigaction(SIGTRAP, &sa, &old);
    CHECK_EQ(ID3D12InfoQueue1_GetBreakOnSeverity(iq, D3D12_MESSAGE_SEVERITY_ERROR), FALSE);
    seed_721();
    CHECK_EQ(traps, 0);
    CHECK_HR(ID3D12InfoQueue1_SetBreakOnID(iq, D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT, TRUE), S_OK);
    CHECK_EQ(ID3D12InfoQueue1_GetBreakOnID(iq, D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT), TRUE);
    capture_stderr(seed_721);
    CHECK_EQ(traps, 1);
    CHECK(strstr(captured, "D3D12: **BREAK** enabled for the previous message, which was: [ ERROR STATE_CREATION "
                           "#721: CREATERESOURCE_INVALIDALIGNMENT ]") != NULL);
    CHECK_HR(ID3D12InfoQueue1_SetBreakOnID(iq, D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT, FALSE), S_OK);
    CHECK_HR(ID3D12InfoQueue1_SetBreakOnCategory(iq, D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED, TRUE), S_OK);
    CHECK_EQ(ID3D12InfoQueue1_GetBreakOnCategory(iq, D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED), TRUE);
    CHECK_HR(ID3D12InfoQueue1_AddApplicationMessage(iq, D3D12_MESSAGE_SEVERITY_INFO, "break here"), S_OK);
    CHECK_EQ(traps, 2);
    CHECK_HR(ID3D12InfoQueue1_SetBreakOnCategory(iq, D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED, FALSE), S_OK);
    CHECK_HR(ID3D12InfoQueue1_SetBreakOnSeverity(iq, D3D12_MESSAGE_SEVERITY_WARNING, TRUE), S_OK);
    CHECK_HR(ID3D12InfoQueue1_AddApplicationMessage(iq, D3D12_MESSAGE_SEVERITY_ERROR, "no break"), S_OK);
    CHECK_EQ(traps, 2);
    CHECK_HR(ID3D12InfoQueue1_SetBreakOnSeverity(iq, D3D12_MESSAGE_SEVERITY_WARNING, FALSE), S_OK);
    sigaction(SIGTRAP, &old, NULL);
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, FALSE);
    set_ctx("%s", "");
}

/* ---- 6. other runtime messages ------------------------------------------------------------------ */

static void bad_view(void)
{
    /* A CBV whose size is not a multiple of 256: a null descriptor and #650. */
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    ID3D12DescriptorHeap *h = NULL;
    ID3D12Device_CreateDescriptorHeap(dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&h);
    if (!h)
        return;
    D3D12_CONSTANT_BUFFER_VIEW_DESC cd = {0x10000, 100};
    ID3D12Device_CreateConstantBufferView(dev, &cd, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(h));
    ID3D12DescriptorHeap_Release(h);
}

static void test_other_messages(void)
{
    set_ctx("view creation message");
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, TRUE);
    bad_view();
    D3D12_MESSAGE *m = last_message();
    CHECK(m != NULL);
    if (m) {
        CHECK_EQ(m->Category, D3D12_MESSAGE_CATEGORY_STATE_CREATION);
        CHECK_EQ(m->Severity, D3D12_MESSAGE_SEVERITY_ERROR);
        CHECK(strstr(m->pDescription, "ID3D12Device::CreateConstantBufferView: ") == m->pDescription);
        free(m);
    }
    set_ctx("recording message");
    ID3D12CommandAllocator *a = NULL;
    ID3D12GraphicsCommandList *l = NULL;
    ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator, (void **)&a);
    if (a)
        ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, a, NULL, &IID_ID3D12GraphicsCommandList,
                                       (void **)&l);
    if (l) {
        ID3D12GraphicsCommandList_CopyBufferRegion(l, NULL, 0, NULL, 0, 4);
        expect_last(__LINE__, D3D12_MESSAGE_ID_COPYBUFFERREGION_NULLDST, D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION,
                    D3D12_MESSAGE_SEVERITY_ERROR, "ID3D12GraphicsCommandList::CopyBufferRegion: ", NULL);
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), E_INVALIDARG);
        ID3D12GraphicsCommandList_Release(l);
    }
    if (a)
        ID3D12CommandAllocator_Release(a);
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, FALSE);
    set_ctx("%s", "");
}

/* ---- 7. ID3D12DebugDevice -------------------------------------------------------------------- */

/* Whether some stored message has `id` and contains both fragments. */
static int has_message_in(D3D12_MESSAGE_CATEGORY cat, D3D12_MESSAGE_ID id, const char *a, const char *b)
{
    UINT64 n = ID3D12InfoQueue1_GetNumStoredMessagesAllowedByRetrievalFilter(iq);
    int found = 0;
    for (UINT64 i = 0; i < n && !found; i++) {
        SIZE_T len = 0;
        if (FAILED(ID3D12InfoQueue1_GetMessage(iq, i, NULL, &len)))
            continue;
        D3D12_MESSAGE *m = malloc(len);
        if (m && SUCCEEDED(ID3D12InfoQueue1_GetMessage(iq, i, m, &len)))
            found = m->ID == id && strstr(m->pDescription, a) && strstr(m->pDescription, b) &&
                    m->Category == cat;
        free(m);
    }
    return found;
}

static int has_message(D3D12_MESSAGE_ID id, const char *a, const char *b)
{
    return has_message_in(D3D12_MESSAGE_CATEGORY_STATE_CREATION, id, a, b);
}

static void test_debug_device(void)
{
    set_ctx("ID3D12DebugDevice");
    ID3D12DebugDevice2 *dd = NULL;
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12DebugDevice2, (void **)&dd), S_OK);
    if (!dd)
        return;
    /* One identity with the device. */
    ID3D12Device *same = NULL;
    CHECK_HR(ID3D12DebugDevice2_QueryInterface(dd, &IID_ID3D12Device, (void **)&same), S_OK);
    CHECK_PTR(same, dev);
    if (same)
        ID3D12Device_Release(same);

    CHECK_HR(ID3D12DebugDevice2_SetFeatureMask(dd, D3D12_DEBUG_FEATURE_ALLOW_BEHAVIOR_CHANGING_DEBUG_AIDS), S_OK);
    CHECK_EQ(ID3D12DebugDevice2_GetFeatureMask(dd), D3D12_DEBUG_FEATURE_ALLOW_BEHAVIOR_CHANGING_DEBUG_AIDS);
    CHECK_HR(ID3D12DebugDevice2_SetFeatureMask(dd, (D3D12_DEBUG_FEATURE)0x100), E_INVALIDARG);
    D3D12_DEBUG_DEVICE_GPU_SLOWDOWN_PERFORMANCE_FACTOR slow = {2.5f}, got = {0};
    CHECK_HR(ID3D12DebugDevice2_SetDebugParameter(dd, D3D12_DEBUG_DEVICE_PARAMETER_GPU_SLOWDOWN_PERFORMANCE_FACTOR,
                                                  &slow, sizeof(slow)),
             S_OK);
    CHECK_HR(ID3D12DebugDevice2_GetDebugParameter(dd, D3D12_DEBUG_DEVICE_PARAMETER_GPU_SLOWDOWN_PERFORMANCE_FACTOR,
                                                  &got, sizeof(got)),
             S_OK);
    CHECK(got.SlowdownFactor == 2.5f);
    CHECK_HR(ID3D12DebugDevice2_SetDebugParameter(dd, D3D12_DEBUG_DEVICE_PARAMETER_GPU_SLOWDOWN_PERFORMANCE_FACTOR,
                                                  &slow, 2),
             E_INVALIDARG);
    CHECK_HR(ID3D12DebugDevice2_GetDebugParameter(dd, (D3D12_DEBUG_DEVICE_PARAMETER_TYPE)9, &got, sizeof(got)),
             E_INVALIDARG);

    /* ID3D12DebugDevice1 (its own vtable order) shares the parameters. */
    ID3D12DebugDevice1 *dd1 = NULL;
    CHECK_HR(ID3D12DebugDevice2_QueryInterface(dd, &IID_ID3D12DebugDevice1, (void **)&dd1), S_OK);
    if (dd1) {
        D3D12_DEBUG_DEVICE_GPU_SLOWDOWN_PERFORMANCE_FACTOR via1 = {0};
        CHECK_HR(ID3D12DebugDevice1_GetDebugParameter(dd1, D3D12_DEBUG_DEVICE_PARAMETER_GPU_SLOWDOWN_PERFORMANCE_FACTOR,
                                                      &via1, sizeof(via1)),
                 S_OK);
        CHECK(via1.SlowdownFactor == 2.5f);
        CHECK_HR(ID3D12DebugDevice1_ReportLiveDeviceObjects(dd1, D3D12_RLDO_SUMMARY), S_OK);
        ID3D12DebugDevice1_Release(dd1);
    }

    /* A named buffer and a fence are listed with their names and counts. */
    D3D12_RESOURCE_DESC bd = buf_desc(256);
    D3D12_HEAP_PROPERTIES hp = hprops(D3D12_HEAP_TYPE_DEFAULT);
    ID3D12Resource *buf = NULL;
    ID3D12Fence *fence = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &bd, D3D12_RESOURCE_STATE_COMMON,
                                                  NULL, &IID_ID3D12Resource, (void **)&buf),
             S_OK);
    CHECK_HR(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
    if (buf)
        CHECK_HR(ID3D12Resource_SetName(buf, L"leaky buffer"), S_OK);
    if (buf)
        ID3D12Resource_AddRef(buf);
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, TRUE);
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    CHECK_HR(ID3D12DebugDevice2_ReportLiveDeviceObjects(dd, D3D12_RLDO_DETAIL | D3D12_RLDO_SUMMARY), S_OK);
    CHECK(has_message(D3D12_MESSAGE_ID_LIVE_RESOURCE, "Live ID3D12Resource at 0x", "Name: leaky buffer, Refcount: 2"));
    CHECK(has_message(D3D12_MESSAGE_ID_LIVE_MONITOREDFENCE, "Live ID3D12Fence at 0x", "Refcount: 1"));
    CHECK(has_message(D3D12_MESSAGE_ID_LIVE_DEVICE, "Live ID3D12Device at 0x", "Refcount: "));
    CHECK(has_message(D3D12_MESSAGE_ID_LIVE_OBJECT_SUMMARY, "Live Object Summary", "ID3D12Resource: 1"));
    CHECK_HR(ID3D12DebugDevice2_ReportLiveDeviceObjects(dd, (D3D12_RLDO_FLAGS)0x10), E_INVALIDARG);
    if (buf) {
        ID3D12Resource_Release(buf);
        CHECK_EQ(ID3D12Resource_Release(buf), 0);
    }
    if (fence)
        CHECK_EQ(ID3D12Fence_Release(fence), 0);
    /* Released objects are no longer listed. */
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    CHECK_HR(ID3D12DebugDevice2_ReportLiveDeviceObjects(dd, D3D12_RLDO_DETAIL), S_OK);
    CHECK(!has_message(D3D12_MESSAGE_ID_LIVE_RESOURCE, "Live ID3D12Resource", "leaky buffer"));
    CHECK(has_message(D3D12_MESSAGE_ID_LIVE_DEVICE, "Live ID3D12Device at 0x", "Refcount: "));
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, FALSE);
    ID3D12DebugDevice2_Release(dd);
    set_ctx("%s", "");
}

/* ---- 8. execution-time checks: AssertResourceState, residency, lifetime --------------------- */

static ID3D12Resource *committed(D3D12_HEAP_TYPE type, UINT64 width, D3D12_RESOURCE_STATES st)
{
    D3D12_RESOURCE_DESC bd = buf_desc(width);
    D3D12_HEAP_PROPERTIES hp = hprops(type);
    ID3D12Resource *r = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &bd, st, NULL, &IID_ID3D12Resource,
                                                  (void **)&r),
             S_OK);
    return r;
}

static ID3D12Resource *texture(D3D12_RESOURCE_STATES st)
{
    D3D12_RESOURCE_DESC td = tex_desc(8, 8, D3D12_RESOURCE_FLAG_NONE);
    D3D12_HEAP_PROPERTIES hp = hprops(D3D12_HEAP_TYPE_DEFAULT);
    ID3D12Resource *r = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &td, st, NULL, &IID_ID3D12Resource,
                                                  (void **)&r),
             S_OK);
    return r;
}

static void transition(ID3D12GraphicsCommandList *l, ID3D12Resource *r, D3D12_RESOURCE_STATES a, D3D12_RESOURCE_STATES b)
{
    D3D12_RESOURCE_BARRIER br;
    memset(&br, 0, sizeof(br));
    br.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    br.Transition.pResource = r;
    br.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    br.Transition.StateBefore = a;
    br.Transition.StateAfter = b;
    ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &br);
}

struct ctx {
    ID3D12CommandQueue *q;
    ID3D12CommandAllocator *a;
    ID3D12GraphicsCommandList *l;
    ID3D12Fence *f;
    UINT64 v;
};

static void run_and_wait(struct ctx *c)
{
    CHECK_HR(ID3D12GraphicsCommandList_Close(c->l), S_OK);
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)c->l};
    ID3D12CommandQueue_ExecuteCommandLists(c->q, 1, lists);
    CHECK_HR(ID3D12CommandQueue_Signal(c->q, c->f, ++c->v), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(c->f, c->v, NULL), S_OK);
}

static void reopen(struct ctx *c)
{
    CHECK_HR(ID3D12CommandAllocator_Reset(c->a), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList_Reset(c->l, c->a, NULL), S_OK);
}

static void test_execution_checks(void)
{
    set_ctx("execution checks");
    struct ctx c = {0};
    D3D12_COMMAND_QUEUE_DESC qd;
    memset(&qd, 0, sizeof(qd));
    CHECK_HR(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&c.q), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
                                                 (void **)&c.a),
             S_OK);
    if (c.a)
        CHECK_HR(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, c.a, NULL,
                                                &IID_ID3D12GraphicsCommandList, (void **)&c.l),
                 S_OK);
    CHECK_HR(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&c.f), S_OK);
    ID3D12Resource *tex = texture(D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *src = committed(D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
    ID3D12Resource *dst = committed(D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
    ID3D12DebugCommandList2 *dl = NULL;
    ID3D12DebugCommandQueue *dq = NULL;
    if (!c.q || !c.l || !c.f || !tex || !src || !dst)
        goto out;
    CHECK_HR(ID3D12GraphicsCommandList_QueryInterface(c.l, &IID_ID3D12DebugCommandList2, (void **)&dl), S_OK);
    CHECK_HR(ID3D12CommandQueue_QueryInterface(c.q, &IID_ID3D12DebugCommandQueue, (void **)&dq), S_OK);
    if (!dl || !dq)
        goto out;
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, TRUE);
    ID3D12InfoQueue1_ClearStoredMessages(iq);

    /* The list knows the state after its barrier: answered now. */
    set_ctx("ID3D12DebugCommandList::AssertResourceState");
    transition(c.l, tex, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK_EQ(ID3D12DebugCommandList2_AssertResourceState(dl, tex, 0, D3D12_RESOURCE_STATE_COPY_DEST), TRUE);
    CHECK_EQ(ID3D12DebugCommandList2_AssertResourceState(dl, tex, 0, D3D12_RESOURCE_STATE_COPY_SOURCE), FALSE);
    expect_last(__LINE__, D3D12_MESSAGE_ID_INVALID_SUBRESOURCE_STATE, D3D12_MESSAGE_CATEGORY_EXECUTION,
                D3D12_MESSAGE_SEVERITY_ERROR, "ID3D12GraphicsCommandList::AssertResourceState: ", "0x400", NULL);
    CHECK_EQ(ID3D12DebugCommandList2_AssertResourceState(dl, tex, 5, D3D12_RESOURCE_STATE_COPY_DEST), FALSE);
    /* Unknown in the list (never transitioned here): checked when the list runs. */
    CHECK_EQ(ID3D12DebugCommandList2_AssertResourceState(dl, src, 0, D3D12_RESOURCE_STATE_RENDER_TARGET), TRUE);
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    run_and_wait(&c);
    expect_last(__LINE__, D3D12_MESSAGE_ID_INVALID_SUBRESOURCE_STATE, D3D12_MESSAGE_CATEGORY_EXECUTION,
                D3D12_MESSAGE_SEVERITY_ERROR, "ID3D12CommandQueue::ExecuteCommandLists: ", "asserted 0x4", NULL);

    /* The queue: checked at its point in the queue, after the work before it. */
    set_ctx("ID3D12DebugCommandQueue::AssertResourceState");
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    CHECK_EQ(ID3D12DebugCommandQueue_AssertResourceState(dq, tex, 0, D3D12_RESOURCE_STATE_COPY_DEST), TRUE);
    CHECK_HR(ID3D12CommandQueue_Signal(c.q, c.f, ++c.v), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(c.f, c.v, NULL), S_OK);
    CHECK_EQ(ID3D12InfoQueue1_GetNumStoredMessages(iq), 0);
    CHECK_EQ(ID3D12DebugCommandQueue_AssertResourceState(dq, tex, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES,
                                                         D3D12_RESOURCE_STATE_COMMON),
             TRUE);
    CHECK_HR(ID3D12CommandQueue_Signal(c.q, c.f, ++c.v), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(c.f, c.v, NULL), S_OK);
    expect_last(__LINE__, D3D12_MESSAGE_ID_INVALID_SUBRESOURCE_STATE, D3D12_MESSAGE_CATEGORY_EXECUTION,
                D3D12_MESSAGE_SEVERITY_ERROR, "state 0x400, not the asserted 0x0", NULL);

    /* States checked at execution against what the queue left: a StateBefore that does not
     * match, and a copy from a texture in a state that neither contains COPY_SOURCE nor
     * promotes to it (RENDER_TARGET after this list's barrier leaves it there). */
    set_ctx("execution-time states");
    ID3D12Resource *rt = NULL;
    {
        D3D12_RESOURCE_DESC td = tex_desc(8, 8, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
        D3D12_HEAP_PROPERTIES hp = hprops(D3D12_HEAP_TYPE_DEFAULT);
        CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &td,
                                                      D3D12_RESOURCE_STATE_RENDER_TARGET, NULL, &IID_ID3D12Resource,
                                                      (void **)&rt),
                 S_OK);
    }
    if (rt) {
        ID3D12InfoQueue1_ClearStoredMessages(iq);
        reopen(&c);
        transition(c.l, rt, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COPY_DEST); /* it is in RENDER_TARGET */
        run_and_wait(&c);
        CHECK(has_message_in(D3D12_MESSAGE_CATEGORY_EXECUTION, D3D12_MESSAGE_ID_INVALID_SUBRESOURCE_STATE,
                             "StateBefore 0x800", "current state 0x4."));
        ID3D12InfoQueue1_ClearStoredMessages(iq);
        reopen(&c);
        transition(c.l, rt, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_RENDER_TARGET);
        run_and_wait(&c);
        CHECK_EQ(ID3D12InfoQueue1_GetNumStoredMessages(iq), 0); /* a valid list says nothing */
        reopen(&c);
        D3D12_TEXTURE_COPY_LOCATION d0, s0;
        memset(&d0, 0, sizeof(d0));
        memset(&s0, 0, sizeof(s0));
        d0.pResource = tex;
        s0.pResource = rt;
        ID3D12GraphicsCommandList_CopyTextureRegion(c.l, &d0, 0, 0, 0, &s0, NULL);
        run_and_wait(&c);
        CHECK(has_message_in(D3D12_MESSAGE_CATEGORY_EXECUTION, D3D12_MESSAGE_ID_INVALID_SUBRESOURCE_STATE,
                             "is used as 0x800", "in state 0x4,"));
        ID3D12Resource_Release(rt);
    }

    /* Map on a resource that is not CPU-accessible. */
    set_ctx("Map on DEFAULT");
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    void *mapped = NULL;
    CHECK_HR(ID3D12Resource_Map(dst, 0, NULL, &mapped), E_INVALIDARG);
    expect_last(__LINE__, D3D12_MESSAGE_ID_MAP_INVALIDHEAP, D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION,
                D3D12_MESSAGE_SEVERITY_ERROR, "ID3D12Resource::Map: ", NULL);

    /* Work referencing an evicted resource. */
    set_ctx("non-resident resource");
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    ID3D12Pageable *pg = (ID3D12Pageable *)src;
    CHECK_HR(ID3D12Device_Evict(dev, 1, &pg), S_OK);
    reopen(&c);
    ID3D12GraphicsCommandList_CopyBufferRegion(c.l, dst, 0, src, 0, 256);
    run_and_wait(&c);
    CHECK(has_message_in(D3D12_MESSAGE_CATEGORY_EXECUTION, D3D12_MESSAGE_ID_INVALID_USE_OF_NON_RESIDENT_RESOURCE, "ID3D12CommandQueue::ExecuteCommandLists",
                      "not resident"));
    CHECK_HR(ID3D12Device_MakeResident(dev, 1, &pg), S_OK);

    /* Releasing and evicting a resource that queued work still references. */
    set_ctx("release while in use");
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    ID3D12Fence *gate = NULL;
    CHECK_HR(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&gate), S_OK);
    if (gate) {
        CHECK_HR(ID3D12CommandQueue_Wait(c.q, gate, 1), S_OK);
        reopen(&c);
        ID3D12GraphicsCommandList_CopyBufferRegion(c.l, dst, 0, src, 0, 256);
        CHECK_HR(ID3D12GraphicsCommandList_Close(c.l), S_OK);
        ID3D12CommandList *lists[1] = {(ID3D12CommandList *)c.l};
        ID3D12CommandQueue_ExecuteCommandLists(c.q, 1, lists);
        CHECK_HR(ID3D12Device_Evict(dev, 1, &pg), S_OK);
        CHECK(has_message_in(D3D12_MESSAGE_CATEGORY_EXECUTION, D3D12_MESSAGE_ID_OBJECT_EVICTED_WHILE_STILL_IN_USE, "ID3D12Device::Evict", "evicted"));
        CHECK_HR(ID3D12Device_MakeResident(dev, 1, &pg), S_OK);
        CHECK_EQ(ID3D12Resource_Release(src), 0);
        src = NULL;
        CHECK(has_message_in(D3D12_MESSAGE_CATEGORY_EXECUTION, D3D12_MESSAGE_ID_OBJECT_DELETED_WHILE_STILL_IN_USE, "ID3D12Resource::Release",
                          "not finished executing"));
        CHECK_HR(ID3D12Fence_Signal(gate, 1), S_OK);
        CHECK_HR(ID3D12CommandQueue_Signal(c.q, c.f, ++c.v), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(c.f, c.v, NULL), S_OK);
        ID3D12Fence_Release(gate);
    }
    ID3D12InfoQueue1_ClearStoredMessages(iq);
    ID3D12InfoQueue1_SetMuteDebugOutput(iq, FALSE);
out:
    if (dq)
        ID3D12DebugCommandQueue_Release(dq);
    if (dl)
        ID3D12DebugCommandList2_Release(dl);
    if (src)
        ID3D12Resource_Release(src);
    if (dst)
        ID3D12Resource_Release(dst);
    if (tex)
        ID3D12Resource_Release(tex);
    if (c.l)
        ID3D12GraphicsCommandList_Release(c.l);
    if (c.a)
        ID3D12CommandAllocator_Release(c.a);
    if (c.f)
        ID3D12Fence_Release(c.f);
    if (c.q)
        ID3D12CommandQueue_Release(c.q);
    set_ctx("%s", "");
}

/* ---- 9. last: an invalid submission removes the device, with its message ---------------------- */

static void test_invalid_submission(void)
{
    set_ctx("ExecuteCommandLists of an open list");
    ID3D12CommandQueue *q = NULL;
    ID3D12CommandAllocator *a = NULL;
    ID3D12GraphicsCommandList *l = NULL;
    D3D12_COMMAND_QUEUE_DESC qd;
    memset(&qd, 0, sizeof(qd));
    CHECK_HR(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&q), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
                                                 (void **)&a),
             S_OK);
    if (a)
        CHECK_HR(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, a, NULL,
                                                &IID_ID3D12GraphicsCommandList, (void **)&l),
                 S_OK);
    if (q && l) {
        ID3D12InfoQueue1_SetMuteDebugOutput(iq, TRUE);
        ID3D12CommandList *lists[1] = {(ID3D12CommandList *)l};
        ID3D12CommandQueue_ExecuteCommandLists(q, 1, lists);
        expect_last(__LINE__, D3D12_MESSAGE_ID_EXECUTECOMMANDLISTS_OPENCOMMANDLIST, D3D12_MESSAGE_CATEGORY_EXECUTION,
                    D3D12_MESSAGE_SEVERITY_ERROR, "ID3D12CommandQueue::ExecuteCommandLists: ", "not closed", NULL);
        CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), DXGI_ERROR_INVALID_CALL);
    }
    if (l)
        ID3D12GraphicsCommandList_Release(l);
    if (a)
        ID3D12CommandAllocator_Release(a);
    if (q)
        ID3D12CommandQueue_Release(q);
    set_ctx("%s", "");
}

/* ---- 10. the environment switches, in child processes ----------------------------------------- */

/* Child: RD3D12_DEBUG alone (no EnableDebugLayer) gives the device an info queue; a recorded
 * draw then prints rd3d12's own "needs shader execution" warning only at RD3D12_LOG=warn.
 * Exit status: 0 when the device had an info queue, 1 when not, 2 on setup failure. */
static int child_main(void)
{
    ID3D12Device *d = NULL;
    if (FAILED(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&d)))
        return 2;
    ID3D12InfoQueue *q = NULL;
    HRESULT hr = ID3D12Device_QueryInterface(d, &IID_ID3D12InfoQueue, (void **)&q);
    if (q) {
        ID3D12InfoQueue_SetMuteDebugOutput(q, TRUE);
        ID3D12InfoQueue_Release(q);
    }
    ID3D12CommandAllocator *a = NULL;
    ID3D12GraphicsCommandList *l = NULL;
    ID3D12Device_CreateCommandAllocator(d, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator, (void **)&a);
    if (a)
        ID3D12Device_CreateCommandList(d, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, a, NULL, &IID_ID3D12GraphicsCommandList,
                                       (void **)&l);
    if (l) {
        ID3D12GraphicsCommandList_DrawInstanced(l, 3, 1, 0, 0);
        ID3D12GraphicsCommandList_Close(l);
        ID3D12GraphicsCommandList_Release(l);
    }
    if (a)
        ID3D12CommandAllocator_Release(a);
    ID3D12Device_Release(d);
    return SUCCEEDED(hr) ? 0 : 1;
}

/* Runs this program as the child with `debug` / `log` in its environment (NULL: unset);
 * returns its exit status and leaves its stderr in `captured`. */
static int run_child(const char *debug, const char *log)
{
    /* readlink, not exec of /proc/self/exe itself: under valgrind only readlink names this
     * program. */
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (len <= 0)
        return -1;
    exe[len] = 0;
    char path[] = "/tmp/rd3d12-debug-child-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    unlink(path);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 2);
        if (debug)
            setenv("RD3D12_DEBUG", debug, 1);
        else
            unsetenv("RD3D12_DEBUG");
        if (log)
            setenv("RD3D12_LOG", log, 1);
        else
            unsetenv("RD3D12_LOG");
        execl(exe, "debug_c", "--child", (char *)NULL);
        _exit(3);
    }
    int status = -1;
    if (pid > 0)
        waitpid(pid, &status, 0);
    ssize_t n = pread(fd, captured, sizeof(captured) - 1, 0);
    captured[n > 0 ? n : 0] = 0;
    close(fd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_environment(void)
{
    set_ctx("RD3D12_DEBUG / RD3D12_LOG");
    CHECK_EQ(run_child("1", NULL), 0);   /* the layer without code changes */
    CHECK(strstr(captured, "rd3d12: warning") == NULL); /* default log level: errors only */
    CHECK_EQ(run_child("0", NULL), 1);   /* off */
    CHECK_EQ(run_child(NULL, "warn"), 1);
    CHECK(strstr(captured, "rd3d12: warning: DrawInstanced uses shaders the CPU backend does not execute yet") != NULL);
    CHECK_EQ(run_child(NULL, "off"), 1);
    CHECK(strstr(captured, "rd3d12") == NULL);
    set_ctx("%s", "");
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--child") == 0)
        return child_main();
    test_environment();
    test_debug_interfaces();
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (dev) {
        ID3D12InfoQueue *q0 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12InfoQueue, (void **)&q0), S_OK);
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12InfoQueue1, (void **)&iq), S_OK);
        if (q0)
            ID3D12InfoQueue_Release(q0);
        if (iq) {
            test_seeds();
            test_queue();
            test_filters();
            test_callbacks_and_breaks();
            test_other_messages();
            test_debug_device();
            test_execution_checks();
            test_invalid_submission();
            /* The info queue holds a reference on the device. */
            CHECK_EQ(ID3D12InfoQueue1_Release(iq), 1);
        }
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    }
    printf("debug_c: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
