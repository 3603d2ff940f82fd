// tests/abi/debug.cpp - the debug layer of libd3d12.so from C++: D3D12GetDebugInterface with
// IID_PPV_ARGS, EnableDebugLayer before D3D12CreateDevice, the device's ID3D12InfoQueue1
// (sharing the device's reference count), a message callback with a C++ context object, and the
// #721 seed message read back with GetMessage's two-call protocol. Expected behaviour:
// shared/spec/debug-layer.md; debug.c covers the full matrix.
//
// Build and run (see tests/abi/README.md):
//   g++ -std=c++17 -Wall -Werror -I/usr/include/directx -I/usr/include/wsl/stubs
//       -I/usr/include/wsl -I/usr/include tests/abi/debug.cpp -o $OUT/debug_cpp
//       -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
//
// The last line is "debug_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

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

// A C++ object as the callback context: the messages it was told about.
struct Recorder {
    std::vector<std::string> texts;
    std::vector<D3D12_MESSAGE_ID> ids;
    static void on_message(D3D12_MESSAGE_CATEGORY, D3D12_MESSAGE_SEVERITY, D3D12_MESSAGE_ID id, LPCSTR text,
                           void *self)
    {
        auto *r = static_cast<Recorder *>(self);
        r->ids.push_back(id);
        r->texts.emplace_back(text ? text : "");
    }
};

int main()
{
    ID3D12Debug *dbg = nullptr;
    CHECK(D3D12GetDebugInterface(IID_PPV_ARGS(&dbg)) == S_OK && dbg);
    if (!dbg)
        return 1;
    dbg->EnableDebugLayer();
    CHECK(dbg->Release() == 0);

    ID3D12Device *dev = nullptr;
    CHECK(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)) == S_OK && dev);
    if (!dev)
        return 1;
    ID3D12InfoQueue1 *iq = nullptr;
    CHECK(dev->QueryInterface(IID_PPV_ARGS(&iq)) == S_OK && iq);
    if (iq) {
        // One identity: the info queue counts the device's references and answers its IIDs.
        CHECK(iq->AddRef() == 3);
        CHECK(iq->Release() == 2);
        ID3D12Device *again = nullptr;
        CHECK(iq->QueryInterface(IID_PPV_ARGS(&again)) == S_OK && again == dev);
        if (again)
            again->Release();

        // The device started with the layer's startup options (an INFO message).
        CHECK(iq->GetNumStoredMessages() == 1);
        SIZE_T first_len = 0;
        CHECK(iq->GetMessage(0, nullptr, &first_len) == S_OK);
        std::vector<unsigned char> first(first_len);
        auto *fm = reinterpret_cast<D3D12_MESSAGE *>(first.data());
        CHECK(iq->GetMessage(0, fm, &first_len) == S_OK);
        CHECK(fm->ID == D3D12_MESSAGE_ID_CREATEDEVICE_DEBUG_LAYER_STARTUP_OPTIONS);
        CHECK(fm->Severity == D3D12_MESSAGE_SEVERITY_INFO);
        CHECK(std::strstr(fm->pDescription, "Synchronized Command Queue Validation: ") != nullptr);
        iq->ClearStoredMessages();

        iq->SetMuteDebugOutput(TRUE);
        Recorder rec;
        DWORD cookie = 0;
        CHECK(iq->RegisterMessageCallback(&Recorder::on_message, D3D12_MESSAGE_CALLBACK_FLAG_NONE, &rec, &cookie) ==
              S_OK);
        CHECK(cookie != 0);

        // Seed #721: 4 KB alignment for a 256x256 RGBA8 texture (64 tiles of 4 KB > 16).
        D3D12_RESOURCE_DESC d = {};
        d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
        d.Alignment = 4096;
        d.Width = 256;
        d.Height = 256;
        d.DepthOrArraySize = 1;
        d.MipLevels = 1;
        d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        d.SampleDesc.Count = 1;
        D3D12_HEAP_PROPERTIES hp = {};
        hp.Type = D3D12_HEAP_TYPE_DEFAULT;
        ID3D12Resource *r = nullptr;
        CHECK(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                           IID_PPV_ARGS(&r)) == E_INVALIDARG);
        CHECK(r == nullptr);
        CHECK(rec.ids.size() == 1 && rec.ids[0] == D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT);
        CHECK(rec.texts.size() == 1 && rec.texts[0].find("ID3D12Device::CreateCommittedResource: ") == 0);

        UINT64 n = iq->GetNumStoredMessages();
        CHECK(n == 1);
        SIZE_T len = 0;
        CHECK(iq->GetMessage(n - 1, nullptr, &len) == S_OK);
        std::vector<unsigned char> buf(len);
        auto *m = reinterpret_cast<D3D12_MESSAGE *>(buf.data());
        CHECK(iq->GetMessage(n - 1, m, &len) == S_OK);
        CHECK(m->ID == D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT);
        CHECK(m->Category == D3D12_MESSAGE_CATEGORY_STATE_CREATION);
        CHECK(m->Severity == D3D12_MESSAGE_SEVERITY_ERROR);
        CHECK(std::strstr(m->pDescription, "the number of tiles needed is 64, while 16 tiles is the maximum") != nullptr);
        CHECK(m->DescriptionByteLength == std::strlen(m->pDescription) + 1);

        CHECK(iq->UnregisterMessageCallback(cookie) == S_OK);
        CHECK(iq->UnregisterMessageCallback(cookie) == E_INVALIDARG);
        CHECK(iq->Release() == 1);
    }
    CHECK(dev->Release() == 0);
    std::printf("debug_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
