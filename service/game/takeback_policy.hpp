// TakebackPolicy: answers to the opponent's takeback requests (config max_takebacks_accepted),
// as lichess-bot gives them: yes until that many were granted in the game, no after.
#pragma once

#include <optional>

namespace service {

class TakebackPolicy {
  public:
    explicit TakebackPolicy(int max_accepted) : max_accepted_(max_accepted) {}

    // Fed the opponent's takeback flag from every gameState. The flag stays up on each state
    // until the server has our answer, so only a request not yet answered gets one: true to
    // accept, false to decline; nullopt when there is nothing (new) to answer.
    [[nodiscard]] std::optional<bool> answer(bool requested);
    // The server took our yes: it counts against max_accepted (a failed yes does not).
    void granted() { ++accepted_; }

    [[nodiscard]] int accepted() const { return accepted_; }
    [[nodiscard]] int max_accepted() const { return max_accepted_; }

  private:
    int max_accepted_;
    int accepted_ = 0;
    bool answered_ = false;  // the request showing on the last state has had its answer
};

}  // namespace service
