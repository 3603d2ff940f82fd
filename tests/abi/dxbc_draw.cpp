// tests/abi/dxbc_draw.cpp - a draw with a DXBC vertex and pixel shader (fxc's shader model 5.0
// bytecode) executed by the CPU backend, through the C ABI from C++.
//
// The shaders are tests/fixtures/dxbc/fullscreen.vs.dxbc and textured.ps.dxbc, assembled from
// the *.asm beside them by the shader crate's DXBC assembler. The vertex shader makes one
// triangle covering the viewport from SV_VertexID (no input layout, no vertex buffer) and a
// COLOR of (1, 0.5, 1, 1); the pixel shader returns texture(t0, SV_Position.xy / 16) * tint *
// COLOR with tint the root constants at b0, t0 a 2x2 RGBA8 texture (an SRV in a descriptor
// table) and s0 a static point/clamp sampler. Signatures are linked by semantic (VS OSGN ->
// PS ISGN), the pixel input COLOR declared `constant` (not interpolated).
//
// Checked pixel by pixel after a copy to a readback buffer:
//   1. the triangle: all 16x16 pixels of the RGBA8 target show the texel of their quadrant
//      times the tint times COLOR, rounded to bytes;
//   2. a geometry shader (tests/fixtures/dxbc/quad.gs.dxbc: point in, a four-vertex triangle
//      strip and a cut out, COLOR written before each emit) over two points from
//      points.vs.dxbc at (-0.5, 0.5) and (0.5, 0.5): two squares of 4x4 pixels, x in 2..6 and
//      10..14, y in 2..6, shaded as in 1.; every other pixel keeps the clear (0, 0, 0, 0);
//   3. an input layout (POSITION, R32G32_FLOAT, from a vertex buffer) read by layout.vs.dxbc's
//      v0.xy: a triangle strip over the left half, x < 8, shaded as in 1., the rest clear.
//   4. stream output from a DXBC geometry shader (so.gs.dxbc, gs_5_0 with an OSG5 signature
//      of two streams; each point becomes two points on stream 0, (x, y, z, w) and
//      (x, y - 1, z, w) with TEXCOORD (k, x)), nothing rasterized: the SO buffer's bytes and its
//      BufferFilledSize, see test_stream_output.
//   4b. both streams of so.gs.dxbc streamed out at once, each into its own buffer, with
//      stream 1's overflowing on its own, and SO_STATISTICS_STREAM0..2 queries, see
//      test_two_streams.
//   4c. RasterizedStream 1 of streams.gs.dxbc (SV_Position and COLOR on both streams, in
//      shared registers as fxc lays them out) drawn by color.ps.dxbc while stream 0 streams
//      out, see test_rasterized_stream.
//   5. a tessellated draw: tess.vs.dxbc, the hull shader tess.hs.dxbc (a quad patch of four
//      control points passed through, every factor 2), the domain shader tess.ds.dxbc and
//      color.ps.dxbc over one 4-control-point patch covering the target, see test_tessellation;
//      again with tess_join.hs.dxbc, whose join phase reads the fork phase's inside factors
//      through vpc to make the edge factors;
//   6. the rasterizer's sample count and positions read by a DXBC pixel shader (msinfo.ps.dxbc:
//      sampleinfo and samplepos of the rasterizer) on a 4x target, see test_sample_info.
//
// The last line is "dxbc_draw_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <cmath>
#include <string>
#include <vector>

static std::vector<char> dxbc(const char *name)
{
    return fixture((std::string("../dxbc/") + name).c_str());
}

struct Rgba {
    unsigned char c[4];
};

static const Rgba kTexels[4] = {{{255, 0, 0, 255}}, {{0, 255, 0, 255}}, {{0, 0, 255, 255}}, {{200, 100, 50, 128}}};

static D3D12_RESOURCE_BARRIER transition(ID3D12Resource *r, D3D12_RESOURCE_STATES a, D3D12_RESOURCE_STATES b)
{
    D3D12_RESOURCE_BARRIER t = {};
    t.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    t.Transition.pResource = r;
    t.Transition.StateBefore = a;
    t.Transition.StateAfter = b;
    t.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    return t;
}

/* Records a copy of subresource 0 of `tex` (w x h texels of `fmt`) into `readback` at offset 0,
 * rows `pitch` bytes apart. */
static void copy_to_footprint(ID3D12GraphicsCommandList *l, ID3D12Resource *readback, ID3D12Resource *tex, DXGI_FORMAT fmt,
                              UINT w, UINT h, UINT pitch)
{
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = {fmt, w, h, 1, pitch};
    src.pResource = tex;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
}

struct Gpu : GpuBase {
    ID3D12Resource *texture(UINT w, UINT h, D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES st)
    {
        D3D12_RESOURCE_DESC d = {};
        d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
        d.Width = w;
        d.Height = h;
        d.DepthOrArraySize = 1;
        d.MipLevels = 1;
        d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        d.SampleDesc.Count = 1;
        d.Flags = flags;
        D3D12_HEAP_PROPERTIES hp = {};
        hp.Type = D3D12_HEAP_TYPE_DEFAULT;
        ID3D12Resource *r = nullptr;
        CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, st, nullptr, IID_PPV_ARGS(&r)), S_OK);
        return r;
    }
};

// Draws `vertices` vertices of `topology` through VS `vs`, GS `gs` (or none) and the textured
// pixel shader; every pixel `covered` says must show its texel times the tint and COLOR, the
// others the clear.
static void test_draw(Gpu &g, const char *what, const char *vs_name, const char *gs_name,
                      D3D12_PRIMITIVE_TOPOLOGY_TYPE type, D3D12_PRIMITIVE_TOPOLOGY topology, UINT vertices,
                      bool (*covered)(int, int), const float (*positions)[2] = nullptr)
{
    set_ctx("%s", what);
    // Root signature: PS b0 four constants (the tint), PS t0 in a table, a static sampler s0.
    D3D12_DESCRIPTOR_RANGE1 srv = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 p[2] = {};
    p[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    p[0].Constants.ShaderRegister = 0;
    p[0].Constants.Num32BitValues = 4;
    p[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    p[1] = table(&srv, 1);
    p[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    D3D12_STATIC_SAMPLER_DESC ss = {};
    ss.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    ss.AddressU = ss.AddressV = ss.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    ss.MaxLOD = D3D12_FLOAT32_MAX;
    ss.ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
    rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    rd.Desc_1_1.NumParameters = 2;
    rd.Desc_1_1.pParameters = p;
    rd.Desc_1_1.NumStaticSamplers = 1;
    rd.Desc_1_1.pStaticSamplers = &ss;
    if (positions) rd.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    Com<ID3DBlob> blob, err;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
    if (!blob) return;
    Com<ID3D12RootSignature> rs;
    CHECK_HR(g.dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)), S_OK);

    std::vector<char> vs = dxbc(vs_name), ps = dxbc("textured.ps.dxbc");
    std::vector<char> gs = gs_name ? dxbc(gs_name) : std::vector<char>();
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = pso_desc(rs, type, DXGI_FORMAT_R8G8B8A8_UNORM);
    pd.VS = {vs.data(), vs.size()};
    pd.PS = {ps.data(), ps.size()};
    if (gs_name) pd.GS = {gs.data(), gs.size()};
    const D3D12_INPUT_ELEMENT_DESC layout = {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0,
                                             D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0};
    if (positions) pd.InputLayout = {&layout, 1};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;

    // The 2x2 texture, uploaded with CopyTextureRegion (rows 256-byte aligned).
    Com<ID3D12Resource> tex, upload, rt, readback;
    tex.p = g.texture(2, 2, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    upload.p = g.buffer(D3D12_HEAP_TYPE_UPLOAD, 512, D3D12_RESOURCE_STATE_GENERIC_READ);
    unsigned char *up = nullptr;
    CHECK_HR(upload->Map(0, nullptr, reinterpret_cast<void **>(&up)), S_OK);
    if (!up) return;
    memcpy(up, &kTexels[0], 8);
    memcpy(up + 256, &kTexels[2], 8);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = tex;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.pResource = upload;
    src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    src.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, 2, 2, 1, 256};
    g.list->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    D3D12_RESOURCE_BARRIER b = transition(tex, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    g.list->ResourceBarrier(1, &b);

    Com<ID3D12DescriptorHeap> srv_heap, rtv_heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&srv_heap)), S_OK);
    hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&rtv_heap)), S_OK);
    if (!srv_heap || !rtv_heap) return;
    g.dev->CreateShaderResourceView(tex, nullptr, srv_heap->GetCPUDescriptorHandleForHeapStart());
    rt.p = g.texture(16, 16, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = rtv_heap->GetCPUDescriptorHandleForHeapStart();
    g.dev->CreateRenderTargetView(rt, nullptr, rtv);
    readback.p = g.buffer(D3D12_HEAP_TYPE_READBACK, 16 * 256, D3D12_RESOURCE_STATE_COPY_DEST);

    ID3D12GraphicsCommandList *l = g.list;
    const float clear[4] = {0, 0, 0, 0};
    l->ClearRenderTargetView(rtv, clear, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
    ID3D12DescriptorHeap *heaps[] = {srv_heap};
    l->SetDescriptorHeaps(1, heaps);
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    const float tint[4] = {1.0f, 0.5f, 0.25f, 1.0f};
    l->SetGraphicsRoot32BitConstants(0, 4, tint, 0);
    l->SetGraphicsRootDescriptorTable(1, srv_heap->GetGPUDescriptorHandleForHeapStart());
    l->IASetPrimitiveTopology(topology);
    Com<ID3D12Resource> vb;
    if (positions) {
        vb.p = g.buffer(D3D12_HEAP_TYPE_UPLOAD, vertices * 8, D3D12_RESOURCE_STATE_GENERIC_READ);
        void *m = nullptr;
        CHECK_HR(vb->Map(0, nullptr, &m), S_OK);
        if (m) memcpy(m, positions, vertices * 8);
        D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), vertices * 8, 8};
        l->IASetVertexBuffers(0, 1, &vbv);
    }
    D3D12_VIEWPORT vp = {0, 0, 16, 16, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, 16, 16};
    l->RSSetScissorRects(1, &sc);
    l->DrawInstanced(vertices, 1, 0, 0);

    b = transition(rt, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    copy_to_footprint(l, readback, rt, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 256);
    g.run();
    const unsigned char *px = nullptr;
    CHECK_HR(readback->Map(0, nullptr, (void **)&px), S_OK);
    if (!px) return;
    const float color[4] = {1.0f, 0.5f, 1.0f, 1.0f};
    unsigned bad = 0;
    for (int y = 0; y < 16; y++) {
        for (int x = 0; x < 16; x++) {
            const Rgba &t = kTexels[(y >= 8) * 2 + (x >= 8)];
            for (int c = 0; c < 4; c++) {
                float v = t.c[c] / 255.0f * tint[c] * color[c];
                unsigned char want = covered(x, y) ? (unsigned char)(v * 255.0f + 0.5f) : 0;
                unsigned char got = px[y * 256 + x * 4 + c];
                if (got != want) {
                    if (bad < 4) printf("pixel (%d, %d) channel %d: got %u, expected %u\n", x, y, c, got, want);
                    bad++;
                }
            }
        }
    }
    CHECK_EQ(bad, 0u);
    if (covered(15, 15)) {
        // Worked by hand: the top-left texel (255, 0, 0, 255) times the tint and COLOR is
        // (255, 0, 0, 255); the bottom-right (200, 100, 50, 128) gives (200, 25, 13, 128).
        CHECK_EQ((unsigned)px[0], 255u);
        CHECK_EQ((unsigned)px[15 * 256 + 15 * 4 + 1], 25u);
        CHECK_EQ((unsigned)px[15 * 256 + 15 * 4 + 2], 13u);
        CHECK_EQ((unsigned)px[15 * 256 + 15 * 4 + 3], 128u);
    } else if (covered(2, 2) && covered(2, 8)) {
        // The left half: (7, 15) shows the bottom-left texel (0, 0, 255, 255) as (0, 0, 64,
        // 255); (8, 0) keeps the clear.
        CHECK_EQ((unsigned)px[15 * 256 + 7 * 4 + 2], 64u);
        CHECK_EQ((unsigned)px[8 * 4 + 3], 0u);
    } else {
        // The second square's pixel (10, 2): the top-right texel (0, 255, 0, 255) gives
        // (0, 64, 0, 255) (255 * 0.5 * 0.5 = 63.75); (6, 2) and (2, 6) are outside.
        CHECK_EQ((unsigned)px[2 * 256 + 10 * 4 + 1], 64u);
        CHECK_EQ((unsigned)px[2 * 256 + 10 * 4 + 3], 255u);
        CHECK_EQ((unsigned)px[2 * 256 + 6 * 4 + 3], 0u);
        CHECK_EQ((unsigned)px[6 * 256 + 2 * 4 + 3], 0u);
    }
}

// 4. Stream output from so.gs.dxbc. The declaration {SV_Position.xyzw, TEXCOORD.xy} of
// stream 0 into slot 0 (stride 24) is accepted; EXTRA, an output of stream 1 only, is refused
// on stream 0 (E_INVALIDARG) and accepted on stream 1: the streams come from OSG5.
// Draw(2) over points.vs.dxbc's points (-0.5, 0.5, 0.5, 1) and (0.5, 0.5, 0.5, 1), then Draw(1)
// (the first point again), into a view of 120 bytes (five 24-byte vertices) whose
// BufferFilledSize starts at 0: the GS emits six points, each a primitive of one vertex; the
// sixth does not fit and is not written, so the buffer holds, worked by hand,
//   (-0.5, 0.5, 0.5, 1, 0, -0.5) (-0.5, -0.5, 0.5, 1, 1, -0.5)
//   ( 0.5, 0.5, 0.5, 1, 0,  0.5) ( 0.5, -0.5, 0.5, 1, 1,  0.5)
//   (-0.5, 0.5, 0.5, 1, 0, -0.5)
// bytes 120..144 keep their zeros, and BufferFilledSize is 120.
static void test_stream_output(Gpu &g)
{
    set_ctx("stream output");
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(nullptr, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT);
    if (!rs) return;
    std::vector<char> vs = dxbc("points.vs.dxbc"), gs = dxbc("so.gs.dxbc");
    const D3D12_SO_DECLARATION_ENTRY decl[2] = {{0, "SV_Position", 0, 0, 4, 0}, {0, "TEXCOORD", 0, 0, 2, 0}};
    const UINT stride = 24;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = pso_desc(rs, D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT, DXGI_FORMAT_UNKNOWN);
    pd.VS = {vs.data(), vs.size()};
    pd.GS = {gs.data(), gs.size()};
    D3D12_SO_DECLARATION_ENTRY extra = {0, "EXTRA", 0, 0, 4, 0};
    const UINT extra_stride = 16;
    pd.StreamOutput = {&extra, 1, &extra_stride, 1, D3D12_SO_NO_RASTERIZED_STREAM};
    Com<ID3D12PipelineState> refused, stream1, pso;
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&refused)), E_INVALIDARG);
    extra.Stream = 1;
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&stream1)), S_OK);
    pd.StreamOutput = {decl, 2, &stride, 1, D3D12_SO_NO_RASTERIZED_STREAM};
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;

    Com<ID3D12Resource> so, readback;
    so.p = g.buffer(D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_STREAM_OUT);
    readback.p = g.buffer(D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!so || !readback) return;
    const D3D12_GPU_VIRTUAL_ADDRESS va = so->GetGPUVirtualAddress();
    ID3D12GraphicsCommandList *l = g.list;
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
    D3D12_VIEWPORT vp = {0, 0, 16, 16, 0, 1};
    l->RSSetViewports(1, &vp);
    // The filled size lives at byte 192, after the view's 120 bytes; the buffer was created
    // zeroed.
    const D3D12_STREAM_OUTPUT_BUFFER_VIEW view = {va, 120, va + 192};
    l->SOSetTargets(0, 1, &view);
    l->DrawInstanced(2, 1, 0, 0);
    l->DrawInstanced(1, 1, 0, 0);
    D3D12_RESOURCE_BARRIER b = transition(so, D3D12_RESOURCE_STATE_STREAM_OUT, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    l->CopyBufferRegion(readback, 0, so, 0, 256);
    g.run();
    const float *out = nullptr;
    CHECK_HR(readback->Map(0, nullptr, (void **)&out), S_OK);
    if (!out) return;
    const float want[36] = {-0.5f, 0.5f,  0.5f, 1, 0, -0.5f, -0.5f, -0.5f, 0.5f, 1, 1, -0.5f,
                            0.5f,  0.5f,  0.5f, 1, 0, 0.5f,  0.5f,  -0.5f, 0.5f, 1, 1, 0.5f,
                            -0.5f, 0.5f,  0.5f, 1, 0, -0.5f, 0,     0,     0,    0, 0, 0};
    unsigned bad = 0;
    for (int i = 0; i < 36; i++)
        if (out[i] != want[i] && bad++ < 4) printf("stream output: float %d is %g, expected %g\n", i, out[i], want[i]);
    CHECK_EQ(bad, 0u);
    uint32_t filled = 0;
    memcpy(&filled, reinterpret_cast<const char *>(out) + 192, 4);
    CHECK_EQ(filled, 120u);
}

// 4b. Both streams of so.gs.dxbc at once: stream 0's {SV_Position.xyzw, TEXCOORD.xy} into
// slot 0 (stride 24), stream 1's {EXTRA.xyzw} into slot 1 (stride 16), RasterizedStream
// D3D12_SO_NO_RASTERIZED_STREAM. (RasterizedStream 4 and a slot fed by both streams are refused.)
// One 512-byte buffer holds both views: slot 0 at bytes 0..144 (six vertices) with its
// BufferFilledSize at 400, slot 1 at 160..192 (two vertices) with its filled size at 404, all
// zero to begin with. Draw(3) over points.vs.dxbc's points x = -0.5, 0.5, 1.5 (y 0.5, z 0.5,
// w 1): per point the GS emits two points to stream 0, (x, 0.5, 0.5, 1 | 0, x) and
// (x, -0.5, 0.5, 1 | 1, x), and one to stream 1, (1, 2, 3, 4). Worked by hand:
//   slot 0: all six written, 144 bytes; bytes 144..160 stay 0; filled size 144;
//   slot 1: room for two of three, (1, 2, 3, 4) twice; the third is dropped; filled size 32;
//   SO_STATISTICS_STREAM0 {NumPrimitivesWritten 6, PrimitivesStorageNeeded 6},
//   SO_STATISTICS_STREAM1 {2, 3} (the overflow: needed > written), SO_STATISTICS_STREAM2 {0, 0}.
static void test_two_streams(Gpu &g)
{
    set_ctx("two streams");
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(nullptr, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT);
    if (!rs) return;
    std::vector<char> vs = dxbc("points.vs.dxbc"), gs = dxbc("so.gs.dxbc");
    D3D12_SO_DECLARATION_ENTRY decl[3] = {
        {0, "SV_Position", 0, 0, 4, 0}, {0, "TEXCOORD", 0, 0, 2, 0}, {1, "EXTRA", 0, 0, 4, 1}};
    const UINT strides[2] = {24, 16};
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = pso_desc(rs, D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT, DXGI_FORMAT_UNKNOWN);
    pd.VS = {vs.data(), vs.size()};
    pd.GS = {gs.data(), gs.size()};
    pd.StreamOutput = {decl, 3, strides, 2, 4};
    Com<ID3D12PipelineState> bad_stream, two_feeds, pso;
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&bad_stream)), E_INVALIDARG);
    pd.StreamOutput.RasterizedStream = D3D12_SO_NO_RASTERIZED_STREAM;
    decl[2].OutputSlot = 0;
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&two_feeds)), E_INVALIDARG);
    decl[2].OutputSlot = 1;
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;

    Com<ID3D12Resource> so, readback, results;
    Com<ID3D12QueryHeap> heap;
    D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_SO_STATISTICS, 3, 0};
    CHECK_HR(g.dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&heap)), S_OK);
    so.p = g.buffer(D3D12_HEAP_TYPE_DEFAULT, 512, D3D12_RESOURCE_STATE_STREAM_OUT);
    readback.p = g.buffer(D3D12_HEAP_TYPE_READBACK, 512, D3D12_RESOURCE_STATE_COPY_DEST);
    results.p = g.buffer(D3D12_HEAP_TYPE_READBACK, 3 * sizeof(D3D12_QUERY_DATA_SO_STATISTICS),
                         D3D12_RESOURCE_STATE_COPY_DEST);
    if (!so || !readback || !results || !heap) return;
    const D3D12_GPU_VIRTUAL_ADDRESS va = so->GetGPUVirtualAddress();
    ID3D12GraphicsCommandList *l = g.list;
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
    D3D12_VIEWPORT vp = {0, 0, 16, 16, 0, 1};
    l->RSSetViewports(1, &vp);
    const D3D12_STREAM_OUTPUT_BUFFER_VIEW views[2] = {{va, 144, va + 400}, {va + 160, 32, va + 404}};
    l->SOSetTargets(0, 2, views);
    const D3D12_QUERY_TYPE types[3] = {D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM1,
                                       D3D12_QUERY_TYPE_SO_STATISTICS_STREAM2};
    for (UINT i = 0; i < 3; i++) l->BeginQuery(heap, types[i], i);
    l->DrawInstanced(3, 1, 0, 0);
    for (UINT i = 0; i < 3; i++) {
        l->EndQuery(heap, types[i], i);
        l->ResolveQueryData(heap, types[i], i, 1, results, i * sizeof(D3D12_QUERY_DATA_SO_STATISTICS));
    }
    D3D12_RESOURCE_BARRIER b = transition(so, D3D12_RESOURCE_STATE_STREAM_OUT, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    l->CopyBufferRegion(readback, 0, so, 0, 512);
    g.run();
    const float *out = nullptr;
    const D3D12_QUERY_DATA_SO_STATISTICS *st = nullptr;
    CHECK_HR(readback->Map(0, nullptr, (void **)&out), S_OK);
    CHECK_HR(results->Map(0, nullptr, (void **)&st), S_OK);
    if (!out || !st) return;
    // Slot 0 (floats 0..36, then 4 untouched) and slot 1 (floats 40..48).
    float want[48] = {};
    const float xs[3] = {-0.5f, 0.5f, 1.5f};
    for (int k = 0; k < 3; k++) {
        const float v[12] = {xs[k], 0.5f, 0.5f, 1, 0, xs[k], xs[k], -0.5f, 0.5f, 1, 1, xs[k]};
        memcpy(want + 12 * k, v, sizeof v);
    }
    for (int i = 0; i < 8; i++) want[40 + i] = float(1 + i % 4);
    unsigned bad = 0;
    for (int i = 0; i < 48; i++)
        if (out[i] != want[i] && bad++ < 4) printf("two streams: float %d is %g, expected %g\n", i, out[i], want[i]);
    CHECK_EQ(bad, 0u);
    uint32_t filled[2] = {};
    memcpy(filled, reinterpret_cast<const char *>(out) + 400, 8);
    CHECK_EQ(filled[0], 144u);
    CHECK_EQ(filled[1], 32u);
    CHECK_EQ(st[0].NumPrimitivesWritten, 6ull);
    CHECK_EQ(st[0].PrimitivesStorageNeeded, 6ull);
    CHECK_EQ(st[1].NumPrimitivesWritten, 2ull);
    CHECK_EQ(st[1].PrimitivesStorageNeeded, 3ull);
    CHECK_EQ(st[2].NumPrimitivesWritten, 0ull);
    CHECK_EQ(st[2].PrimitivesStorageNeeded, 0ull);
}

// 4c. streams.gs.dxbc after points.vs.dxbc and before color.ps.dxbc, one input point, through a
// 4x4 viewport onto a 16x16 RGBA8 target cleared to 0: stream 0 has a red point at pixel
// (0, 0), stream 1 a green one at (3, 3) and a blue one at (2, 3). With RasterizedStream 1 only
// stream 1's two pixels are drawn, with stream 1's COLOR; stream 0's COLOR (1, 0, 0, 1) is
// streamed out to slot 0 (stride 16) meanwhile: 16 bytes, BufferFilledSize 16.
static void test_rasterized_stream(Gpu &g)
{
    set_ctx("rasterized stream");
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(nullptr, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT);
    if (!rs) return;
    std::vector<char> vs = dxbc("points.vs.dxbc"), gs = dxbc("streams.gs.dxbc"), ps = dxbc("color.ps.dxbc");
    const D3D12_SO_DECLARATION_ENTRY decl = {0, "COLOR", 0, 0, 4, 0};
    const UINT stride = 16;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = pso_desc(rs, D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT, DXGI_FORMAT_R8G8B8A8_UNORM);
    pd.VS = {vs.data(), vs.size()};
    pd.GS = {gs.data(), gs.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.StreamOutput = {&decl, 1, &stride, 1, 1};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;

    Com<ID3D12Resource> rt, so, readback;
    rt.p = g.texture(16, 16, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    so.p = g.buffer(D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_STREAM_OUT);
    readback.p = g.buffer(D3D12_HEAP_TYPE_READBACK, 16 * 256 + 256, D3D12_RESOURCE_STATE_COPY_DEST);
    Com<ID3D12DescriptorHeap> rtv_heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&rtv_heap)), S_OK);
    if (!rt || !so || !readback || !rtv_heap) return;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = rtv_heap->GetCPUDescriptorHandleForHeapStart();
    g.dev->CreateRenderTargetView(rt, nullptr, rtv);
    ID3D12GraphicsCommandList *l = g.list;
    const float clear[4] = {0, 0, 0, 0};
    l->ClearRenderTargetView(rtv, clear, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
    D3D12_VIEWPORT vp = {0, 0, 4, 4, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, 16, 16};
    l->RSSetScissorRects(1, &sc);
    const D3D12_GPU_VIRTUAL_ADDRESS va = so->GetGPUVirtualAddress();
    const D3D12_STREAM_OUTPUT_BUFFER_VIEW view = {va, 64, va + 128};
    l->SOSetTargets(0, 1, &view);
    l->DrawInstanced(1, 1, 0, 0);
    D3D12_RESOURCE_BARRIER b[2] = {
        transition(rt, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE),
        transition(so, D3D12_RESOURCE_STATE_STREAM_OUT, D3D12_RESOURCE_STATE_COPY_SOURCE)};
    l->ResourceBarrier(2, b);
    copy_to_footprint(l, readback, rt, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 256);
    l->CopyBufferRegion(readback, 16 * 256, so, 0, 256);
    g.run();
    const unsigned char *px = nullptr;
    CHECK_HR(readback->Map(0, nullptr, (void **)&px), S_OK);
    if (!px) return;
    unsigned wrong = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            unsigned char want[4] = {0, 0, 0, 0};
            if (y == 3 && x == 3) want[1] = want[3] = 255;
            if (y == 3 && x == 2) want[2] = want[3] = 255;
            const unsigned char *got = px + 256 * y + 4 * x;
            if (memcmp(got, want, 4) != 0 && wrong++ < 4)
                printf("rasterized stream: pixel (%d, %d) is (%d, %d, %d, %d), expected (%d, %d, %d, %d)\n", x, y,
                       got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
        }
    CHECK_EQ(wrong, 0u);
    float color[4] = {};
    uint32_t filled = 0;
    memcpy(color, px + 16 * 256, 16);
    memcpy(&filled, px + 16 * 256 + 128, 4);
    CHECK(color[0] == 1 && color[1] == 0 && color[2] == 0 && color[3] == 1);
    CHECK_EQ(filled, 16u);
}

// 5. A tessellated draw through DXBC hull and domain shaders. The patch's control points are
// the target's corners (-1, 1), (1, 1), (-1, -1), (1, -1); the domain shader places domain
// point (u, v) at (-1 + 2u, 1 - 2v) with COLOR (u, v, 0.5, 1), so the eight triangles of the
// 2x2 tessellation cover the 16x16 target and pixel (x, y) shows, interpolated exactly (the
// color is affine in the position), u = (x + 0.5) / 16, v = (y + 0.5) / 16 as UNORM bytes:
// (round(255u), round(255v), 128, 255); e.g. (0, 0) is (8, 8, 128, 255) and (15, 15) is
// (247, 247, 128, 255). The pipeline statistics count the stages' work (below). A hull
// shader with TRIANGLE topology is refused.
// With `uav`, the same draw through tess_uav.hs/ds.dxbc, which also count into a raw UAV
// (feature level 11_1's UAVs at every stage): the join phase adds 1 to word 0 once per patch,
// each domain point 1 to word 1; one patch of nine domain points leaves (1, 9).
// With `hs_name`, that hull shader instead of tess.hs.dxbc: tess_join.hs.dxbc makes the same
// factors in a fork phase (insides) and a join phase reading them through vpc (edges), so the
// same picture and counts show its vpc reads the fork phase's 2s (0s would make edge factors
// of 0, which cull the patch).
static void test_tessellation(Gpu &g, bool uav, const char *hs_name = nullptr)
{
    set_ctx("%s", uav ? "tessellation with hull and domain UAVs" : hs_name ? hs_name : "tessellation");
    Com<ID3D12RootSignature> rs;
    const D3D12_ROOT_PARAMETER1 counter = root_uav(0);
    rs.p = g.root_signature(uav ? &counter : nullptr, uav ? 1 : 0,
                            D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    if (!rs) return;
    std::vector<char> vs = dxbc("tess.vs.dxbc"), hs = dxbc(uav ? "tess_uav.hs.dxbc" : hs_name ? hs_name : "tess.hs.dxbc"),
                      ds = dxbc(uav ? "tess_uav.ds.dxbc" : "tess.ds.dxbc"), ps = dxbc("color.ps.dxbc");
    Com<ID3D12Resource> counts;
    counts.p = g.buffer(D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, true);
    if (!counts) return;
    const D3D12_INPUT_ELEMENT_DESC layout = {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0,
                                             D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0};
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = pso_desc(rs, D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE, DXGI_FORMAT_R8G8B8A8_UNORM);
    pd.VS = {vs.data(), vs.size()};
    pd.HS = {hs.data(), hs.size()};
    pd.DS = {ds.data(), ds.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.InputLayout = {&layout, 1};
    Com<ID3D12PipelineState> bad, pso;
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&bad)), E_INVALIDARG);
    pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH;
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;

    Com<ID3D12Resource> rt, vb, readback, results;
    Com<ID3D12QueryHeap> stats;
    D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    CHECK_HR(g.dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&stats)), S_OK);
    results.p = g.buffer(D3D12_HEAP_TYPE_READBACK, sizeof(D3D12_QUERY_DATA_PIPELINE_STATISTICS),
                         D3D12_RESOURCE_STATE_COPY_DEST);
    rt.p = g.texture(16, 16, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    const float corners[4][2] = {{-1, 1}, {1, 1}, {-1, -1}, {1, -1}};
    vb.p = g.buffer(D3D12_HEAP_TYPE_UPLOAD, sizeof corners, D3D12_RESOURCE_STATE_GENERIC_READ);
    readback.p = g.buffer(D3D12_HEAP_TYPE_READBACK, 16 * 256, D3D12_RESOURCE_STATE_COPY_DEST);
    Com<ID3D12DescriptorHeap> rtv_heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&rtv_heap)), S_OK);
    if (!rt || !vb || !readback || !rtv_heap || !stats || !results) return;
    void *m = nullptr;
    CHECK_HR(vb->Map(0, nullptr, &m), S_OK);
    if (!m) return;
    memcpy(m, corners, sizeof corners);
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = rtv_heap->GetCPUDescriptorHandleForHeapStart();
    g.dev->CreateRenderTargetView(rt, nullptr, rtv);

    ID3D12GraphicsCommandList *l = g.list;
    const float clear[4] = {0, 0, 0, 0};
    l->ClearRenderTargetView(rtv, clear, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    if (uav) l->SetGraphicsRootUnorderedAccessView(0, counts->GetGPUVirtualAddress());
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_4_CONTROL_POINT_PATCHLIST);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof corners, 8};
    l->IASetVertexBuffers(0, 1, &vbv);
    D3D12_VIEWPORT vp = {0, 0, 16, 16, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, 16, 16};
    l->RSSetScissorRects(1, &sc);
    l->BeginQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    l->DrawInstanced(4, 1, 0, 0);
    l->EndQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    l->ResolveQueryData(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, results, 0);
    D3D12_RESOURCE_BARRIER b = transition(rt, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    copy_to_footprint(l, readback, rt, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 256);
    g.run();
    const unsigned char *px = nullptr;
    CHECK_HR(readback->Map(0, nullptr, (void **)&px), S_OK);
    if (!px) return;
    unsigned wrong = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            const unsigned char want[4] = {(unsigned char)lrintf((x + 0.5f) / 16 * 255),
                                           (unsigned char)lrintf((y + 0.5f) / 16 * 255), 128, 255};
            const unsigned char *got = px + y * 256 + x * 4;
            if (memcmp(got, want, 4) != 0 && wrong++ < 4)
                printf("tessellation: pixel (%d, %d) is %u %u %u %u, expected %u %u 128 255\n", x, y, got[0], got[1],
                       got[2], got[3], want[0], want[1]);
        }
    CHECK_EQ(wrong, 0u);
    CHECK_EQ((unsigned)px[0], 8u);
    CHECK_EQ((unsigned)px[15 * 256 + 15 * 4 + 1], 247u);
    // One patch of four control points: four VS and one HS invocation; factors 2 make a 3x3
    // grid of domain points (nine DS invocations) and eight triangles, which shade each of
    // the 256 pixels once.
    D3D12_QUERY_DATA_PIPELINE_STATISTICS st = {};
    void *r = nullptr;
    CHECK_HR(results->Map(0, nullptr, &r), S_OK);
    if (!r) return;
    memcpy(&st, r, sizeof st);
    CHECK_EQ(st.IAVertices, 4u);
    CHECK_EQ(st.IAPrimitives, 1u);
    CHECK_EQ(st.VSInvocations, 4u);
    CHECK_EQ(st.HSInvocations, 1u);
    CHECK_EQ(st.DSInvocations, 9u);
    CHECK_EQ(st.CInvocations, 8u);
    CHECK_EQ(st.CPrimitives, 8u);
    CHECK_EQ(st.PSInvocations, 256u);
    if (!uav) return;
    Com<ID3D12Resource> words;
    words.p = g.buffer(D3D12_HEAP_TYPE_READBACK, 8, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!words) return;
    D3D12_RESOURCE_BARRIER cb =
        transition(counts, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    g.list->ResourceBarrier(1, &cb);
    g.list->CopyBufferRegion(words, 0, counts, 0, 8);
    g.run();
    uint32_t *w = nullptr;
    CHECK_HR(words->Map(0, nullptr, (void **)&w), S_OK);
    if (!w) return;
    CHECK_EQ(w[0], 1u);
    CHECK_EQ(w[1], 9u);
}

// 6. msinfo.ps.dxbc over fullscreen.vs.dxbc's triangle on a 2x2 R32G32B32A32_FLOAT target of
// 4 samples, resolved: every pixel shows (4, -0.125, -0.375, 0.375), the count and, from the
// D3D11.3 standard 4-sample pattern (-2, -6), (6, -2), (-6, 2), (2, 6) in 1/16 pixel, sample
// 0's x and y and sample 3's y (the shader runs once per pixel, so all samples hold the same
// value and the resolve's average is exact).
static void test_sample_info(Gpu &g)
{
    set_ctx("sample info");
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(nullptr, 0);
    if (!rs) return;
    std::vector<char> vs = dxbc("fullscreen.vs.dxbc"), ps = dxbc("msinfo.ps.dxbc");
    const DXGI_FORMAT fmt = DXGI_FORMAT_R32G32B32A32_FLOAT;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = pso_desc(rs, D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE, fmt);
    pd.VS = {vs.data(), vs.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.RasterizerState.MultisampleEnable = TRUE;
    pd.SampleDesc.Count = 4;
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = 2;
    d.Height = 2;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = fmt;
    d.SampleDesc.Count = 4;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    D3D12_HEAP_PROPERTIES hp = {};
    hp.Type = D3D12_HEAP_TYPE_DEFAULT;
    Com<ID3D12Resource> ms, resolved, readback;
    CHECK_HR(g.dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_RENDER_TARGET, nullptr,
                                            IID_PPV_ARGS(&ms)),
             S_OK);
    d.SampleDesc.Count = 1;
    d.Flags = D3D12_RESOURCE_FLAG_NONE;
    CHECK_HR(g.dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_RESOLVE_DEST, nullptr,
                                            IID_PPV_ARGS(&resolved)),
             S_OK);
    readback.p = g.buffer(D3D12_HEAP_TYPE_READBACK, 512, D3D12_RESOURCE_STATE_COPY_DEST);
    Com<ID3D12DescriptorHeap> heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    if (!ms || !resolved || !readback || !heap) return;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = heap->GetCPUDescriptorHandleForHeapStart();
    g.dev->CreateRenderTargetView(ms, nullptr, rtv);
    ID3D12GraphicsCommandList *l = g.list;
    const float zero[4] = {};
    l->ClearRenderTargetView(rtv, zero, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
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
    copy_to_footprint(l, readback, resolved, fmt, 2, 2, 256);
    g.run();
    const char *p = nullptr;
    CHECK_HR(readback->Map(0, nullptr, (void **)&p), S_OK);
    if (!p) return;
    const float want[4] = {4.0f, -0.125f, -0.375f, 0.375f};
    unsigned bad = 0;
    for (int i = 0; i < 4; i++) {
        float got[4];
        memcpy(got, p + (i / 2) * 256 + (i % 2) * 16, 16);
        for (int c = 0; c < 4; c++)
            if (got[c] != want[c] && bad++ < 4)
                printf("sample info: pixel %d channel %d is %g, expected %g\n", i, c, got[c], want[c]);
    }
    CHECK_EQ(bad, 0u);
}

static bool everywhere(int, int)
{
    return true;
}

static bool left_half(int x, int)
{
    return x < 8;
}

static bool two_squares(int x, int y)
{
    return y >= 2 && y < 6 && ((x >= 2 && x < 6) || (x >= 10 && x < 14));
}

int main()
{
    {
        Com<ID3D12Debug> debug;
        CHECK_HR(D3D12GetDebugInterface(IID_PPV_ARGS(&debug)), S_OK);
        if (debug) debug->EnableDebugLayer();
    }
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        {
            Gpu g;
            g.init(dev);
            test_draw(g, "triangle", "fullscreen.vs.dxbc", nullptr, D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE,
                      D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST, 3, everywhere);
            test_draw(g, "geometry shader", "points.vs.dxbc", "quad.gs.dxbc", D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT,
                      D3D_PRIMITIVE_TOPOLOGY_POINTLIST, 2, two_squares);
            const float strip[4][2] = {{-1, 1}, {0, 1}, {-1, -1}, {0, -1}};
            test_draw(g, "input layout", "layout.vs.dxbc", nullptr, D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE,
                      D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP, 4, left_half, strip);
            test_stream_output(g);
            test_two_streams(g);
            test_rasterized_stream(g);
            test_tessellation(g, false);
            test_tessellation(g, true);
            test_tessellation(g, false, "tess_join.hs.dxbc");
            test_sample_info(g);
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("dxbc_draw_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
