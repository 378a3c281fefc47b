// errno_text(): through std::generic_category, which is thread-safe.
#include "common/errno_text.hpp"

#include <system_error>

namespace common {

std::string errno_text(int error_number) {
    return std::error_code(error_number, std::generic_category()).message();
}

}  // namespace common
