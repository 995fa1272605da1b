#pragma once
// Stable stream compaction: for every item i with flags[i] != 0 (in item order), a record is written at
// slot offsets[i], where offsets is the exclusive scan of (flags != 0). The number of records goes to a
// GPU word (count); at most `capacity` records are written, nothing past them, the count is clamped
// and an overflow word says how many were dropped. Records are either u32 (payload[i], or the item
// index) or VkDrawIndexedIndirectCommand copied from a per-item template with firstInstance = i, ready
// for vkCmdDrawIndexedIndirectCount(records, count).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

#include "sieve/gpu.h"
#include "sieve/pipeline.h"
#include "sieve/prim/config.h"
#include "sieve/prim/scan.h"
#include "sieve/result.h"

namespace sieve::prim {

enum class CompactMethod : uint32_t {
    ScanScatter = 0,  // scan (tier from options.prim), then each kept item scatters its record
    OnePass,          // one single-pass look-back dispatch: flags in, records out (tier c)
    Gather,           // scan, then each output slot finds its item by binary search (no scatter)
    AtomicAppend,     // unordered atomic append: the benchmark peer, NOT stable
};
enum class RecordKind : uint32_t { U32 = 1, DrawIndexed = 2 };  // values = MODE in shaders/prim/record.glsl

const char* methodName(CompactMethod method);

struct CompactOptions {
    CompactMethod method = CompactMethod::ScanScatter;
    RecordKind record = RecordKind::U32;
    bool payload = false;  // U32 records: payload[i] instead of i. DrawIndexed always reads 5-word templates.
    PrimOptions prim;
};

struct CompactBuffers {
    BufferRange flags;     // n u32, nonzero = keep (offset aligned to minStorageBufferOffsetAlignment)
    BufferRange payload;   // n u32 payloads or n VkDrawIndexedIndirectCommand templates; same alignment
    BufferRange records;   // capacity records (4 or 20 bytes each); same alignment
    BufferRange count;     // 4 bytes, any 4-aligned offset
    BufferRange overflow;  // 4 bytes, any 4-aligned offset
    BufferRange scratch;   // scratchBytes(m) for some m >= n, aligned; zero-filled once for persistentLookback
};

class Compact {
public:
    Compact();  // empty; use create()
    static Result<Compact> create(const DeviceInfo& dev, const CompactOptions& options = {});
    Compact(Compact&&) noexcept;
    Compact& operator=(Compact&&) noexcept;
    ~Compact();

    const CompactOptions& options() const { return options_; }
    // The scan tier for the largest inputs (OnePass: SinglePass; AtomicAppend scans nothing and reports Auto;
    // under ScanTier::Auto smaller inputs may use another, see autoScanTier).
    ScanTier scanTier() const;
    bool packedLookbackStatus() const;  // the single-pass scan keeps one 64-bit status word per tile
    uint32_t recordBytes() const { return options_.record == RecordKind::DrawIndexed ? 20 : 4; }
    VkDeviceSize scratchBytes(uint64_t n) const;  // enough for every count up to n, under any tier choice

    // Records the compaction of n items, with its internal compute -> compute barriers and debug labels
    // ("compact", "scan", ...). Barriers before and after are the caller's. n == 0 writes count = 0 and
    // overflow = 0. The records binding (capacity * recordBytes()) must fit maxStorageBufferRange; so
    // must n items for the Gather method.
    Result<void> record(VkCommandBuffer cmd, const CompactBuffers& buffers, uint64_t n, uint32_t capacity) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    CompactOptions options_;
};

}  // namespace sieve::prim
