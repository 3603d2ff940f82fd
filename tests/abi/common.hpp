/* tests/abi/common.hpp - what the C++ ABI tests share besides check.h: a minimal owning COM
 * pointer, a queue with its list and fence (GpuBase), and the DXIL fixtures of tests/fixtures/dxil (read relative to this
 * header, so the tests run from any directory). Include it after check.h. Not a test program
 * itself: xtask builds every C++ file of tests/abi, not headers. */
#ifndef RD3D12_TESTS_ABI_COMMON_HPP
#define RD3D12_TESTS_ABI_COMMON_HPP

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

/* Releases its interface when it goes out of scope; `&c` is the out-pointer for creation. */
template <class T> struct Com {
    T *p = nullptr;
    Com() = default;
    Com(const Com &) = delete;
    Com &operator=(const Com &) = delete;
    ~Com() { if (p) p->Release(); }
    T *operator->() const { return p; }
    T **operator&() { return &p; }
    operator T *() const { return p; }
};

/* The bytes of fixture `name`; a missing or truncated file fails a check. */
static std::vector<char> fixture(const char *name)
{
    std::string dir = __FILE__;
    dir = dir.substr(0, dir.find_last_of('/'));
    std::ifstream f(dir + "/../../tests/fixtures/dxil/" + name, std::ios::binary);
    std::vector<char> v(std::istreambuf_iterator<char>(f), {});
    CHECK(v.size() > 100);
    return v;
}

/* One queue, allocator, list and fence on a device, and committed buffers: what most tests
 * that record and execute work start from. A test's own `struct Gpu : GpuBase` adds the rest. */
struct GpuBase {
    ID3D12Device *dev = nullptr;
    Com<ID3D12CommandQueue> queue;
    Com<ID3D12CommandAllocator> alloc;
    Com<ID3D12GraphicsCommandList> list;
    Com<ID3D12Fence> fence;
    UINT64 value = 0;

    void init(ID3D12Device *d, D3D12_COMMAND_LIST_TYPE type = D3D12_COMMAND_LIST_TYPE_DIRECT)
    {
        dev = d;
        D3D12_COMMAND_QUEUE_DESC qd = {};
        qd.Type = type;
        CHECK_HR(dev->CreateCommandQueue(&qd, IID_PPV_ARGS(&queue)), S_OK);
        CHECK_HR(dev->CreateCommandAllocator(type, IID_PPV_ARGS(&alloc)), S_OK);
        CHECK_HR(dev->CreateCommandList(0, type, alloc, nullptr, IID_PPV_ARGS(&list)), S_OK);
        CHECK_HR(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence)), S_OK);
    }

    /* Closes the list, executes it, waits for it, and resets allocator and list. */
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

    /* A committed buffer of `size` bytes on a heap of type `t`, in state `st`. */
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
        D3D12_HEAP_PROPERTIES h = {};
        h.Type = t;
        ID3D12Resource *r = nullptr;
        CHECK_HR(dev->CreateCommittedResource(&h, D3D12_HEAP_FLAG_NONE, &d, st, nullptr, IID_PPV_ARGS(&r)), S_OK);
        return r;
    }

    ID3D12RootSignature *root_signature(const D3D12_ROOT_PARAMETER1 *p, UINT n,
                                        D3D12_ROOT_SIGNATURE_FLAGS flags = D3D12_ROOT_SIGNATURE_FLAG_NONE)
    {
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
        rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
        rd.Desc_1_1.NumParameters = n;
        rd.Desc_1_1.pParameters = p;
        rd.Desc_1_1.Flags = flags;
        Com<ID3DBlob> blob, err;
        CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
        ID3D12RootSignature *rs = nullptr;
        if (blob)
            CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)),
                     S_OK);
        return rs;
    }
};

/* A graphics pipeline desc with the state most draws of the tests share: solid fill, no culling,
 * depth clip on, every sample and color channel written, one sample; one render target of
 * `rtv` unless it is DXGI_FORMAT_UNKNOWN. The caller adds its shaders and the rest. */
static inline D3D12_GRAPHICS_PIPELINE_STATE_DESC pso_desc(ID3D12RootSignature *rs, D3D12_PRIMITIVE_TOPOLOGY_TYPE type,
                                                          DXGI_FORMAT rtv)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = {};
    pd.pRootSignature = rs;
    pd.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    pd.SampleMask = 0xFFFFFFFF;
    pd.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    pd.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    pd.RasterizerState.DepthClipEnable = TRUE;
    pd.PrimitiveTopologyType = type;
    pd.NumRenderTargets = rtv == DXGI_FORMAT_UNKNOWN ? 0 : 1;
    pd.RTVFormats[0] = rtv;
    pd.SampleDesc.Count = 1;
    return pd;
}

/* A root UAV at register `reg`, visible to every stage. */
static inline D3D12_ROOT_PARAMETER1 root_uav(UINT reg)
{
    D3D12_ROOT_PARAMETER1 p = {};
    p.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    p.Descriptor.ShaderRegister = reg;
    p.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    return p;
}

/* A descriptor table of `n` ranges, visible to every stage. */
static inline D3D12_ROOT_PARAMETER1 table(const D3D12_DESCRIPTOR_RANGE1 *r, UINT n)
{
    D3D12_ROOT_PARAMETER1 p = {};
    p.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    p.DescriptorTable.NumDescriptorRanges = n;
    p.DescriptorTable.pDescriptorRanges = r;
    p.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    return p;
}

// A raw UAV view of a whole buffer of `words` 32-bit words.
static inline void raw_uav(ID3D12Device *dev, ID3D12Resource *b, UINT words, D3D12_CPU_DESCRIPTOR_HANDLE h)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC u = {};
    u.Format = DXGI_FORMAT_R32_TYPELESS;
    u.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    u.Buffer.NumElements = words;
    u.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    dev->CreateUnorderedAccessView(b, nullptr, &u, h);
}

#endif
