#pragma once
// Errors as values: the library never aborts. A Result holds either a value or an Error.
#include <vulkan/vulkan.h>

#include <optional>
#include <string>
#include <utility>

namespace sieve {

struct Error {
    VkResult code = VK_ERROR_UNKNOWN;
    std::string message;
};

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : value_(std::move(value)) {}
    Result(Error error) : error_(std::move(error)) {}
    explicit operator bool() const { return value_.has_value(); }
    T& value() & { return *value_; }
    T&& value() && { return std::move(*value_); }
    T* operator->() { return &*value_; }
    T& operator*() { return *value_; }
    const Error& error() const { return error_; }

private:
    std::optional<T> value_;
    Error error_;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : ok_(false), error_(std::move(error)) {}
    explicit operator bool() const { return ok_; }
    const Error& error() const { return error_; }

private:
    bool ok_ = true;
    Error error_;
};

inline Error makeError(VkResult code, std::string message) {
    return Error{code, std::move(message)};
}

// `made`'s value moved into `out`, or its error: `if (auto r = take(X::create(...), x_); !r) return r.error();`.
template <typename T>
Result<void> take(Result<T> made, T& out) {
    if (!made) return made.error();
    out = std::move(made).value();
    return {};
}

const char* vkResultName(VkResult r);

}  // namespace sieve

// Propagate a failing VkResult as an Error naming the call.
#define SIEVE_VK_TRY(expr)                                                                                           \
    do {                                                                                                             \
        VkResult sieve_r_ = (expr);                                                                                  \
        if (sieve_r_ != VK_SUCCESS)                                                                                  \
            return ::sieve::makeError(sieve_r_, std::string(#expr) + " failed: " + ::sieve::vkResultName(sieve_r_)); \
    } while (0)
