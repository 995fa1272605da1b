#pragma once
// Private to the glTF loader: warnings listed once each. A file with 500 skinned nodes or 40 strip
// primitives should say so in one line with a count, not 500 lines.
#include <cstdint>
#include <string>
#include <vector>

namespace sieve::assets::gltf {

class Notes {
public:
    // Records one occurrence of `text`; the same text again only raises its count.
    void add(const std::string& text);
    // One line per distinct text, in first-seen order: "text" or "text (N times)".
    std::vector<std::string> lines() const;

private:
    struct Note {
        std::string text;
        uint64_t count;
    };
    std::vector<Note> notes_;
};

}  // namespace sieve::assets::gltf
