#pragma once
// A test's own temporary folder: made fresh under the system's temporary folder (TMPDIR), unique to the
// process and the object, and removed with everything in it when the object goes, also when an
// assertion ends the test early. Tests write only here.
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace sieve::test {

class ScratchDir {
public:
    explicit ScratchDir(const std::string& prefix = "sieve_test") {
        std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
        path_ = pattern;
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

}  // namespace sieve::test
