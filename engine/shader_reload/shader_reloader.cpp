#include "engine/shader_reload/shader_reloader.h"

#include <algorithm>
#include <chrono>

#include "sieve/spirv.h"

namespace engine {

namespace {
double msSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
// A broken shared header fails every shader that includes it: the first few messages are enough.
constexpr size_t kMaxReportedFailures = 3;
}  // namespace

ShaderReloader::~ShaderReloader() {
    if (!active_.empty()) sieve::clearSpirvOverrides();
}

void ShaderReloader::install(const std::map<std::string, std::vector<uint32_t>>& overrides) const {
    sieve::clearSpirvOverrides();
    for (const auto& [name, words] : overrides) sieve::setSpirvOverride(name, words);
}

sieve::Result<ReloadReport> ShaderReloader::reload(const std::function<sieve::Result<void>()>& rebuild,
                                                   const std::map<std::string, std::string>& substitutes) {
    ReloadReport report;
    const auto start = std::chrono::steady_clock::now();
    auto names = compiler_.list();
    if (!names) return names.error();
    if (names->empty())
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED,
                                "no shaders below " + compiler_.root().string() + " (is it the shaders/ folder?)");
    for (const auto& [name, text] : substitutes)
        if (std::find(names->begin(), names->end(), name) == names->end())
            return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "no shader named " + name + " to substitute");

    std::map<std::string, std::vector<uint32_t>> compiled;
    std::string errors;
    size_t failures = 0;
    for (const std::string& name : *names) {
        auto sub = substitutes.find(name);
        auto words = compiler_.compile(name, sub == substitutes.end() ? nullptr : &sub->second);
        if (words) {
            compiled.emplace(name, std::move(words).value());
            continue;
        }
        if (failures++ < kMaxReportedFailures) errors += (errors.empty() ? "" : "\n") + words.error().message;
    }
    report.compileMs = msSince(start);
    if (failures) {
        if (failures > kMaxReportedFailures)
            errors += "\n(" + std::to_string(failures - kMaxReportedFailures) + " more shaders failed)";
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, errors);
    }

    install(compiled);
    const auto rebuildStart = std::chrono::steady_clock::now();
    if (auto r = rebuild(); !r) {
        install(active_);
        return r.error();
    }
    report.rebuildMs = msSince(rebuildStart);
    report.shaders = compiled.size();
    active_ = std::move(compiled);
    return report;
}

}  // namespace engine
