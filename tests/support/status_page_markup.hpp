// The status page read back as markup, for the checks that a page full of hostile strings is
// still only the page's own markup, and for the DOM a browser makes of it.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace test_support {

// What in `page` is not the page's own markup: a tag or an attribute the page never writes, an
// attribute value that is not double-quoted, a '<' or '>' in text, a script other than `script`
// or a second one. Empty: the page is only its own markup (the style's text is not looked at).
[[nodiscard]] std::vector<std::string> foreign_markup(const std::string& page,
                                                      std::string_view script);

// The part of a page (or a browser's DOM of it) about one game: its <article> element.
[[nodiscard]] std::string game_article(const std::string& page, const std::string& game_id);

// The pieces drawn on a board (an article, a page with one board): square -> FEN letter.
[[nodiscard]] std::map<std::string, char> drawn_pieces(const std::string& html);

// The text of the first element with `class="<cls>"` (or that class among others), after
// `from`; empty when none.
[[nodiscard]] std::string text_of_class(const std::string& html, const std::string& cls,
                                        std::size_t from = 0);

}  // namespace test_support
