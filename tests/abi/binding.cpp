// tests/abi/binding.cpp - descriptors, root signatures, pipeline states and command signatures of
// libd3d12.so from C++ (method syntax, IID_PPV_ARGS, by-value handle starts). The C tests
// (descriptors.c, root_signature.c, pipeline.c) hold the full rule matrices; this one checks
// that the same objects work the way C++ code uses them:
//   1. descriptor heaps: handle starts by value, the increment, a typed SRV copied with
//      CopyDescriptorsSimple and CopyDescriptors (records byte-identical), a NULL-desc SRV;
//   2. root signatures: D3D12SerializeVersionedRootSignature at 1.0 and 1.1, the blobs
//      deserialized (GetRootSignatureDescAtVersion converting 1.1 -> 1.0 and back), an
//      invalid desc refused with E_INVALIDARG and a text error blob, CreateRootSignature;
//   3. a compute pipeline from a cs_5_0 DXBC container, its cached blob reloaded;
//   4. a dispatch command signature with root constants, and one refused without its root
//      signature.
//
// Build and run (see tests/abi/README.md):
//   g++ -std=c++17 -Wall -Werror -I/usr/include/directx -I/usr/include/wsl/stubs
//       -I/usr/include/wsl -I/usr/include tests/abi/binding.cpp -o $OUT/binding_cpp
//       -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
//
// The last line is "binding_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

static unsigned g_passed, g_failed;

static void check(const char *file, int line, const char *what, bool ok)
{
    if (ok) {
        g_passed++;
        return;
    }
    g_failed++;
    std::printf("%s:%d: %s: got false, expected true\n", file, line, what);
}
#define CHECK(cond) check(__FILE__, __LINE__, #cond, !!(cond))

// Releases on scope exit.
template <class T> struct Com {
    T *p = nullptr;
    ~Com()
    {
        if (p)
            p->Release();
    }
    T *operator->() const { return p; }
    T **operator&() { return &p; }
    explicit operator bool() const { return p != nullptr; }
};

// The cs_5_0 kernel of pipeline.c ("[numthreads(1,1,1)] void main() {}"), FXC's bytes.
static const uint32_t cs_dxbc[] = {
    0x43425844, 0x1acc3ad0, 0x71c7b057, 0xc72c4306, 0xf432cb57, 0x00000001, 0x00000074, 0x00000003,
    0x0000002c, 0x0000003c, 0x0000004c, 0x4e475349, 0x00000008, 0x00000000, 0x00000008, 0x4e47534f,
    0x00000008, 0x00000000, 0x00000008, 0x58454853, 0x00000020, 0x00050050, 0x00000008, 0x0100086a,
    0x0400009b, 0x00000001, 0x00000001, 0x00000001, 0x0100003e,
};

static void test_descriptors(ID3D12Device *dev)
{
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    Com<ID3D12DescriptorHeap> cpu, gpu;
    CHECK(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&cpu)) == S_OK);
    hd.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
    CHECK(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&gpu)) == S_OK);
    if (!cpu || !gpu)
        return;
    UINT inc = dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK(inc > 0);
    D3D12_CPU_DESCRIPTOR_HANDLE c0 = cpu->GetCPUDescriptorHandleForHeapStart();
    CHECK(cpu->GetGPUDescriptorHandleForHeapStart().ptr == 0); // not shader-visible
    CHECK(gpu->GetGPUDescriptorHandleForHeapStart().ptr != 0);

    D3D12_RESOURCE_DESC td = {};
    td.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    td.Width = 16;
    td.Height = 16;
    td.DepthOrArraySize = 1;
    td.MipLevels = 1;
    td.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    td.SampleDesc.Count = 1;
    D3D12_HEAP_PROPERTIES hp = {};
    hp.Type = D3D12_HEAP_TYPE_DEFAULT;
    Com<ID3D12Resource> tex;
    CHECK(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &td, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                       IID_PPV_ARGS(&tex)) == S_OK);
    if (!tex)
        return;
    dev->CreateShaderResourceView(tex.p, nullptr, c0);
    D3D12_CPU_DESCRIPTOR_HANDLE c1 = {c0.ptr + inc}, c2 = {c0.ptr + 2 * inc};
    D3D12_SHADER_RESOURCE_VIEW_DESC sd = {};
    sd.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
    sd.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    sd.Texture2D.MipLevels = 1;
    dev->CreateShaderResourceView(tex.p, &sd, c1);
    // The NULL desc stands for exactly this explicit desc.
    CHECK(std::memcmp(reinterpret_cast<void *>(c0.ptr), reinterpret_cast<void *>(c1.ptr), inc) == 0);
    D3D12_CPU_DESCRIPTOR_HANDLE g0 = gpu->GetCPUDescriptorHandleForHeapStart();
    dev->CopyDescriptorsSimple(2, g0, c0, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK(std::memcmp(reinterpret_cast<void *>(g0.ptr), reinterpret_cast<void *>(c0.ptr), 2 * inc) == 0);
    // CopyDescriptors: one source range of 2 into two destination ranges of 1.
    UINT one[2] = {1, 1}, two = 2;
    D3D12_CPU_DESCRIPTOR_HANDLE dst[2] = {c2, {c0.ptr + 3 * inc}};
    dev->CopyDescriptors(2, dst, one, 1, &c0, &two, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK(std::memcmp(reinterpret_cast<void *>(c2.ptr), reinterpret_cast<void *>(c0.ptr), 2 * inc) == 0);
}

static void serialize(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC &d, Com<ID3DBlob> &blob, HRESULT want)
{
    Com<ID3DBlob> err;
    HRESULT hr = D3D12SerializeVersionedRootSignature(&d, &blob, &err);
    CHECK(hr == want);
    if (FAILED(want)) {
        CHECK(err && err->GetBufferSize() > 1);
        CHECK(err && static_cast<const char *>(err->GetBufferPointer())[err->GetBufferSize() - 1] == 0);
    }
}

static void test_root_signatures(ID3D12Device *dev, Com<ID3D12RootSignature> &rs)
{
    D3D12_DESCRIPTOR_RANGE1 range = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 2, 0, 0,
                                     D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC, 0};
    D3D12_ROOT_PARAMETER1 p[2] = {};
    p[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    p[0].Constants.Num32BitValues = 4;
    p[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    p[1].DescriptorTable.NumDescriptorRanges = 1;
    p[1].DescriptorTable.pDescriptorRanges = &range;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC v11 = {};
    v11.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    v11.Desc_1_1.NumParameters = 2;
    v11.Desc_1_1.pParameters = p;
    Com<ID3DBlob> blob11;
    serialize(v11, blob11, S_OK);
    if (!blob11)
        return;
    // Deserialize and convert to 1.0: the range loses its flags, keeps the rest.
    Com<ID3D12VersionedRootSignatureDeserializer> des;
    CHECK(D3D12CreateVersionedRootSignatureDeserializer(blob11->GetBufferPointer(), blob11->GetBufferSize(),
                                                         IID_PPV_ARGS(&des)) == S_OK);
    if (des) {
        const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *d10 = nullptr;
        CHECK(des->GetRootSignatureDescAtVersion(D3D_ROOT_SIGNATURE_VERSION_1_0, &d10) == S_OK && d10);
        if (d10) {
            CHECK(d10->Version == D3D_ROOT_SIGNATURE_VERSION_1_0);
            CHECK(d10->Desc_1_0.NumParameters == 2);
            CHECK(d10->Desc_1_0.pParameters[0].Constants.Num32BitValues == 4);
            CHECK(d10->Desc_1_0.pParameters[1].DescriptorTable.pDescriptorRanges[0].NumDescriptors == 2);
            // And back: 1.0 re-serialized is a valid blob.
            Com<ID3DBlob> blob10;
            serialize(*d10, blob10, S_OK);
            CHECK(blob10 && blob10->GetBufferSize() < blob11->GetBufferSize()); // 1.0 ranges are 4 bytes shorter
        }
        const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *same = des->GetUnconvertedRootSignatureDesc();
        CHECK(same && same->Version == D3D_ROOT_SIGNATURE_VERSION_1_1 &&
              same->Desc_1_1.pParameters[1].DescriptorTable.pDescriptorRanges[0].Flags ==
                  D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC);
    }
    CHECK(dev->CreateRootSignature(0, blob11->GetBufferPointer(), blob11->GetBufferSize(), IID_PPV_ARGS(&rs)) ==
          S_OK);
    // 65 DWORDs of root constants: over the 64-DWORD limit.
    p[0].Constants.Num32BitValues = 65;
    Com<ID3DBlob> bad;
    serialize(v11, bad, E_INVALIDARG);
    CHECK(!bad);
}

static void test_pipeline_and_signature(ID3D12Device *dev, ID3D12RootSignature *rs)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC cd = {};
    cd.pRootSignature = rs;
    cd.CS = {cs_dxbc, sizeof(cs_dxbc)};
    Com<ID3D12PipelineState> pso;
    CHECK(dev->CreateComputePipelineState(&cd, IID_PPV_ARGS(&pso)) == S_OK);
    if (pso) {
        Com<ID3DBlob> cached;
        CHECK(pso->GetCachedBlob(&cached) == S_OK && cached && cached->GetBufferSize() > 0);
        if (cached) {
            cd.CachedPSO = {cached->GetBufferPointer(), cached->GetBufferSize()};
            Com<ID3D12PipelineState> again;
            CHECK(dev->CreateComputePipelineState(&cd, IID_PPV_ARGS(&again)) == S_OK);
        }
    }
    // Dispatch with 2 root constants into parameter 0: stride 4 × 2 + 12 = 20.
    D3D12_INDIRECT_ARGUMENT_DESC args[2] = {};
    args[0].Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT;
    args[0].Constant.RootParameterIndex = 0;
    args[0].Constant.Num32BitValuesToSet = 2;
    args[1].Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
    D3D12_COMMAND_SIGNATURE_DESC sd = {20, 2, args, 0};
    Com<ID3D12CommandSignature> sig, none;
    CHECK(dev->CreateCommandSignature(&sd, rs, IID_PPV_ARGS(&sig)) == S_OK);
    CHECK(dev->CreateCommandSignature(&sd, nullptr, IID_PPV_ARGS(&none)) == E_INVALIDARG);
    CHECK(!none);
}

int main()
{
    Com<ID3D12Device> dev;
    CHECK(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)) == S_OK);
    if (dev) {
        test_descriptors(dev.p);
        Com<ID3D12RootSignature> rs;
        test_root_signatures(dev.p, rs);
        if (rs)
            test_pipeline_and_signature(dev.p, rs.p);
    }
    std::printf("binding_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
