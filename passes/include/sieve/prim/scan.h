#pragma once
// Exclusive scan of u32 values on the GPU: out[i] = in[0] + ... + in[i-1], plus the total, for any n
// from 0 to 2^31 (inputs larger than maxStorageBufferRange are processed in chunks). Three tiers (see
// ScanTier) with identical results. The plugin never allocates: the caller provides scratchBytes(n) of
// scratch (offset aligned to minStorageBufferOffsetAlignment), which is also written, so consecutive
// uses of one scratch range need the caller's barrier like any other write. scratchBytes(max) serves
// every n <= max, also where ScanTier::Auto scans n with another tier than max. With
// PrimOptions::persistentLookback the scratch must be zero-filled once before its first use (config.h).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

#include "sieve/gpu.h"
#include "sieve/pipeline.h"
#include "sieve/prim/bound.h"
#include "sieve/prim/config.h"
#include "sieve/result.h"

namespace sieve::prim {

inline constexpr uint64_t kMaxScanElements = uint64_t(1) << 31;

namespace detail {
class Multilevel;
class SinglePass;
class Clear;
}  // namespace detail

// The tier ScanTier::Auto stands for on this device for n elements (rule in sieve/prim/config.h);
// vendorId != 0 applies the rule of that vendor instead of the device's (PrimOptions::autoTierVendor).
inline constexpr uint64_t kAutoSinglePassMaxElements = uint64_t(1) << 22;
ScanTier autoScanTier(const DeviceInfo& dev, uint64_t n, uint32_t vendorId = 0);

struct ScanBuffers {
    BufferRange input;    // n u32 (offset aligned to minStorageBufferOffsetAlignment)
    BufferRange output;   // n u32, same alignment; may not alias input
    BufferRange total;    // 4 bytes at any 4-aligned offset
    BufferRange scratch;  // scratchBytes(m) for some m >= n
};

class Scan {
public:
    Scan();  // empty; use create()
    static Result<Scan> create(const DeviceInfo& dev, const PrimOptions& options = {});
    Scan(Scan&&) noexcept;
    Scan& operator=(Scan&&) noexcept;
    ~Scan();

    ScanTier tierFor(uint64_t n) const;                          // the tier that scans n elements (never Auto)
    ScanTier tier() const { return tierFor(kMaxScanElements); }  // for the largest inputs
    bool usesSubgroups() const { return subgroups_; }
    bool packedLookbackStatus() const;  // tier c keeps one 64-bit status word per tile
    uint32_t tileSize() const { return tile_; }
    VkDeviceSize scratchBytes(uint64_t n) const;  // enough for every count up to n, under any tier choice

    // Records the scan of n values with its internal barriers (compute -> compute) and debug labels
    // ("scan", "scan.level0", ...). Barriers before and after are the caller's. For n == 0 only the
    // total (0) is written. Refuses n > kMaxScanElements and sums whose bound exceeds 2^32-1.
    Result<void> record(VkCommandBuffer cmd, const ScanBuffers& buffers, uint64_t n, SumBound bound) const;

private:
    VkDeviceSize tierScratchBytes(uint64_t n) const;  // the scratch tierFor(n) uses for exactly n
    DeviceInfo dev_;
    ScanTier tier_ = ScanTier::SinglePass;  // resolved at create; Auto: chosen per size
    bool auto_ = false;
    uint32_t autoVendor_ = 0;  // PrimOptions::autoTierVendor
    bool subgroups_ = false;
    uint32_t tile_ = 0;
    std::unique_ptr<detail::Multilevel> multilevel_;
    std::unique_ptr<detail::SinglePass> singlePass_;
    std::unique_ptr<detail::Clear> clear_;  // writes the total of an empty input
};

}  // namespace sieve::prim
