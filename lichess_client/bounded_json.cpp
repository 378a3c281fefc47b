// parse_bounded(): a SAX handler that builds the DOM itself and refuses past the limits.
#include "lichess_client/bounded_json.hpp"

#include <string>
#include <utility>
#include <vector>

namespace lichess {

namespace {

using json = nlohmann::json;

// Receives nlohmann's SAX events and builds the document as json_sax_dom_parser would, keeping
// a pointer to each open array or object (its parent does not grow while it is open, so the
// pointer stays valid) and counting every value against the limits before storing it.
class BoundedBuilder {
  public:
    explicit BoundedBuilder(const JsonLimits& limits) : limits_(limits) {}

    bool null() { return put(json(nullptr)); }
    bool boolean(bool v) { return put(json(v)); }
    bool number_integer(json::number_integer_t v) { return put(json(v)); }
    bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
    bool number_float(json::number_float_t v, const json::string_t&) { return put(json(v)); }
    bool string(json::string_t& v) { return put(json(std::move(v))); }
    bool binary(json::binary_t&) { return fail("binary data is not JSON"); }

    bool start_object(std::size_t) { return open(json::value_t::object); }
    bool start_array(std::size_t) { return open(json::value_t::array); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& k) {
        // Duplicate keys: the last one wins, as in nlohmann's own DOM parser.
        member_ = &(*open_.back())[std::move(k)];
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) {
        // nlohmann's own text quotes the input ("last read: '…'"); only the position is kept.
        return fail("invalid JSON at byte " + std::to_string(position));
    }

    json root;
    std::string problem;

  private:
    bool fail(std::string why) {
        if (problem.empty()) problem = std::move(why);
        return false;
    }

    // Stores a value where the document is now; the slot it went to, for open().
    json* store(json&& v) {
        if (open_.empty()) {
            root = std::move(v);
            return &root;
        }
        json& parent = *open_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        *member_ = std::move(v);
        return member_;
    }

    bool put(json&& v) {
        if (++values_ > limits_.max_values) {
            return fail("more than " + std::to_string(limits_.max_values) + " values");
        }
        store(std::move(v));
        return true;
    }

    bool open(json::value_t type) {
        if (open_.size() >= limits_.max_depth) {
            return fail("nested deeper than " + std::to_string(limits_.max_depth) + " levels");
        }
        if (++values_ > limits_.max_values) {
            return fail("more than " + std::to_string(limits_.max_values) + " values");
        }
        open_.push_back(store(json(type)));
        return true;
    }

    bool close() {
        open_.pop_back();
        return true;
    }

    const JsonLimits& limits_;
    std::vector<json*> open_;  // the arrays and objects not yet closed, outermost first
    json* member_ = nullptr;   // the slot of the object member whose key came last
    std::size_t values_ = 0;
};

}  // namespace

Result<json, ParseError> parse_bounded(std::string_view text, const JsonLimits& limits) {
    if (text.size() > limits.max_bytes) {
        return ParseError{"larger than " + std::to_string(limits.max_bytes) + " bytes", true};
    }
    BoundedBuilder builder(limits);
    const bool ok = json::sax_parse(text.begin(), text.end(), &builder, json::input_format_t::json,
                                    /*strict=*/true);
    if (!ok) {
        if (builder.problem.empty()) builder.problem = "invalid JSON";
        return ParseError{std::move(builder.problem), true};
    }
    return std::move(builder.root);
}

}  // namespace lichess
