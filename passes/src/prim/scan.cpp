#include "sieve/prim/scan.h"

#include "core/vk.h"
#include "prim/multilevel.h"
#include "prim/single_pass.h"

namespace sieve::prim {

using namespace detail;

namespace {
constexpr uint32_t kVendorNvidia = 0x10DE;
}

ScanTier autoScanTier(const DeviceInfo& dev, uint64_t n, uint32_t vendorId) {
    if (!dev.subgroupBallot || !dev.subgroupArithmetic || dev.physical == VK_NULL_HANDLE) return ScanTier::Subgroup;
    if (vendorId == 0) {
        VkPhysicalDeviceProperties props{};
        vkGetPhysicalDeviceProperties(dev.physical, &props);
        vendorId = props.vendorID;
    }
    return vendorId == kVendorNvidia && n <= kAutoSinglePassMaxElements ? ScanTier::SinglePass : ScanTier::Subgroup;
}

Scan::Scan() = default;
Scan::Scan(Scan&&) noexcept = default;
Scan& Scan::operator=(Scan&&) noexcept = default;
Scan::~Scan() = default;

Result<Scan> Scan::create(const DeviceInfo& dev, const PrimOptions& options) {
    if (options.persistentLookback && options.tier != ScanTier::SinglePass)
        return makeError(VK_ERROR_INITIALIZATION_FAILED,
                         "prim: persistentLookback needs ScanTier::SinglePass (another tier would overwrite the "
                         "look-back state in the scratch)");
    Scan s;
    s.dev_ = dev;
    s.auto_ = options.tier == ScanTier::Auto;
    s.autoVendor_ = options.autoTierVendor;
    // Auto keeps tier b for large inputs and adds tier c where the device takes it for small ones.
    s.tier_ = s.auto_ ? autoScanTier(dev, 1, s.autoVendor_) : options.tier;
    auto tiles = resolveTiles(dev, options, s.tier_ != ScanTier::Multilevel);
    if (!tiles) return tiles.error();
    s.subgroups_ = tiles->subgroups;
    s.tile_ = tiles->tile();
    auto clear = Clear::create(dev);
    if (!clear) return clear.error();
    s.clear_ = std::make_unique<Clear>(std::move(clear).value());
    if (s.tier_ == ScanTier::SinglePass) {
        auto p = SinglePass::create(dev, *tiles, options, false, 0, false);
        if (!p) return p.error();
        s.singlePass_ = std::make_unique<SinglePass>(std::move(p).value());
    }
    if (s.tier_ != ScanTier::SinglePass || s.auto_) {
        auto m = Multilevel::create(dev, *tiles, false);
        if (!m) return m.error();
        s.multilevel_ = std::make_unique<Multilevel>(std::move(m).value());
    }
    return s;
}

bool Scan::packedLookbackStatus() const {
    return singlePass_ && singlePass_->packed();
}

ScanTier Scan::tierFor(uint64_t n) const {
    return auto_ ? autoScanTier(dev_, n, autoVendor_) : tier_;
}

VkDeviceSize Scan::tierScratchBytes(uint64_t n) const {
    return tierFor(n) == ScanTier::SinglePass ? singlePass_->scratchBytes(n) : multilevel_->scratchBytes(n);
}

VkDeviceSize Scan::scratchBytes(uint64_t n) const {
    return scanScratchUpTo(n, [this](uint64_t m) { return tierScratchBytes(m); });
}

Result<void> Scan::record(VkCommandBuffer cmd, const ScanBuffers& b, uint64_t n, SumBound bound) const {
    if (n > kMaxScanElements)
        return makeError(VK_ERROR_UNKNOWN, "scan: " + std::to_string(n) + " elements exceed the supported 2^31");
    if (!bound.fitsU32())
        return makeError(VK_ERROR_UNKNOWN, "scan: the total could exceed 2^32-1 (declared bound " +
                                               std::to_string(bound.maxTotal) + "); rejected");
    if (auto r = checkWord(b.total, "scan total"); !r) return r;
    const Word total = wordAt(dev_, b.total);
    ScopedLabel label(cmd, "scan");
    if (n == 0) {
        clear_->record(cmd, total.binding, total.index, 1, 0);
        return {};
    }
    if (auto r = checkArray(dev_, b.input, n * 4, "scan input"); !r) return r;
    if (auto r = checkArray(dev_, b.output, n * 4, "scan output"); !r) return r;
    if (uint64_t s = tierScratchBytes(n))  // what this count's tier uses (scratchBytes(n) may be more)
        if (auto r = checkArray(dev_, b.scratch, s, "scan scratch"); !r) return r;
    if (tierFor(n) == ScanTier::SinglePass)
        singlePass_->record(cmd, b.input, {b.output, total, total, {}, 0}, b.scratch, n);
    else
        multilevel_->record(cmd, b.input, b.output, total, b.scratch, n);
    return {};
}

}  // namespace sieve::prim
