// Writing the effective config as YAML in key-table order, with the token redacted.
#include "print.hpp"

#include <yaml-cpp/yaml.h>

#include "keys.hpp"

namespace config {
namespace {

void emit_string(YAML::Emitter& out, const std::string& value) {
    // Quote everything so values like "3+2", "on" or "" read back as the same text.
    out << YAML::DoubleQuoted << value;
}

void emit_section(YAML::Emitter& out, Config& config, std::string_view parent) {
    out << YAML::BeginMap;
    for (const KeySpec& spec : known_keys()) {
        if (spec.parent() != parent) continue;
        out << YAML::Key << std::string(spec.name()) << YAML::Value;
        if (spec.kind == Kind::Section) {
            emit_section(out, config, spec.path);
            continue;
        }
        FieldRef field = spec.field(config);
        switch (spec.kind) {
            case Kind::Bool:
                out << *std::get<bool*>(field);
                break;
            case Kind::Int:
                out << *std::get<int*>(field);
                break;
            case Kind::String: {
                const std::string& value = *std::get<std::string*>(field);
                emit_string(out, spec.secret && !value.empty() ? std::string(kRedacted) : value);
                break;
            }
            case Kind::StringList: {
                out << YAML::Flow << YAML::BeginSeq;
                for (const std::string& item : *std::get<std::vector<std::string>*>(field))
                    emit_string(out, item);
                out << YAML::EndSeq;
                break;
            }
            case Kind::BookFiles: {
                const BookFiles& files = *std::get<BookFiles*>(field);
                if (files.empty()) out << YAML::Flow;
                out << YAML::BeginMap;
                for (const auto& [variant, list] : files) {
                    out << YAML::Key << variant << YAML::Value << YAML::Flow << YAML::BeginSeq;
                    for (const std::string& item : list) emit_string(out, item);
                    out << YAML::EndSeq;
                }
                out << YAML::EndMap;
                break;
            }
            case Kind::Tournaments: {
                const auto& arenas = *std::get<std::vector<TournamentConfig>*>(field);
                if (arenas.empty()) out << YAML::Flow;
                out << YAML::BeginSeq;
                for (const TournamentConfig& a : arenas) {
                    out << YAML::Flow << YAML::BeginMap << YAML::Key << "id" << YAML::Value;
                    emit_string(out, a.id);
                    if (!a.team.empty()) {
                        out << YAML::Key << "team" << YAML::Value;
                        emit_string(out, a.team);
                    }
                    if (!a.password.empty()) {
                        out << YAML::Key << "password" << YAML::Value;
                        emit_string(out, std::string(kRedacted));
                    }
                    out << YAML::EndMap;
                }
                out << YAML::EndSeq;
                break;
            }
            case Kind::Section:
                break;
        }
    }
    out << YAML::EndMap;
}

}  // namespace

std::string to_yaml(const Config& config) {
    Config copy = config;  // field accessors hand out non-const pointers
    YAML::Emitter out;
    out.SetBoolFormat(YAML::TrueFalseBool);
    emit_section(out, copy, "");
    return std::string(out.c_str()) + "\n";
}

}  // namespace config
