// Result<T, E>: a value or an error, for calls where failure is normal (HTTP, JSON, files). The
// service's own failures carry an Error, a message naming what was wrong; the Lichess client's
// carry its ApiError (lichess::Result is this with E = ApiError).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace common {

// A failure told to the operator: names the thing that was wrong and why.
struct Error {
    std::string message;
};

template <class T, class E = Error>
class [[nodiscard]] Result {
  public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
    Result(E error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit by design

    [[nodiscard]] bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    [[nodiscard]] T& value() & { return std::get<0>(v_); }
    [[nodiscard]] const T& value() const& { return std::get<0>(v_); }
    [[nodiscard]] T&& value() && { return std::get<0>(std::move(v_)); }
    [[nodiscard]] const E& error() const { return std::get<1>(v_); }

    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

  private:
    std::variant<T, E> v_;
};

}  // namespace common
