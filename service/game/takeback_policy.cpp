// TakebackPolicy: one answer per request, yes while fewer than max_accepted were granted.
#include "service/game/takeback_policy.hpp"

namespace service {

std::optional<bool> TakebackPolicy::answer(bool requested) {
    if (!requested) {
        answered_ = false;  // answered or withdrawn: the next flag is a new request
        return std::nullopt;
    }
    if (answered_) return std::nullopt;
    answered_ = true;
    return accepted_ < max_accepted_;
}

}  // namespace service
