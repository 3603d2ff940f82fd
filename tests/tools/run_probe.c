/* tests/tools/run_probe.c - a D3D12 program as a user has it, run through `rd3d12 run` by
 * `cargo xtask test` (xtask/src/tools.rs). Linked with -ld3d12 but without an rpath, so it
 * finds a libd3d12.so only through LD_LIBRARY_PATH, as a program built against Microsoft's
 * library would. Usage: run_probe DIR [debug]. Checks that:
 *   - the libd3d12.so loaded is DIR's (dladdr of its D3D12CreateDevice), DIR being rd3d12 run's
 *     private folder;
 *   - dlopen("libd3d12core.so") is the same library (the same D3D12CreateDevice), and
 *     libdxcore.so from DIR exports DXCoreCreateAdapterFactory;
 *   - the device works: a command list holding PIX markers (one of them malformed) executes
 *     between the queue's BeginEvent and EndEvent, and a fence signals;
 *   - with "debug" (rd3d12 run --debug) the device has the debug layer (ID3D12InfoQueue),
 *     without it none (E_NOINTERFACE).
 * Prints "run_probe: N passed, M failed"; exits 0 only when M is 0. */
#define _GNU_SOURCE
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>

#include "../abi/check.h"

#include <dlfcn.h>
#include <limits.h>

static int in_dir(const char *file, const char *dir)
{
    char a[PATH_MAX], b[PATH_MAX];
    if (!realpath(file, a) || !realpath(dir, b)) return 0;
    size_t n = strlen(b);
    return strncmp(a, b, n) == 0 && a[n] == '/';
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: run_probe DIR [debug]\n");
        return 2;
    }
    const char *dir = argv[1];
    int debug = argc > 2 && strcmp(argv[2], "debug") == 0;

    void *self = dlopen("libd3d12.so", RTLD_NOW | RTLD_NOLOAD);
    CHECK(self != NULL);
    if (self) {
        Dl_info from;
        /* The loaded library is the private folder's copy. */
        CHECK(dladdr(dlsym(self, "D3D12CreateDevice"), &from) && in_dir(from.dli_fname, dir));
    }
    void *core = dlopen("libd3d12core.so", RTLD_NOW);
    CHECK(core != NULL);
    if (core && self) CHECK(dlsym(core, "D3D12CreateDevice") == dlsym(self, "D3D12CreateDevice"));
    void *dxcore = dlopen("libdxcore.so", RTLD_NOW);
    CHECK(dxcore != NULL);
    if (dxcore) {
        Dl_info dx;
        void *f = dlsym(dxcore, "DXCoreCreateAdapterFactory");
        CHECK(f != NULL && dladdr(f, &dx) && in_dir(dx.dli_fname, dir));
    }

    ID3D12Device *dev = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (!dev) return 1;
    ID3D12InfoQueue *iq = NULL;
    HRESULT hr = ID3D12Device_QueryInterface(dev, &IID_ID3D12InfoQueue, (void **)&iq);
    CHECK_HR(hr, debug ? S_OK : E_NOINTERFACE);
    if (iq) ID3D12InfoQueue_Release(iq);

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
    if (q && a && l && fence) {
        static const char name[] = "run_probe", queue_name[] = "probe queue";
        /* A PIX3BLOB (metadata 2) too short to be one: the trace shows its bytes. */
        static const unsigned char bad[3] = {1, 2, 3};
        ID3D12CommandQueue_BeginEvent(q, 1, queue_name, sizeof queue_name);
        ID3D12GraphicsCommandList_BeginEvent(l, 1, name, sizeof name);
        ID3D12GraphicsCommandList_SetMarker(l, 2, bad, sizeof bad);
        ID3D12GraphicsCommandList_EndEvent(l);
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), S_OK);
        ID3D12CommandList *lists[] = {(ID3D12CommandList *)l};
        ID3D12CommandQueue_ExecuteCommandLists(q, 1, lists);
        ID3D12CommandQueue_EndEvent(q);
        CHECK_HR(ID3D12CommandQueue_Signal(q, fence, 1), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
        CHECK_EQ(ID3D12Fence_GetCompletedValue(fence), 1);
    }
    if (fence) ID3D12Fence_Release(fence);
    if (l) ID3D12GraphicsCommandList_Release(l);
    if (a) ID3D12CommandAllocator_Release(a);
    if (q) ID3D12CommandQueue_Release(q);
    CHECK_EQ(ID3D12Device_Release(dev), 0);
    printf("run_probe: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
