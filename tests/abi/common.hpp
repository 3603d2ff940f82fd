/* tests/abi/common.hpp - what the C++ ABI tests share besides check.h: a minimal owning COM
 * pointer and the DXIL fixtures of tests/fixtures/dxil (read relative to this
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

#endif
