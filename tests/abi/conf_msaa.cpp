// Multisampling conformance (issue #21 group 3), through the C++ ABI against Microsoft's headers.
//
//   1. MULTISAMPLE_QUALITY_LEVELS and resource creation agree: every format Mesa's d3d12
//      driver multisamples (the depth formats D24_UNORM_S8_UINT, D32_FLOAT_S8X24_UINT,
//      D32_FLOAT, D16_UNORM and their typeless parents; colour formats) reports one quality
//      level at 2, 4 and 8 samples, and a Count N, Quality 0 texture of it is created. FL 11_0
//      requires 4x for every render-target format and 8x for all but R32G32B32A32
//      (ID3D11Device2::CheckMultisampleQualityLevels1 remarks); quality 1 is refused (#723).
//   2. ForcedSampleCount 1 ("MRT with ForcedSampleCount 1", hardware-feature-levels; what
//      Mesa sets when GL_MULTISAMPLE is off on a multisampled framebuffer): accepted at
//      feature level 11_0 with a 4x target and no depth-stencil view; the rasterizer takes
//      the pixel center only and a covered pixel gets all 4 samples. quad.vs/quad.ps (the
//      corner's screen position as colour) on a 2x2 R32G32B32A32_FLOAT target, a triangle
//      whose edge is x = 0.55: with ForcedSampleCount 1 column 0's centers are in, so the
//      resolve (the average of 4 equal samples) is the colour at the center, (0.5, y + 0.5,
//      0, 1); without it only samples 0 and 2 (x 0.375, 0.125) are in and the resolve is
//      half that. Column 1 stays clear either way.
//   3. UAV-only rendering with ForcedSampleCount 4 at FL 11_0 (up to 8 there, "Max forced
//      sample count for UAV-only rendering"): the pixel shader runs where any of the 4
//      samples is covered (count.ps counts invocations); 16 is refused.
//   4. ForcedSampleCount 1 with a DSV format, and 4 (target-independent rasterization) at
//      FL 11_0: E_INVALIDARG with #672 CREATEGRAPHICSPIPELINESTATE_INVALID_USE_OF_FORCED_SAMPLE_COUNT / #401
//      CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT from the debug layer (D3D12_RASTERIZER_DESC:
//      no DSV with ForcedSampleCount >= 1).
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>



static D3D12_RESOURCE_DESC tex2d(UINT w, UINT h, DXGI_FORMAT format, UINT samples, UINT quality,
                                 D3D12_RESOURCE_FLAGS flags)
{
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = w;
    d.Height = h;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = format;
    d.SampleDesc = {samples, quality};
    d.Flags = flags;
    return d;
}

static ID3D12Resource *create(ID3D12Device *dev, D3D12_HEAP_TYPE type, const D3D12_RESOURCE_DESC &d,
                              D3D12_RESOURCE_STATES st, HRESULT want = S_OK)
{
    D3D12_HEAP_PROPERTIES hp = {};
    hp.Type = type;
    ID3D12Resource *r = nullptr;
    CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, st, nullptr, IID_PPV_ARGS(&r)), want);
    return r;
}

static ID3D12Resource *buffer(ID3D12Device *dev, D3D12_HEAP_TYPE type, UINT64 size, D3D12_RESOURCE_STATES st)
{
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Width = size;
    d.Height = 1;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return create(dev, type, d, st);
}

static D3D12_RESOURCE_BARRIER transition(ID3D12Resource *r, D3D12_RESOURCE_STATES a, D3D12_RESOURCE_STATES b)
{
    D3D12_RESOURCE_BARRIER x = {};
    x.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    x.Transition.pResource = r;
    x.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    x.Transition.StateBefore = a;
    x.Transition.StateAfter = b;
    return x;
}

static UINT quality_levels(ID3D12Device *dev, DXGI_FORMAT f, UINT count)
{
    D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS q = {f, count, D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_NONE, 99};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &q, sizeof q), S_OK);
    return q.NumQualityLevels;
}

static UINT64 last_message_id(ID3D12InfoQueue *iq)
{
    UINT64 n = iq->GetNumStoredMessages();
    if (n == 0) return 0;
    SIZE_T len = 0;
    CHECK_HR(iq->GetMessage(n - 1, nullptr, &len), S_OK);
    std::vector<char> buf(len);
    D3D12_MESSAGE *m = reinterpret_cast<D3D12_MESSAGE *>(buf.data());
    if (!len || FAILED(iq->GetMessage(n - 1, m, &len))) return 0;
    return m->ID;
}

// 1.
static void quality_levels_and_creation_agree(ID3D12Device *dev)
{
    struct Case {
        DXGI_FORMAT format;
        D3D12_RESOURCE_FLAGS flags;
    };
    const D3D12_RESOURCE_FLAGS rt = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
                               ds = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    const Case cases[] = {
        {DXGI_FORMAT_D24_UNORM_S8_UINT, ds},     {DXGI_FORMAT_R24G8_TYPELESS, ds},
        {DXGI_FORMAT_D32_FLOAT_S8X24_UINT, ds},  {DXGI_FORMAT_R32G8X24_TYPELESS, ds},
        {DXGI_FORMAT_D32_FLOAT, ds},             {DXGI_FORMAT_R32_TYPELESS, ds},
        {DXGI_FORMAT_D16_UNORM, ds},             {DXGI_FORMAT_R16_TYPELESS, ds},
        {DXGI_FORMAT_R8G8B8A8_UNORM, rt},        {DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, rt},
        {DXGI_FORMAT_B8G8R8A8_UNORM, rt},        {DXGI_FORMAT_R8G8B8A8_TYPELESS, rt},
        {DXGI_FORMAT_R10G10B10A2_UNORM, rt},     {DXGI_FORMAT_R11G11B10_FLOAT, rt},
        {DXGI_FORMAT_R16G16B16A16_FLOAT, rt},    {DXGI_FORMAT_R16G16B16A16_UINT, rt},
        {DXGI_FORMAT_R16G16B16A16_SINT, rt},     {DXGI_FORMAT_R16G16_FLOAT, rt},
        {DXGI_FORMAT_R32_FLOAT, rt},             {DXGI_FORMAT_R32_UINT, rt},
        {DXGI_FORMAT_R32G32_SINT, rt},           {DXGI_FORMAT_R8_UNORM, rt},
        {DXGI_FORMAT_R8G8_SNORM, rt},            {DXGI_FORMAT_R8G8B8A8_SINT, rt},
        {DXGI_FORMAT_R16_UNORM, rt},             {DXGI_FORMAT_A8_UNORM, rt},
        {DXGI_FORMAT_R32G32B32A32_FLOAT, rt},    {DXGI_FORMAT_R32G32B32A32_UINT, rt},
    };
    for (const Case &c : cases) {
        for (UINT count : {2u, 4u, 8u}) {
            set_ctx("format %d at %ux", (int)c.format, count);
            CHECK_EQ(quality_levels(dev, c.format, count), 1u);
            Com<ID3D12Resource> r;
            D3D12_RESOURCE_STATES st = c.flags == ds ? D3D12_RESOURCE_STATE_DEPTH_WRITE : D3D12_RESOURCE_STATE_RENDER_TARGET;
            r.p = create(dev, D3D12_HEAP_TYPE_DEFAULT, tex2d(16, 16, c.format, count, 0, c.flags), st);
            CHECK(r.p != nullptr);
            // One quality level: Quality 1 is out of range.
            Com<ID3D12Resource> bad;
            bad.p = create(dev, D3D12_HEAP_TYPE_DEFAULT, tex2d(16, 16, c.format, count, 1, c.flags), st, E_INVALIDARG);
            CHECK(bad.p == nullptr);
        }
    }
    set_ctx("%s", "");
    // Counts that are no power of two have no levels; BC formats cannot be multisampled.
    CHECK_EQ(quality_levels(dev, DXGI_FORMAT_R8G8B8A8_UNORM, 3), 0u);
    CHECK_EQ(quality_levels(dev, DXGI_FORMAT_BC1_UNORM, 4), 0u);
}

static const D3D12_INPUT_ELEMENT_DESC kQuadLayout[2] = {
    {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"TEXCOORD", 1, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 8, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};

struct Draw {
    ID3D12Device *dev = nullptr;
    Com<ID3D12CommandQueue> queue;
    Com<ID3D12CommandAllocator> alloc;
    Com<ID3D12GraphicsCommandList> list;
    Com<ID3D12Fence> fence;
    Com<ID3D12RootSignature> rs;
    std::vector<char> vs = fixture("quad.vs.dxil"), ps = fixture("quad.ps.dxil");
    UINT64 value = 0;

    bool init()
    {
        D3D12_COMMAND_QUEUE_DESC qd = {};
        CHECK_HR(dev->CreateCommandQueue(&qd, IID_PPV_ARGS(&queue)), S_OK);
        CHECK_HR(dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&alloc)), S_OK);
        CHECK_HR(dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, alloc, nullptr, IID_PPV_ARGS(&list)), S_OK);
        CHECK_HR(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence)), S_OK);
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
        rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
        rd.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
        Com<ID3DBlob> blob, err;
        CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
        if (blob)
            CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)),
                     S_OK);
        CHECK(!vs.empty() && !ps.empty());
        return queue && alloc && list && fence && rs && !vs.empty() && !ps.empty();
    }

    D3D12_GRAPHICS_PIPELINE_STATE_DESC pso(UINT forced) const
    {
        D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = {};
        pd.pRootSignature = rs;
        pd.VS = {vs.data(), vs.size()};
        pd.PS = {ps.data(), ps.size()};
        pd.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
        pd.SampleMask = UINT_MAX;
        pd.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
        pd.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
        pd.RasterizerState.DepthClipEnable = TRUE;
        pd.RasterizerState.MultisampleEnable = forced ? FALSE : TRUE;
        pd.RasterizerState.ForcedSampleCount = forced;
        pd.InputLayout = {kQuadLayout, 2};
        pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        pd.NumRenderTargets = 1;
        pd.RTVFormats[0] = DXGI_FORMAT_R32G32B32A32_FLOAT;
        pd.SampleDesc.Count = 4;
        return pd;
    }

    void run()
    {
        CHECK_HR(list->Close(), S_OK);
        ID3D12CommandList *l = list;
        queue->ExecuteCommandLists(1, &l);
        CHECK_HR(queue->Signal(fence, ++value), S_OK);
        CHECK_HR(fence->SetEventOnCompletion(value, nullptr), S_OK);
        CHECK_HR(alloc->Reset(), S_OK);
        CHECK_HR(list->Reset(alloc, nullptr), S_OK);
    }

    // Draws the triangle with the edge x = 0.55 on the 2x2 4x target, resolves it and returns
    // the 4 pixels' colours.
    std::vector<float> draw(UINT forced)
    {
        std::vector<float> out(16, -1.0f);
        const DXGI_FORMAT fmt = DXGI_FORMAT_R32G32B32A32_FLOAT;
        D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = pso(forced);
        Com<ID3D12PipelineState> state;
        CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&state)), S_OK);
        const float tri[3][2] = {{-4, -4}, {0.55f, -4}, {0.55f, 10}};
        float verts[3][6];
        for (int i = 0; i < 3; i++) {
            float x = tri[i][0], y = tri[i][1];
            float v[6] = {x - 1, 1 - y, x, y, 0, 1};
            memcpy(verts[i], v, sizeof v);
        }
        Com<ID3D12Resource> vb, ms, resolved, readback;
        vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof verts, D3D12_RESOURCE_STATE_GENERIC_READ);
        readback.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 512, D3D12_RESOURCE_STATE_COPY_DEST);
        ms.p = create(dev, D3D12_HEAP_TYPE_DEFAULT,
                      tex2d(2, 2, fmt, 4, 0, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET), D3D12_RESOURCE_STATE_RENDER_TARGET);
        resolved.p = create(dev, D3D12_HEAP_TYPE_DEFAULT, tex2d(2, 2, fmt, 1, 0, D3D12_RESOURCE_FLAG_NONE),
                            D3D12_RESOURCE_STATE_RESOLVE_DEST);
        Com<ID3D12DescriptorHeap> heap;
        D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
        CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
        if (!state || !vb || !readback || !ms || !resolved || !heap) return out;
        void *p = nullptr;
        CHECK_HR(vb->Map(0, nullptr, &p), S_OK);
        if (p) memcpy(p, verts, sizeof verts);
        D3D12_CPU_DESCRIPTOR_HANDLE rtv = heap->GetCPUDescriptorHandleForHeapStart();
        dev->CreateRenderTargetView(ms, nullptr, rtv);
        const float zero[4] = {};
        ID3D12GraphicsCommandList *l = list;
        l->ClearRenderTargetView(rtv, zero, 0, nullptr);
        l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
        l->SetGraphicsRootSignature(rs);
        l->SetPipelineState(state);
        l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof verts, 24};
        l->IASetVertexBuffers(0, 1, &vbv);
        D3D12_VIEWPORT vp = {0, 0, 2, 2, 0, 1};
        l->RSSetViewports(1, &vp);
        D3D12_RECT sc = {0, 0, 2, 2};
        l->RSSetScissorRects(1, &sc);
        l->DrawInstanced(3, 1, 0, 0);
        D3D12_RESOURCE_BARRIER b = transition(ms, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
        l->ResourceBarrier(1, &b);
        l->ResolveSubresource(resolved, 0, ms, 0, fmt);
        b = transition(resolved, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        l->ResourceBarrier(1, &b);
        D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
        dst.pResource = readback;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        dst.PlacedFootprint.Footprint = {fmt, 2, 2, 1, 256};
        src.pResource = resolved;
        src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
        run();
        CHECK_HR(readback->Map(0, nullptr, &p), S_OK);
        if (p)
            for (int i = 0; i < 4; i++)
                memcpy(&out[4 * i], static_cast<const char *>(p) + (i / 2) * 256 + (i % 2) * 16, 16);
        return out;
    }
};

// Positions are snapped to 1/256 pixel (D3D12_SUBPIXEL_FRACTIONAL_BIT_COUNT 8) and the colours
// are not, so a colour interpolated from snapped corners may be off by about 1/256.
// UAV-only rendering (no RTV, no DSV, SampleDesc {0, 0} as Mesa sends it) with
// ForcedSampleCount `forced`: count.ps adds 1 to u1 per invocation. The triangle (-1, 1),
// (1, 1), (-1, -1) on a 4x4 viewport has its hypotenuse on x + y = 4: it covers the 6 pixel
// centers with x + y < 3, and at 4x samples 0 and 2 of the 4 pixels with x + y = 3 too, so
// the shader runs 6 times unforced or with 1 sample and 10 times with 4.
static UINT uav_only_invocations(ID3D12Device *dev, Draw &d, UINT forced)
{
    D3D12_ROOT_PARAMETER1 p = {};
    p.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    p.Descriptor.ShaderRegister = 1;
    p.ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
    rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    rd.Desc_1_1.NumParameters = 1;
    rd.Desc_1_1.pParameters = &p;
    rd.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    Com<ID3DBlob> blob, err;
    Com<ID3D12RootSignature> rs;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
    if (!blob) return ~0u;
    CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)), S_OK);
    std::vector<char> ps = fixture("count.ps.dxil");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = d.pso(forced);
    pd.pRootSignature = rs;
    pd.PS = {ps.data(), ps.size()};
    pd.NumRenderTargets = 0;
    pd.RTVFormats[0] = DXGI_FORMAT_UNKNOWN;
    pd.SampleDesc = {0, 0};
    Com<ID3D12PipelineState> state;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&state)), S_OK);
    const float tri[3][6] = {{-1, 1, 1, 0, 0, 1}, {1, 1, 1, 0, 0, 1}, {-1, -1, 1, 0, 0, 1}};
    Com<ID3D12Resource> vb, counter, rb;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof tri, D3D12_RESOURCE_STATE_GENERIC_READ);
    D3D12_RESOURCE_DESC cd = {};
    cd.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    cd.Width = 256;
    cd.Height = 1;
    cd.DepthOrArraySize = 1;
    cd.MipLevels = 1;
    cd.SampleDesc.Count = 1;
    cd.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    cd.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    counter.p = create(dev, D3D12_HEAP_TYPE_DEFAULT, cd, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    rb.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!state || !vb || !counter || !rb) return ~0u;
    void *m = nullptr;
    CHECK_HR(vb->Map(0, nullptr, &m), S_OK);
    if (m) memcpy(m, tri, sizeof tri);
    ID3D12GraphicsCommandList *l = d.list;
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(state);
    l->SetGraphicsRootUnorderedAccessView(0, counter->GetGPUVirtualAddress());
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof tri, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    l->OMSetRenderTargets(0, nullptr, FALSE, nullptr);
    D3D12_VIEWPORT vp = {0, 0, 4, 4, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, 4, 4};
    l->RSSetScissorRects(1, &sc);
    l->DrawInstanced(3, 1, 0, 0);
    D3D12_RESOURCE_BARRIER b = transition(counter, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    l->CopyBufferRegion(rb, 0, counter, 0, 4);
    d.run();
    UINT n = ~0u;
    CHECK_HR(rb->Map(0, nullptr, &m), S_OK);
    if (m) memcpy(&n, m, 4);
    return n;
}

static void check_pixels(const std::vector<float> &got, const float (&want)[4][4], const char *what)
{
    unsigned bad = 0;
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 4; c++)
            if (std::fabs(got[4 * i + c] - want[i][c]) > 4e-3f && bad++ < 4)
                fprintf(stderr, "%s: pixel %d channel %d is %f, expected %f\n", what, i, c, got[4 * i + c], want[i][c]);
    CHECK_EQ(bad, 0u);
}

// 2. to 4.
static void forced_sample_count(ID3D12Device *dev, ID3D12InfoQueue *iq)
{
    Draw d;
    d.dev = dev;
    if (!d.init()) return;
    const float forced[4][4] = {{0.5f, 0.5f, 0, 1}, {0, 0, 0, 0}, {0.5f, 1.5f, 0, 1}, {0, 0, 0, 0}};
    check_pixels(d.draw(1), forced, "ForcedSampleCount 1");
    const float normal[4][4] = {{0.25f, 0.25f, 0, 0.5f}, {0, 0, 0, 0}, {0.25f, 0.75f, 0, 0.5f}, {0, 0, 0, 0}};
    check_pixels(d.draw(0), normal, "ForcedSampleCount 0");

    // UAV-only rendering forces up to 8 samples at 11_0; 16 needs 11_1.
    CHECK_EQ(uav_only_invocations(dev, d, 0), 6u);
    CHECK_EQ(uav_only_invocations(dev, d, 1), 6u);
    CHECK_EQ(uav_only_invocations(dev, d, 4), 10u);
    {
        D3D12_GRAPHICS_PIPELINE_STATE_DESC u = d.pso(16);
        u.NumRenderTargets = 0;
        u.RTVFormats[0] = DXGI_FORMAT_UNKNOWN;
        u.SampleDesc = {0, 0};
        Com<ID3D12PipelineState> sixteen;
        CHECK_HR(dev->CreateGraphicsPipelineState(&u, IID_PPV_ARGS(&sixteen)), E_INVALIDARG);
        if (iq) CHECK_EQ(last_message_id(iq), (UINT64)D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT);
    }

    // With a depth-stencil format (depth off): invalid use of the forced sample count.
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = d.pso(1);
    pd.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    Com<ID3D12PipelineState> bad;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&bad)), E_INVALIDARG);
    if (iq) CHECK_EQ(last_message_id(iq), (UINT64)D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_USE_OF_FORCED_SAMPLE_COUNT);
    // Target-independent rasterization (4 with a single-sampled target) needs feature level 11_1.
    pd = d.pso(4);
    pd.SampleDesc.Count = 1;
    Com<ID3D12PipelineState> tir;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&tir)), E_INVALIDARG);
    if (iq) CHECK_EQ(last_message_id(iq), (UINT64)D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT);
}

int main()
{
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    {
        Com<ID3D12Debug> debug;
        CHECK_HR(D3D12GetDebugInterface(IID_PPV_ARGS(&debug)), S_OK);
        if (debug) debug->EnableDebugLayer();
    }
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        D3D12_FEATURE_DATA_FEATURE_LEVELS fl = {};
        D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_11_1};
        fl.NumFeatureLevels = 2;
        fl.pFeatureLevelsRequested = levels;
        CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof fl), S_OK);
        Com<ID3D12InfoQueue> iq;
        CHECK_HR(dev->QueryInterface(IID_PPV_ARGS(&iq)), S_OK);
        quality_levels_and_creation_agree(dev);
        // Part 3 is about a feature level 11_0 device; the CPU adapter reports 12_0, whose
        // ForcedSampleCount rules and target-independent rasterization conf_fl11_1.cpp checks.
        if (fl.MaxSupportedFeatureLevel == D3D_FEATURE_LEVEL_11_0) forced_sample_count(dev, iq);
        else {
            Draw d;
            d.dev = dev;
            if (d.init()) {
                const float forced[4][4] = {{0.5f, 0.5f, 0, 1}, {0, 0, 0, 0}, {0.5f, 1.5f, 0, 1}, {0, 0, 0, 0}};
                check_pixels(d.draw(1), forced, "ForcedSampleCount 1");
            }
        }
        if (iq) iq.p->Release(), iq.p = nullptr;
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("conf_msaa: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
