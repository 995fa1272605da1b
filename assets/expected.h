#pragma once
// Errors as values for the asset library. sieve::Result carries a VkResult, and assets/ must not
// depend on Vulkan, so loaders here return Expected<T>: a value or a human-readable message.
#include <optional>
#include <string>
#include <utility>

namespace sieve::assets {

// Tag that makes the error constructor explicit: `return Unexpected{"file.gltf: bad accessor"};`
struct Unexpected {
    std::string message;
};

template <typename T>
class [[nodiscard]] Expected {
public:
    Expected(T value) : value_(std::move(value)) {}
    Expected(Unexpected error) : error_(std::move(error.message)) {}
    explicit operator bool() const { return value_.has_value(); }
    bool ok() const { return value_.has_value(); }
    T& value() & { return *value_; }
    const T& value() const& { return *value_; }
    T&& value() && { return std::move(*value_); }
    T* operator->() { return &*value_; }
    const T* operator->() const { return &*value_; }
    T& operator*() { return *value_; }
    const T& operator*() const { return *value_; }
    // Empty when a value is held.
    const std::string& error() const { return error_; }

private:
    std::optional<T> value_;
    std::string error_;
};

}  // namespace sieve::assets
