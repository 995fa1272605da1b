#include "engine/shader_reload/shader_reloader.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include "sieve/spirv.h"

namespace engine {

namespace {
double msSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
// A broken shared header fails every shader that includes it: the first few messages are enough.
constexpr size_t kMaxReportedFailures = 3;

const std::string* substituteOf(const std::map<std::string, std::string>& substitutes, const std::string& name) {
    auto sub = substitutes.find(name);
    return sub == substitutes.end() ? nullptr : &sub->second;
}

// Compiles names[i] for each i of `todo` on a few threads (each its own shaderc compiler); results by name index.
std::vector<std::optional<sieve::Result<ShaderBinary>>> compileAll(
    const ShaderCompiler& compiler, const std::vector<std::string>& names, const std::vector<size_t>& todo,
    const std::map<std::string, std::string>& substitutes) {
    std::vector<std::optional<sieve::Result<ShaderBinary>>> results(names.size());
    std::atomic<size_t> nextTask{0};
    auto worker = [&] {
        for (size_t t; (t = nextTask.fetch_add(1)) < todo.size();) {
            const std::string& name = names[todo[t]];
            results[todo[t]].emplace(compiler.compile(name, substituteOf(substitutes, name)));
        }
    };
    const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, std::min<size_t>(todo.size(), 8));
    std::vector<std::thread> pool;
    for (size_t i = 1; i < threads; ++i) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
    return results;
}

// The first kMaxReportedFailures compile errors among `todo` and how many more there were ("" when none failed).
std::string compileErrors(const std::vector<std::optional<sieve::Result<ShaderBinary>>>& results,
                          const std::vector<size_t>& todo) {
    std::string errors;
    size_t failures = 0;
    for (size_t i : todo) {
        const sieve::Result<ShaderBinary>& r = *results[i];
        if (r) continue;
        if (failures++ < kMaxReportedFailures) errors += (errors.empty() ? "" : "\n") + r.error().message;
    }
    if (failures > kMaxReportedFailures)
        errors += "\n(" + std::to_string(failures - kMaxReportedFailures) + " more shaders failed)";
    return errors;
}

}  // namespace

ShaderReloader::ShaderReloader(std::filesystem::path root) : compiler_(std::move(root)) {
    namespace fs = std::filesystem;
    std::error_code ec;
    builtAt_ = fs::last_write_time("/proc/self/exe", ec);
    if (ec) builtAt_ = fs::file_time_type::min();  // unknown: nothing counts as built from today's sources
    for (fs::recursive_directory_iterator it(compiler_.root(), ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        if (auto text = readTextFile(it->path()))
            baseline_[it->path().lexically_relative(compiler_.root()).generic_string()] = std::move(text).value();
    }
}

bool ShaderReloader::asBuilt(const std::string& name) const {
    namespace fs = std::filesystem;
    if (sieve::embeddedSpirv(name).empty() || builtAt_ == fs::file_time_type::min()) return false;
    std::vector<std::string> todo{name};
    std::set<std::string> seen;
    while (!todo.empty()) {
        const std::string path = todo.back();
        todo.pop_back();
        if (!seen.insert(path).second) continue;
        auto base = baseline_.find(path);
        auto now = readTextFile(compiler_.root() / path);
        std::error_code ec;
        const auto written = fs::last_write_time(compiler_.root() / path, ec);
        if (base == baseline_.end() || !now || now.value() != base->second || ec || written > builtAt_) return false;
        // #include "x": relative to the including file first, then to the root (as the compiler resolves).
        std::istringstream lines(base->second);
        for (std::string line; std::getline(lines, line);) {
            const size_t at = line.find("#include \"");
            if (at == std::string::npos || line.find_first_not_of(" \t") != at) continue;
            const size_t end = line.find('"', at + 10);
            if (end == std::string::npos) return false;
            const std::string inc = line.substr(at + 10, end - at - 10);
            const std::string relative = (fs::path(path).parent_path() / inc).lexically_normal().generic_string();
            todo.push_back(baseline_.count(relative) ? relative : fs::path(inc).lexically_normal().generic_string());
        }
    }
    return true;
}

ShaderReloader::~ShaderReloader() {
    if (!active_.empty()) sieve::clearSpirvOverrides();
}

void ShaderReloader::install(const std::map<std::string, std::vector<uint32_t>>& overrides) const {
    sieve::clearSpirvOverrides();
    for (const auto& [name, words] : overrides) sieve::setSpirvOverride(name, words);
}

bool ShaderReloader::upToDate(const std::string& name, const ShaderBinary& cached,
                              const std::string* substitute) const {
    for (const auto& [path, text] : cached.sources) {
        if (substitute && path == name) {
            if (*substitute != text) return false;
            continue;
        }
        auto now = readTextFile(compiler_.root() / path);
        if (!now || now.value() != text) return false;
    }
    return true;
}

sieve::Result<ReloadReport> ShaderReloader::reload(const std::function<sieve::Result<void>()>& rebuild,
                                                   const std::map<std::string, std::string>& substitutes) {
    ReloadReport report;
    const auto start = std::chrono::steady_clock::now();
    auto listed = compiler_.list();
    if (!listed) return listed.error();
    const std::vector<std::string>& names = listed.value();
    if (names.empty())
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED,
                                "no shaders below " + compiler_.root().string() + " (is it the shaders/ folder?)");
    for (const auto& [name, text] : substitutes)
        if (std::find(names.begin(), names.end(), name) == names.end())
            return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, "no shader named " + name + " to substitute");

    // Which shaders need compiling, then compile them.
    std::vector<size_t> todo;
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string* sub = substituteOf(substitutes, names[i]);
        auto cached = cache_.find(names[i]);
        if (cached == cache_.end() && !sub && asBuilt(names[i])) continue;  // embedded stays
        if (cached == cache_.end() || !upToDate(names[i], cached->second, sub)) todo.push_back(i);
    }
    auto results = compileAll(compiler_, names, todo, substitutes);
    report.compileMs = msSince(start);
    if (std::string errors = compileErrors(results, todo); !errors.empty())
        return sieve::makeError(VK_ERROR_INITIALIZATION_FAILED, errors);
    for (size_t i : todo) cache_.insert_or_assign(names[i], std::move(*results[i]).value());
    report.compiled = todo.size();

    std::map<std::string, std::vector<uint32_t>> next;
    for (const std::string& name : names)
        if (auto c = cache_.find(name); c != cache_.end()) next.emplace(name, c->second.words);
    install(next);
    const auto rebuildStart = std::chrono::steady_clock::now();
    if (auto r = rebuild(); !r) {
        install(active_);
        return r.error();
    }
    report.rebuildMs = msSince(rebuildStart);
    report.shaders = next.size();
    report.total = names.size();
    active_ = std::move(next);
    return report;
}

}  // namespace engine
