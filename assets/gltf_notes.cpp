#include "assets/gltf_notes.h"

namespace sieve::assets::gltf {

void Notes::add(const std::string& text) {
    // Linear search: a file produces a handful of distinct notes.
    for (Note& n : notes_)
        if (n.text == text) {
            ++n.count;
            return;
        }
    notes_.push_back({text, 1});
}

std::vector<std::string> Notes::lines() const {
    std::vector<std::string> out;
    out.reserve(notes_.size());
    for (const Note& n : notes_)
        out.push_back(n.count == 1 ? n.text : n.text + " (" + std::to_string(n.count) + " times)");
    return out;
}

}  // namespace sieve::assets::gltf
