#include "assets/image_checks.h"

#include <array>
#include <cstring>

namespace sieve::assets {
namespace {

constexpr uint8_t kMarker = 0xFF, kSoi = 0xD8, kEoi = 0xD9, kDht = 0xC4;

bool isRestartOrStuffing(uint8_t m) {
    return m == 0x00 || m == 0x01 || (m >= 0xD0 && m <= 0xD7);
}

// stb_image reads 0 past the end of the data.
uint8_t byteAt(std::span<const uint8_t> d, uint64_t i) {
    return i < d.size() ? d[i] : 0;
}

// The tables of the DHT segment whose length field starts at `at`.
std::string checkDht(std::span<const uint8_t> d, uint64_t at) {
    int64_t left = int64_t((uint32_t(byteAt(d, at)) << 8) | byteAt(d, at + 1)) - 2;
    uint64_t p = at + 2;
    while (left > 0 && p < d.size()) {
        uint32_t codes = 0;
        for (uint64_t i = 0; i < 16; ++i) codes += byteAt(d, p + 1 + i);
        if (codes > 256)
            return "corrupt JPEG: a Huffman table defines " + std::to_string(codes) + " codes (at most 256)";
        p += 17 + codes;
        left -= 17 + int64_t(codes);
    }
    return {};
}

}  // namespace

std::string checkJpegHuffmanTables(std::span<const uint8_t> d) {
    if (d.size() < 2 || d[0] != kMarker || d[1] != kSoi) return {};
    uint64_t p = 2;
    while (p < d.size()) {
        if (d[p] != kMarker) {
            ++p;  // junk or entropy-coded data
            continue;
        }
        while (p < d.size() && d[p] == kMarker) ++p;  // fill bytes
        if (p >= d.size()) break;
        const uint8_t m = d[p++];
        if (isRestartOrStuffing(m)) continue;
        if (m == kEoi) break;
        if (m == kDht)
            if (std::string e = checkDht(d, p); !e.empty()) return e;
        const uint64_t length = (uint32_t(byteAt(d, p)) << 8) | byteAt(d, p + 1);
        if (length < 2) break;  // stb_image stops at such a segment
        p += length;
    }
    return {};
}

std::string checkPngChunks(std::span<const uint8_t> d) {
    constexpr std::array<uint8_t, 8> kSignature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (d.size() < kSignature.size() || std::memcmp(d.data(), kSignature.data(), kSignature.size()) != 0) return {};
    uint64_t p = kSignature.size();
    while (p + 8 <= d.size()) {  // length and type; stb_image fails on a truncated header by itself
        const uint64_t length =
            (uint64_t(d[p]) << 24) | (uint64_t(d[p + 1]) << 16) | (uint64_t(d[p + 2]) << 8) | d[p + 3];
        const std::string type(reinterpret_cast<const char*>(&d[p + 4]), 4);
        const uint64_t left = d.size() - (p + 8);
        if (length > left)
            return "corrupt PNG: the chunk at byte " + std::to_string(p) + " claims " + std::to_string(length) +
                   " bytes, " + std::to_string(left) + " are left";
        if (type == "IEND") break;
        p += 8 + length + 4;  // and the CRC
    }
    return {};
}

}  // namespace sieve::assets
