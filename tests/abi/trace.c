/* tests/abi/trace.c - RD3D12_TRACE through the C ABI: a scripted command list with PIX events
 * and markers in each format Microsoft's tools decode, written the way a C program compiled
 * against Microsoft's DirectX-Headers calls the runtime (CINTERFACE + COBJMACROS). The program
 * sets RD3D12_TRACE before its first D3D12 call (the runtime reads it then), executes the list,
 * waits for its fence (the trace is flushed after each ExecuteCommandLists and each queue event,
 * before later work such as the fence's signal) and reads the file back:
 *   - the queue's BeginEvent (ANSI, metadata 1) "queue work" around the ExecuteCommandLists slice
 *     ("lists":1) around the list's BeginEvent "outer" (ANSI) around the PIX3BLOB (metadata 2)
 *     event PIXBeginEvent(list, color, "pass %d of %s", 7, "scene") writes, decoded and
 *     formatted as "pass 7 of scene", around the CopyBufferRegion slice ("bytes":64);
 *   - SetMarker with a wide string (metadata 0; wchar_t is 4 bytes on Linux): an instant event
 *     "wide marker";
 *   - a PIX3BLOB of 5 bytes (not whole UINT64 words): shown as its bytes, "raw:0102030405";
 *   - an EndEvent without a BeginEvent ends nothing; a BeginEvent never ended ("left open") ends
 *     with the list, marked "unterminated":true;
 *   - a bundle (ExecuteBundle) holding a SetMarker and a Dispatch of the DXBC compute shader
 *     tests/fixtures/dxbc/copy.cs.dxbc, whose pipeline state is named "copy" by SetName: an
 *     "ExecuteBundle" slice around the marker and a "Dispatch" slice with "pipeline":"copy",
 *     one thread group of 64 threads; then the same dispatch through ExecuteIndirect (one
 *     D3D12_DISPATCH_ARGUMENTS record): an "ExecuteIndirect" slice, "max_commands":1, 64 threads;
 *   - the queue named "main queue" by SetName before it executes: its track is renamed
 *     "main queue (DIRECT queue)".
 * The last line is "trace_c: N passed, M failed"; the exit status is 0 only when M is 0. */
#define _GNU_SOURCE
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include "check.h"

#include <unistd.h>
#include <wchar.h>

/* The file's text (NUL-terminated), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = 2 * (len + n + 1);
            buf = realloc(buf, cap);
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (buf) buf[len] = 0;
    return buf;
}

/* The ts and dur of the slice named `name` ("ph":"X"); 0 when there is none. */
static int slice(const char *json, const char *name, double *ts, double *dur)
{
    const char *cats[] = {"event", "gpu", "queue"};
    for (int c = 0; c < 3; c++) {
        char k[256];
        snprintf(k, sizeof k, "\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",", cats[c], name);
        const char *p = strstr(json, k);
        if (p && sscanf(p + strlen(k), "\"ts\":%lf,\"dur\":%lf", ts, dur) == 2) return 1;
    }
    return 0;
}

static int within(const char *json, const char *inner, const char *outer)
{
    double its, idur, ots, odur;
    if (!slice(json, inner, &its, &idur) || !slice(json, outer, &ots, &odur)) return 0;
    return its >= ots && its + idur <= ots + odur + 0.001;
}

/* The PIX3BLOB PIXBeginEvent(list, color, "pass %d of %s", 7, "scene") passes (PIXEventsLegacy.h,
 * EncodeBeginEventForContext): event info (PIXEvent_BeginEvent_VarArgs << 10), colour, the
 * format string (string info: 8-byte chunks, ANSI; the characters), then the arguments: the
 * integer, and the string (string info, characters). Returns the words used. */
static size_t pix3blob(UINT64 *w)
{
    const UINT64 ansi = (8ull << 55) | (1ull << 54);
    size_t n = 0;
    w[n++] = 0x001ull << 10;
    w[n++] = 0xff00ff00ull;
    w[n++] = ansi;
    char fmt[16] = "pass %d of %s"; /* 13 characters, the NUL, padding: two words */
    memcpy(&w[n], fmt, 16);
    n += 2;
    w[n++] = 7;
    w[n++] = ansi;
    char arg[8] = "scene";
    memcpy(&w[n], arg, 8);
    n += 1;
    w[n++] = 0;
    return n;
}

/* The bytes of tests/fixtures/dxbc/`name` (read relative to this file) and their count. */
static void *dxbc_fixture(const char *name, size_t *len)
{
    char path[1024];
    const char *here = __FILE__, *slash = strrchr(here, '/');
    int dir = slash ? (int)(slash - here) : 1;
    snprintf(path, sizeof path, "%.*s/../../tests/fixtures/dxbc/%s", dir, slash ? here : ".", name);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static unsigned char buf[65536];
    *len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return buf;
}

/* A compute pipeline state of copy.cs.dxbc (u0 read, u1 written, raw, as root UAVs 0 and 1),
 * named "copy"; its root signature in *rs. */
static ID3D12PipelineState *copy_pipeline(ID3D12Device *dev, ID3D12RootSignature **rs)
{
    D3D12_ROOT_PARAMETER p[2] = {{0}};
    for (int i = 0; i < 2; i++) {
        p[i].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
        p[i].Descriptor.ShaderRegister = (UINT)i;
        p[i].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    }
    D3D12_ROOT_SIGNATURE_DESC rd = {0};
    rd.NumParameters = 2;
    rd.pParameters = p;
    ID3DBlob *blob = NULL;
    CHECK_HR(D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1, &blob, NULL), S_OK);
    if (!blob) return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(dev, 0, ID3D10Blob_GetBufferPointer(blob), ID3D10Blob_GetBufferSize(blob),
                                              &IID_ID3D12RootSignature, (void **)rs), S_OK);
    ID3D10Blob_Release(blob);
    size_t len = 0;
    void *cs = dxbc_fixture("copy.cs.dxbc", &len);
    CHECK(cs != NULL && len > 100);
    if (!*rs || !cs) return NULL;
    D3D12_COMPUTE_PIPELINE_STATE_DESC cd = {0};
    cd.pRootSignature = *rs;
    cd.CS.pShaderBytecode = cs;
    cd.CS.BytecodeLength = len;
    ID3D12PipelineState *pso = NULL;
    CHECK_HR(ID3D12Device_CreateComputePipelineState(dev, &cd, &IID_ID3D12PipelineState, (void **)&pso), S_OK);
    if (pso) CHECK_HR(ID3D12PipelineState_SetName(pso, L"copy"), S_OK);
    return pso;
}

int main(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/rd3d12-trace-c-%d.json", (int)getpid());
    setenv("RD3D12_TRACE", path, 1);

    ID3D12Device *dev = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (!dev) return 1;
    D3D12_COMMAND_QUEUE_DESC qd = {0};
    ID3D12CommandQueue *q = NULL;
    ID3D12CommandAllocator *a = NULL;
    ID3D12GraphicsCommandList *l = NULL;
    ID3D12Fence *fence = NULL;
    CHECK_HR(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&q), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
                                                 (void **)&a), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, a, NULL,
                                            &IID_ID3D12GraphicsCommandList, (void **)&l), S_OK);
    CHECK_HR(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
    D3D12_HEAP_PROPERTIES hp = {0};
    hp.Type = D3D12_HEAP_TYPE_DEFAULT;
    D3D12_RESOURCE_DESC d = {0};
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Width = 256;
    d.Height = 1;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    ID3D12Resource *src = NULL, *dst = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                  &IID_ID3D12Resource, (void **)&src), S_OK);
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                  &IID_ID3D12Resource, (void **)&dst), S_OK);
    if (!q || !a || !l || !fence || !src || !dst) return 1;

    /* The bundle and the indirect dispatch's arguments (an upload buffer is GENERIC_READ, which
     * includes INDIRECT_ARGUMENT). */
    ID3D12RootSignature *rs = NULL;
    ID3D12PipelineState *pso = copy_pipeline(dev, &rs);
    ID3D12CommandAllocator *ba = NULL;
    ID3D12GraphicsCommandList *bundle = NULL;
    ID3D12CommandSignature *sig = NULL;
    ID3D12Resource *args = NULL;
    static const char in_bundle[] = "in bundle";
    CHECK_HR(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_BUNDLE, &IID_ID3D12CommandAllocator,
                                                 (void **)&ba), S_OK);
    if (!pso || !ba) return 1;
    CHECK_HR(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_BUNDLE, ba, pso,
                                            &IID_ID3D12GraphicsCommandList, (void **)&bundle), S_OK);
    D3D12_INDIRECT_ARGUMENT_DESC ad = {0};
    ad.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
    D3D12_COMMAND_SIGNATURE_DESC sd = {0};
    sd.ByteStride = sizeof(D3D12_DISPATCH_ARGUMENTS);
    sd.NumArgumentDescs = 1;
    sd.pArgumentDescs = &ad;
    CHECK_HR(ID3D12Device_CreateCommandSignature(dev, &sd, NULL, &IID_ID3D12CommandSignature, (void **)&sig), S_OK);
    D3D12_HEAP_PROPERTIES up = {0};
    up.Type = D3D12_HEAP_TYPE_UPLOAD;
    D3D12_RESOURCE_DESC ard = d;
    ard.Flags = D3D12_RESOURCE_FLAG_NONE;
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &up, D3D12_HEAP_FLAG_NONE, &ard, D3D12_RESOURCE_STATE_GENERIC_READ,
                                                  NULL, &IID_ID3D12Resource, (void **)&args), S_OK);
    if (!bundle || !sig || !args) return 1;
    D3D12_DISPATCH_ARGUMENTS *rec = NULL;
    CHECK_HR(ID3D12Resource_Map(args, 0, NULL, (void **)&rec), S_OK);
    if (!rec) return 1;
    rec->ThreadGroupCountX = rec->ThreadGroupCountY = rec->ThreadGroupCountZ = 1;
    ID3D12Resource_Unmap(args, 0, NULL);
    D3D12_GPU_VIRTUAL_ADDRESS src_va = ID3D12Resource_GetGPUVirtualAddress(src);
    D3D12_GPU_VIRTUAL_ADDRESS dst_va = ID3D12Resource_GetGPUVirtualAddress(dst);
    ID3D12GraphicsCommandList_SetComputeRootSignature(bundle, rs);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(bundle, 0, src_va);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(bundle, 1, dst_va);
    ID3D12GraphicsCommandList_SetMarker(bundle, 1, in_bundle, sizeof in_bundle);
    ID3D12GraphicsCommandList_Dispatch(bundle, 1, 1, 1);
    CHECK_HR(ID3D12GraphicsCommandList_Close(bundle), S_OK);

    static const char queue_work[] = "queue work", outer[] = "outer", left_open[] = "left open";
    static const wchar_t wide[] = L"wide marker";
    static const unsigned char bad[5] = {1, 2, 3, 4, 5};
    UINT64 blob[16];
    size_t words = pix3blob(blob);

    ID3D12CommandQueue_BeginEvent(q, 1, queue_work, sizeof queue_work);
    ID3D12GraphicsCommandList_BeginEvent(l, 1, outer, sizeof outer);
    ID3D12GraphicsCommandList_BeginEvent(l, 2, blob, (UINT)(words * 8));
    ID3D12GraphicsCommandList_SetMarker(l, 0, wide, sizeof wide);
    ID3D12GraphicsCommandList_CopyBufferRegion(l, dst, 0, src, 64, 64);
    ID3D12GraphicsCommandList_EndEvent(l);
    ID3D12GraphicsCommandList_EndEvent(l);
    ID3D12GraphicsCommandList_SetMarker(l, 2, bad, sizeof bad);
    ID3D12GraphicsCommandList_EndEvent(l); /* nothing to end */
    ID3D12GraphicsCommandList_SetPipelineState(l, pso);
    ID3D12GraphicsCommandList_ExecuteBundle(l, bundle);
    ID3D12GraphicsCommandList_SetComputeRootSignature(l, rs);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 0, src_va);
    ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 1, dst_va);
    ID3D12GraphicsCommandList_ExecuteIndirect(l, sig, 1, args, 0, NULL, 0);
    ID3D12GraphicsCommandList_BeginEvent(l, 1, left_open, sizeof left_open);
    CHECK_HR(ID3D12GraphicsCommandList_Close(l), S_OK);
    ID3D12CommandList *lists[] = {(ID3D12CommandList *)l};
    CHECK_HR(ID3D12CommandQueue_SetName(q, L"main queue"), S_OK);
    ID3D12CommandQueue_ExecuteCommandLists(q, 1, lists);
    ID3D12CommandQueue_EndEvent(q);
    CHECK_HR(ID3D12CommandQueue_Signal(q, fence, 1), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);

    char *json = slurp(path);
    CHECK(json != NULL);
    if (json) {
        set_ctx("%s", path);
        CHECK(strncmp(json, "[\n", 2) == 0);
        CHECK(strstr(json, "\"name\":\"thread_name\"") != NULL);
        CHECK(strstr(json, "\"name\":\"ExecuteCommandLists\"") != NULL);
        CHECK(strstr(json, "\"args\":{\"lists\":1}") != NULL);
        CHECK(strstr(json, "\"name\":\"CopyBufferRegion\"") != NULL);
        CHECK(strstr(json, "\"args\":{\"bytes\":64}") != NULL);
        CHECK(within(json, "ExecuteCommandLists", "queue work"));
        CHECK(within(json, "outer", "ExecuteCommandLists"));
        CHECK(within(json, "pass 7 of scene", "outer"));
        CHECK(within(json, "CopyBufferRegion", "pass 7 of scene"));
        CHECK(strstr(json, "\"ph\":\"i\",\"s\":\"t\",\"cat\":\"marker\",\"name\":\"wide marker\"") != NULL);
        CHECK(strstr(json, "\"name\":\"raw:0102030405\"") != NULL);
        CHECK(within(json, "left open", "ExecuteCommandLists"));
        const char *lo = strstr(json, "\"name\":\"left open\"");
        const char *args = lo ? strstr(lo, "\"args\":") : NULL;
        static const char unterminated[] = "\"args\":{\"unterminated\":true}";
        CHECK(args && strncmp(args, unterminated, strlen(unterminated)) == 0);
        CHECK(strstr(json, "\"args\":{\"name\":\"main queue (DIRECT queue)\"}") != NULL);
        CHECK(within(json, "ExecuteBundle", "ExecuteCommandLists"));
        CHECK(within(json, "Dispatch", "ExecuteBundle"));
        CHECK(within(json, "ExecuteIndirect", "ExecuteCommandLists"));
        double bts = 0, bdur = 0, mts = -1;
        const char *im = strstr(json, "\"cat\":\"marker\",\"name\":\"in bundle\",");
        CHECK(im && sscanf(strstr(im, "\"ts\":"), "\"ts\":%lf", &mts) == 1);
        CHECK(slice(json, "ExecuteBundle", &bts, &bdur) && mts >= bts && mts <= bts + bdur + 0.001);
        CHECK(strstr(json, "\"args\":{\"pipeline\":\"copy\",\"thread_groups\":1,\"groups\":[1,1,1],\"threads\":64}") != NULL);
        CHECK(strstr(json, "\"args\":{\"max_commands\":1,\"vertices\":0,\"pixels_shaded\":0,\"threads\":64}") != NULL);
        /* Exactly the two list events, the blob's and the queue's: the stray EndEvent made none. */
        int events = 0;
        for (const char *p = json; (p = strstr(p, "\"cat\":\"event\"")); p++) events++;
        CHECK_EQ(events, 4);
        free(json);
        set_ctx("%s", "");
    }

    ID3D12Resource_Release(args);
    ID3D12CommandSignature_Release(sig);
    ID3D12GraphicsCommandList_Release(bundle);
    ID3D12CommandAllocator_Release(ba);
    ID3D12PipelineState_Release(pso);
    ID3D12RootSignature_Release(rs);
    ID3D12Resource_Release(src);
    ID3D12Resource_Release(dst);
    ID3D12Fence_Release(fence);
    ID3D12GraphicsCommandList_Release(l);
    ID3D12CommandAllocator_Release(a);
    ID3D12CommandQueue_Release(q);
    CHECK_EQ(ID3D12Device_Release(dev), 0);
    unlink(path);
    printf("trace_c: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
