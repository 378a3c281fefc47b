// GameApi: the calls a game makes to Lichess (its moves, answers and claims), as the
// RequestRunner makes them: lichess::Api in the daemon (LichessGameApi), a recording fake in the
// tests of a game's session.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "lichess_client/api.hpp"

namespace service {

class GameApi {
  public:
    virtual ~GameApi() = default;
    // `still_on` is asked before each retry of the post (see lichess::Api::post_move).
    [[nodiscard]] virtual lichess::Result<lichess::Ok> post_move(
        std::string_view game_id, std::string_view uci, bool offer_draw,
        const std::function<bool()>& still_on) = 0;
    [[nodiscard]] virtual lichess::Result<lichess::Ok> abort(std::string_view game_id) = 0;
    [[nodiscard]] virtual lichess::Result<lichess::Ok> resign(std::string_view game_id) = 0;
    [[nodiscard]] virtual lichess::Result<lichess::Ok> accept_draw(std::string_view game_id) = 0;
    [[nodiscard]] virtual lichess::Result<lichess::Ok> answer_takeback(std::string_view game_id,
                                                                       bool accept) = 0;
    [[nodiscard]] virtual lichess::Result<lichess::Ok> claim_victory(std::string_view game_id) = 0;
};

// GameApi over the real client.
class LichessGameApi final : public GameApi {
  public:
    explicit LichessGameApi(lichess::Api& api) : api_(api) {}
    lichess::Result<lichess::Ok> post_move(std::string_view game_id, std::string_view uci,
                                           bool offer_draw,
                                           const std::function<bool()>& still_on) override {
        return api_.post_move(game_id, uci, offer_draw ? std::optional(true) : std::nullopt,
                              still_on);
    }
    lichess::Result<lichess::Ok> abort(std::string_view id) override { return api_.abort(id); }
    lichess::Result<lichess::Ok> resign(std::string_view id) override { return api_.resign(id); }
    lichess::Result<lichess::Ok> accept_draw(std::string_view id) override {
        return api_.handle_draw(id, true);
    }
    lichess::Result<lichess::Ok> answer_takeback(std::string_view id, bool accept) override {
        return api_.handle_takeback(id, accept);
    }
    lichess::Result<lichess::Ok> claim_victory(std::string_view id) override {
        return api_.claim_victory(id);
    }

  private:
    lichess::Api& api_;
};

}  // namespace service
