// tls.cpp - D3D12 calls made while a thread's thread-local storage is being torn down: from the
// destructor of a C++ thread_local object that was constructed before the thread's first D3D12
// call, so that it runs after rd3d12's own per-thread caches are gone (destructors run in
// reverse order of registration). Windows has no such restriction, and Mesa's GL driver makes
// such calls at thread exit (piglit saw "cannot access a Thread Local Storage value during or
// after destruction" from GetCopyableFootprints).
//
// Expected values, worked out from the footprint rules: a 64x64 R8G8B8A8_UNORM texture with one
// mip has one subresource, RowPitch 64 * 4 = 256 (already a multiple of 256), 64 rows of 256
// bytes, TotalBytes (63 * 256) + 256 = 16384. GetResourceAllocationInfo of a 64 KiB buffer: 64 KiB
// size and alignment.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>

#include <thread>

#include "check.h"

static ID3D12Device *g_dev;

struct Result {
    UINT64 total = 0, row_size = 0, alloc_size = 0, alloc_align = 0;
    UINT rows = 0, pitch = 0;
    bool ran = false;
};
static Result g_at_exit;

static D3D12_RESOURCE_DESC texture()
{
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = 64;
    d.Height = 64;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.SampleDesc.Count = 1;
    return d;
}

static void query(Result &r)
{
    const D3D12_RESOURCE_DESC t = texture();
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp = {};
    g_dev->GetCopyableFootprints(&t, 0, 1, 0, &fp, &r.rows, &r.row_size, &r.total);
    r.pitch = fp.Footprint.RowPitch;
    D3D12_RESOURCE_DESC b = {};
    b.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    b.Width = 65536;
    b.Height = 1;
    b.DepthOrArraySize = 1;
    b.MipLevels = 1;
    b.SampleDesc.Count = 1;
    b.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    const D3D12_RESOURCE_ALLOCATION_INFO info = g_dev->GetResourceAllocationInfo(0, 1, &b);
    r.alloc_size = info.SizeInBytes;
    r.alloc_align = info.Alignment;
    r.ran = true;
}

// Constructed at the thread's start, before any D3D12 call, so destroyed after rd3d12's caches.
struct AtExit {
    ~AtExit() { query(g_at_exit); }
};
static thread_local AtExit t_at_exit;

static void check(const Result &r)
{
    CHECK(r.ran);
    CHECK_EQ(r.total, 16384u);
    CHECK_EQ(r.rows, 64u);
    CHECK_EQ(r.row_size, 256u);
    CHECK_EQ(r.pitch, 256u);
    CHECK_EQ(r.alloc_size, 65536u);
    CHECK_EQ(r.alloc_align, 65536u);
}

int main()
{
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&g_dev)), S_OK);
    if (!g_dev) {
        printf("tls_cpp: %u passed, %u failed\n", g_passed, g_failed);
        return 1;
    }
    Result during;
    std::thread t([&] {
        (void)&t_at_exit;  // construct it first
        query(during);     // fills rd3d12's per-thread caches: they are destroyed before t_at_exit
    });
    t.join();
    set_ctx("during the thread");
    check(during);
    set_ctx("from a thread_local destructor at thread exit");
    check(g_at_exit);
    set_ctx("%s", "");
    g_dev->Release();
    printf("tls_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
