// tests/abi/conf_images.cpp - typed UAV loads at the edges of their views, through the C ABI.
//
// oob.cs.dxil (tests/fixtures/dxil/oob.comp, GLSL through Mesa's spirv_to_dxil:
// shader model 6.2, unsigned) runs 4 threads; thread x loads texel/element x of four typed UAVs
// whose views are 2 wide and writes the four 32-bit lanes of each load to a raw UAV:
//   u0 RWTexture2D<float4> over a 2x1 R32_FLOAT texture  (1.5, 2.5)
//   u1 RWTexture2D<uint4>  over a 2x1 R32G32_UINT texture ((7, 8), (9, 10))
//   u2 RWTexture2D<float4> over a 2x1 R8G8B8A8_UNORM texture ((255, 0, 0, 255), (0, 255, 0, 0))
//   u3 RWBuffer<float4>    over elements 1 and 2 of a 4-element R32_FLOAT buffer (10, 20, 30, 40)
//   u4 RWByteAddressBuffer, 16 uint4 results
// Inside the views a load gives the texel with the (0, 0, 0, 1) defaults in the components the
// format lacks (1 as an integer in UINT formats). Threads 2 and 3 are outside every view:
// ld_uav_typed's out-of-bounds addressing "is identical to the ld instruction" (learn.microsoft.com,
// ld_uav_typed (sm5 - asm)), which returns 0 in the format's components and the defaults in the
// others, the same rule as UAV reads of non-mapped tiles ("return 0 in all non-missing components
// of the format, and the default for missing components"). So R32_FLOAT gives (0, 0, 0, 1.0f),
// R32G32_UINT (0, 0, 0, 1), R8G8B8A8_UNORM (0, 0, 0, 0), and the buffer's element 3 (40.0),
// past the view though inside the resource, is not read.
//
// Then the same shader over casts a UAV may make that no other view may: an R32_FLOAT,
// R32_UINT or R32_SINT UAV of a texture created R8G8B8A8_TYPELESS, B8G8R8A8_TYPELESS,
// B8G8R8X8_TYPELESS, R16G16_TYPELESS or R10G10B10A2_TYPELESS (the D3D11 rule for reading any
// 32-bit texture through the always-loadable R32 formats; Microsoft's own OpenGL-on-D3D12
// driver binds GL image views this way): u0 an R32_FLOAT view of an R16G16_TYPELESS texture of
// halfs ((1, 2), (-2, 0.5)), u1 an R32_UINT view and u2 an R8G8B8A8_UNORM view of one
// R8G8B8A8_TYPELESS texture of bytes (1, 2, 3, 4), (5, 6, 7, 8). The R32 views give each texel's
// bytes as one little-endian word (0x40003C00, 0x04030201, ...), outside the view the R32 rule
// above.
//
// The last line is "conf_images_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <fstream>
#include <iterator>
#include <string>
#include <vector>



static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

struct Gpu : GpuBase {

    ID3D12Resource *resource(const D3D12_RESOURCE_DESC &d, D3D12_HEAP_TYPE t, D3D12_RESOURCE_STATES st)
    {
        D3D12_HEAP_PROPERTIES h = {};
        h.Type = t;
        ID3D12Resource *r = nullptr;
        CHECK_HR(dev->CreateCommittedResource(&h, D3D12_HEAP_FLAG_NONE, &d, st, nullptr, IID_PPV_ARGS(&r)), S_OK);
        return r;
    }

    ID3D12Resource *buffer(D3D12_HEAP_TYPE t, UINT64 size, D3D12_RESOURCE_STATES st, bool uav = false)
    {
        D3D12_RESOURCE_DESC d = {};
        d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
        d.Width = size;
        d.Height = 1;
        d.DepthOrArraySize = 1;
        d.MipLevels = 1;
        d.SampleDesc.Count = 1;
        d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        d.Flags = uav ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE;
        return resource(d, t, st);
    }

    // An upload buffer holding `bytes`, kept alive by `keep`.
    ID3D12Resource *upload(const void *bytes, size_t n, std::vector<ID3D12Resource *> &keep)
    {
        ID3D12Resource *u = buffer(D3D12_HEAP_TYPE_UPLOAD, n, D3D12_RESOURCE_STATE_GENERIC_READ);
        keep.push_back(u);
        void *p = nullptr;
        if (u && u->Map(0, nullptr, &p) == S_OK)
            memcpy(p, bytes, n);
        return u;
    }

    // A 2x1 UAV texture of `format` whose one row is `row` (`bytes` long), uploaded by a copy.
    ID3D12Resource *texture(DXGI_FORMAT format, const void *row, UINT bytes, std::vector<ID3D12Resource *> &keep)
    {
        D3D12_RESOURCE_DESC d = {};
        d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
        d.Width = 2;
        d.Height = 1;
        d.DepthOrArraySize = 1;
        d.MipLevels = 1;
        d.Format = format;
        d.SampleDesc.Count = 1;
        d.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
        ID3D12Resource *t = resource(d, D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COPY_DEST);
        std::vector<unsigned char> staging(256, 0);
        memcpy(staging.data(), row, bytes);
        D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
        dst.pResource = t;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        src.pResource = upload(staging.data(), staging.size(), keep);
        src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        src.PlacedFootprint.Footprint = {format, 2, 1, 1, 256};
        if (t && src.pResource)
            list->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
        return t;
    }
};

static void to_uav(Gpu &g, ID3D12Resource *r, D3D12_RESOURCE_STATES before)
{
    D3D12_RESOURCE_BARRIER b = {};
    b.Transition.pResource = r;
    b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    b.Transition.StateBefore = before;
    b.Transition.StateAfter = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    g.list->ResourceBarrier(1, &b);
}

// cast: the R32_* casts a UAV may make of 32-bit typeless textures instead (see the header).
static void test_typed_loads(Gpu &g, bool cast)
{
    D3D12_DESCRIPTOR_RANGE1 range = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 5, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 param = {};
    param.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    param.DescriptorTable.NumDescriptorRanges = 1;
    param.DescriptorTable.pDescriptorRanges = &range;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
    rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    rd.Desc_1_1.NumParameters = 1;
    rd.Desc_1_1.pParameters = &param;
    Com<ID3DBlob> blob, err;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
    if (!blob) return;
    Com<ID3D12RootSignature> rs;
    CHECK_HR(g.dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)), S_OK);
    std::vector<char> cs = fixture("oob.cs.dxil");
    CHECK(cs.size() > 100);
    D3D12_COMPUTE_PIPELINE_STATE_DESC pd = {};
    pd.pRootSignature = rs;
    pd.CS = {cs.data(), cs.size()};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.dev->CreateComputePipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;

    std::vector<ID3D12Resource *> keep;
    const float r32f[2] = {1.5f, 2.5f};
    const uint32_t rg32ui[4] = {7, 8, 9, 10};
    const unsigned char rgba8[8] = {255, 0, 0, 255, 0, 255, 0, 0};
    const float elems[4] = {10.0f, 20.0f, 30.0f, 40.0f};
    const uint16_t rg16[4] = {0x3C00, 0x4000, 0xC000, 0x3800}; // halfs 1, 2, -2, 0.5
    const unsigned char bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    Com<ID3D12Resource> a, b, c, d, out;
    if (cast) {
        a.p = g.texture(DXGI_FORMAT_R16G16_TYPELESS, rg16, sizeof rg16, keep);
        b.p = g.texture(DXGI_FORMAT_R8G8B8A8_TYPELESS, bytes, sizeof bytes, keep);
        c.p = b.p;
        if (c.p)
            c.p->AddRef();
    } else {
        a.p = g.texture(DXGI_FORMAT_R32_FLOAT, r32f, sizeof r32f, keep);
        b.p = g.texture(DXGI_FORMAT_R32G32_UINT, rg32ui, sizeof rg32ui, keep);
        c.p = g.texture(DXGI_FORMAT_R8G8B8A8_UNORM, rgba8, sizeof rgba8, keep);
    }
    d.p = g.buffer(D3D12_HEAP_TYPE_DEFAULT, sizeof elems, D3D12_RESOURCE_STATE_COPY_DEST, true);
    out.p = g.buffer(D3D12_HEAP_TYPE_DEFAULT, 64 * 4, D3D12_RESOURCE_STATE_COPY_DEST, true);
    std::vector<uint32_t> sentinel(64, 0xDEADBEEF);
    ID3D12Resource *du = g.upload(elems, sizeof elems, keep), *ou = g.upload(sentinel.data(), 64 * 4, keep);
    if (!a || !b || !c || !d || !out || !du || !ou) return;
    g.list->CopyBufferRegion(d, 0, du, 0, sizeof elems);
    g.list->CopyBufferRegion(out, 0, ou, 0, 64 * 4);
    for (ID3D12Resource *r : {a.p, b.p, d.p, out.p})
        to_uav(g, r, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!cast)
        to_uav(g, c, D3D12_RESOURCE_STATE_COPY_DEST);

    Com<ID3D12DescriptorHeap> heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 5, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    if (!heap) return;
    UINT inc = g.dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE h = heap->GetCPUDescriptorHandleForHeapStart();
    auto at = [&](UINT i) { return D3D12_CPU_DESCRIPTOR_HANDLE{h.ptr + i * inc}; };
    D3D12_UNORDERED_ACCESS_VIEW_DESC u = {};
    u.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
    u.Format = DXGI_FORMAT_R32_FLOAT;
    g.dev->CreateUnorderedAccessView(a, nullptr, &u, at(0));
    u.Format = cast ? DXGI_FORMAT_R32_UINT : DXGI_FORMAT_R32G32_UINT;
    g.dev->CreateUnorderedAccessView(b, nullptr, &u, at(1));
    u.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    g.dev->CreateUnorderedAccessView(c, nullptr, &u, at(2));
    u = {};
    u.Format = DXGI_FORMAT_R32_FLOAT;
    u.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    u.Buffer.FirstElement = 1;
    u.Buffer.NumElements = 2;
    g.dev->CreateUnorderedAccessView(d, nullptr, &u, at(3));
    u = {};
    u.Format = DXGI_FORMAT_R32_TYPELESS;
    u.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    u.Buffer.NumElements = 64;
    u.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    g.dev->CreateUnorderedAccessView(out, nullptr, &u, at(4));

    ID3D12DescriptorHeap *heaps[] = {heap};
    g.list->SetDescriptorHeaps(1, heaps);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootDescriptorTable(0, heap->GetGPUDescriptorHandleForHeapStart());
    g.list->Dispatch(1, 1, 1);
    D3D12_RESOURCE_BARRIER bar = {};
    bar.Transition.pResource = out;
    bar.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    bar.Transition.StateBefore = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    bar.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    g.list->ResourceBarrier(1, &bar);
    Com<ID3D12Resource> rb;
    rb.p = g.buffer(D3D12_HEAP_TYPE_READBACK, 64 * 4, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!rb) return;
    g.list->CopyBufferRegion(rb, 0, out, 0, 64 * 4);
    g.run();
    for (ID3D12Resource *r : keep)
        r->Release();

    const uint32_t one = fbits(1.0f);
    uint32_t expected[4][4][4] = {
        {{fbits(1.5f), 0, 0, one}, {7, 8, 0, 1}, {one, 0, 0, one}, {fbits(20.0f), 0, 0, one}},
        {{fbits(2.5f), 0, 0, one}, {9, 10, 0, 1}, {0, one, 0, 0}, {fbits(30.0f), 0, 0, one}},
        {{0, 0, 0, one}, {0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, one}},
        {{0, 0, 0, one}, {0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, one}},
    };
    const char *names[4] = {"R32_FLOAT texture", "R32G32_UINT texture", "R8G8B8A8_UNORM texture", "R32_FLOAT buffer"};
    if (cast) {
        // The R32 views read each texel's 4 bytes as one little-endian word; the UNORM view
        // of the same bytes decodes them (v / 255).
        const uint32_t in[2][3][4] = {
            {{0x40003C00, 0, 0, one}, {0x04030201, 0, 0, 1}, {fbits(1 / 255.0f), fbits(2 / 255.0f), fbits(3 / 255.0f), fbits(4 / 255.0f)}},
            {{0x3800C000, 0, 0, one}, {0x08070605, 0, 0, 1}, {fbits(5 / 255.0f), fbits(6 / 255.0f), fbits(7 / 255.0f), fbits(8 / 255.0f)}},
        };
        for (int x = 0; x < 2; x++)
            for (int v = 0; v < 3; v++)
                memcpy(expected[x][v], in[x][v], sizeof in[x][v]);
        names[0] = "R32_FLOAT view of R16G16_TYPELESS";
        names[1] = "R32_UINT view of R8G8B8A8_TYPELESS";
        names[2] = "R8G8B8A8_UNORM view of the same texture";
    }
    uint32_t *p = nullptr;
    CHECK_HR(rb->Map(0, nullptr, reinterpret_cast<void **>(&p)), S_OK);
    if (!p) return;
    for (int x = 0; x < 4; x++)
        for (int v = 0; v < 4; v++)
            for (int lane = 0; lane < 4; lane++) {
                set_ctx("thread %d, %s, lane %d", x, names[v], lane);
                CHECK_EQ(p[16 * x + 4 * v + lane], expected[x][v][lane]);
            }
    set_ctx("%s", "");
}

int main()
{
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        {
            Gpu g;
            g.init(dev);
            test_typed_loads(g, false);
            test_typed_loads(g, true);
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("conf_images_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
