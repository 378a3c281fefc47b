// The status page's markup read back with a few regular expressions: the page writes a small,
// fixed set of tags and attributes, so anything else in it came from outside.
#include "tests/support/status_page_markup.hpp"

#include <regex>
#include <set>

namespace test_support {

std::vector<std::string> foreign_markup(const std::string& page, std::string_view script) {
    static const std::set<std::string> tags{
        "!doctype", "html",   "head",    "meta",   "title", "noscript", "style", "body",
        "svg",      "defs",   "pattern", "rect",   "path",  "g",        "use",   "circle",
        "main",     "header", "h1",      "h2",     "span",  "section",  "div",   "article",
        "p",        "b",      "a",       "ol",     "li",    "table",    "tbody", "tr",
        "th",       "td",     "footer",  "script", "text"};
    static const std::set<std::string> attributes{
        "lang",    "charset", "name",        "content",     "http-equiv",   "class",
        "width",   "height",  "aria-hidden", "id",          "patternUnits", "d",
        "viewBox", "href",    "x",           "y",           "cx",           "cy",
        "r",       "fill",    "data-sq",     "data-pocket", "data-n",       "data-game",
        "data-ms", "rel",     "title",       "dy",          "transform"};
    std::vector<std::string> problems;
    const std::size_t style = page.find("<style>");
    const std::size_t style_end = page.find("</style>");
    const std::size_t script_at = page.find("<script>");
    const std::size_t script_end = page.find("</script>");
    if (style == std::string::npos || style_end == std::string::npos ||
        script_at == std::string::npos || script_end == std::string::npos ||
        !(style < style_end && style_end < script_at && script_at < script_end))
        return {"no <style> followed by one <script>"};
    if (page.find("</style>", style_end + 1) != std::string::npos)
        problems.push_back("a second </style>");
    if (page.find("<script", script_at + 1) != std::string::npos)
        problems.push_back("a second <script");
    if (page.substr(script_at + 8, script_end - script_at - 8) != script)
        problems.push_back("the script is not the page's");
    const std::string markup = page.substr(0, style + 7) +
                               page.substr(style_end, script_at + 8 - style_end) +
                               page.substr(script_end);

    static const std::regex tag(R"re(<(/?)([!a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>)re");
    static const std::regex attribute(R"re(\s+([a-zA-Z-]+)(="[^"]*")?)re");
    std::size_t covered = 0;
    for (std::sregex_iterator it(markup.begin(), markup.end(), tag), end; it != end; ++it) {
        const std::string between =
            markup.substr(covered, static_cast<std::size_t>(it->position()) - covered);
        if (between.find_first_of("<>") != std::string::npos)
            problems.push_back("text with < or >: " + between.substr(0, 80));
        covered = static_cast<std::size_t>(it->position() + it->length());
        std::string name = (*it)[2];
        if (name == "!DOCTYPE") name = "!doctype";
        if (!tags.contains(name)) problems.push_back("tag <" + name + ">");
        if (name == "!doctype") continue;
        std::string attrs = (*it)[3];
        if (attrs.ends_with("/")) attrs.pop_back();
        std::size_t attrs_covered = 0;
        for (std::sregex_iterator a(attrs.begin(), attrs.end(), attribute), aend; a != aend; ++a) {
            if (static_cast<std::size_t>(a->position()) != attrs_covered) break;
            attrs_covered = static_cast<std::size_t>(a->position() + a->length());
            if (!attributes.contains((*a)[1]))
                problems.push_back("attribute " + std::string((*a)[1]) + " in <" + name + ">");
        }
        if (attrs_covered != attrs.size())
            problems.push_back("unreadable attributes in <" + name + attrs.substr(0, 80) + ">");
    }
    if (markup.substr(covered).find_first_of("<>") != std::string::npos)
        problems.push_back("text with < or > at the end");
    return problems;
}

std::string game_article(const std::string& page, const std::string& game_id) {
    const std::size_t at = page.find("data-game=\"" + game_id + "\"");
    if (at == std::string::npos) return {};
    const std::size_t start = page.rfind("<article", at);
    const std::size_t end = page.find("</article>", at);
    if (start == std::string::npos || end == std::string::npos) return {};
    return page.substr(start, end + 10 - start);
}

std::map<std::string, char> drawn_pieces(const std::string& html) {
    std::map<std::string, char> out;
    static const std::regex piece(
        R"re(<use href="#([wb])([PNBRQK])" x="\d" y="\d" data-sq="([a-h][1-8])")re");
    for (std::sregex_iterator it(html.begin(), html.end(), piece), end; it != end; ++it) {
        const char upper = std::string((*it)[2])[0];
        out[(*it)[3]] = (*it)[1] == "w" ? upper : static_cast<char>(upper - 'A' + 'a');
    }
    return out;
}

std::string text_of_class(const std::string& html, const std::string& cls, std::size_t from) {
    const std::regex element("<[a-z0-9]+ class=\"(?:[^\"]* )?" + cls +
                             "(?: [^\"]*)?\"[^>]*>([^<]*)<");
    std::smatch m;
    if (from > html.size()) return {};
    const std::string rest = html.substr(from);
    if (!std::regex_search(rest, m, element)) return {};
    return m[1];
}

}  // namespace test_support
