#include "cli.h"

#include <cerrno>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace cli {

bool parseCount(std::string_view s, uint64_t& out) {
    if (s.empty() || s[0] == '-' || s[0] == '+') return false;
    const char* end = s.data() + s.size();
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        auto [p, ec] = std::from_chars(s.data() + 2, end, out, 16);
        return ec == std::errc() && p == end;
    }
    if (s.find_first_of("eE.") != std::string_view::npos) {  // 1e6: only where it is an integer
        const std::string copy(s);
        char* stop = nullptr;
        errno = 0;
        const double d = std::strtod(copy.c_str(), &stop);
        if (errno || *stop || !(d >= 0) || d >= 18446744073709551616.0 || d != std::floor(d)) return false;
        out = uint64_t(d);
        return true;
    }
    auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && p == end;
}

bool parseInt(std::string_view s, long long lo, long long hi, long long& out) {
    if (s.empty() || s[0] == '+') return false;
    const char* end = s.data() + s.size();
    long long v = 0;
    auto [p, ec] = std::from_chars(s.data(), end, v);
    if (ec != std::errc() || p != end || v < lo || v > hi) return false;
    out = v;
    return true;
}

bool parseDouble(std::string_view s, double& out) {
    if (s.empty()) return false;
    const std::string copy(s);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(copy.c_str(), &end);
    if (errno || *end || !std::isfinite(v)) return false;
    out = v;
    return true;
}

bool parseFloat(std::string_view s, float& out) {
    double d = 0;
    if (!parseDouble(s, d) || std::fabs(d) > FLT_MAX) return false;
    out = float(d);
    return true;
}

bool parseOnOff(std::string_view s, bool& out) {
    if (s != "on" && s != "off") return false;
    out = s == "on";
    return true;
}

bool parseExtent(std::string_view s, uint32_t max, Extent& out) {
    const std::vector<std::string> p = split(s, 'x');
    long long w = 0, h = 0;
    if (p.size() != 2 || !parseInt(p[0], 1, max, w) || !parseInt(p[1], 1, max, h)) return false;
    out = {uint32_t(w), uint32_t(h)};
    return true;
}

bool parseCountList(std::string_view s, std::vector<uint64_t>& out) {
    std::vector<uint64_t> v;
    for (const std::string& item : split(s, ',')) {
        uint64_t n = 0;
        if (!parseCount(item, n)) return false;
        v.push_back(n);
    }
    if (v.empty()) return false;
    out = std::move(v);
    return true;
}

bool parseExtentList(std::string_view s, uint32_t max, std::vector<Extent>& out) {
    std::vector<Extent> v;
    for (const std::string& item : split(s, ',')) {
        Extent e;
        if (!parseExtent(item, max, e)) return false;
        v.push_back(e);
    }
    if (v.empty()) return false;
    out = std::move(v);
    return true;
}

std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> parts;
    if (s.empty()) return parts;
    size_t start = 0;
    while (true) {
        const size_t at = s.find(sep, start);
        parts.emplace_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos) break;
        start = at + 1;
    }
    return parts;
}

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

Parser::Parser(std::string program, std::string description)
    : program_(std::move(program)), description_(std::move(description)) {
    options_.push_back({"--help", "", "print this help and exit", "", nullptr});
}

Parser& Parser::flag(const char* name, std::string help, bool& out) {
    options_.push_back({name, "", std::move(help), "", [&out](const std::string&) { return out = true; }});
    return *this;
}

Parser& Parser::option(const char* name, const char* value, std::string help, Apply apply, std::string expected) {
    options_.push_back(
        {name, value, std::move(help), expected.empty() ? value : std::move(expected), std::move(apply)});
    return *this;
}

Parser& Parser::optionalValue(const char* name, const char* value, std::string help, Apply apply,
                              std::string expected) {
    option(name, value, std::move(help), std::move(apply), std::move(expected));
    options_.back().optional = true;
    return *this;
}

Parser& Parser::text(const char* name, const char* value, std::string help, std::string& out) {
    return option(name, value, std::move(help), [&out](const std::string& v) { return !v.empty() && (out = v, true); });
}

Parser& Parser::onOff(const char* name, std::string help, bool& out) {
    return option(name, "on|off", std::move(help), [&out](const std::string& v) { return parseOnOff(v, out); });
}

Parser& Parser::choice(const char* name, std::vector<std::string> choices, std::string help, std::string& out) {
    std::string value;
    for (const std::string& c : choices) value += (value.empty() ? "" : "|") + c;
    options_.push_back({name, value, std::move(help), "one of " + value, [&out, choices](const std::string& v) {
                            for (const std::string& c : choices)
                                if (v == c) return out = v, true;
                            return false;
                        }});
    return *this;
}

const Parser::Option* Parser::find(std::string_view name) const {
    for (const Option& o : options_)
        if (o.name == name) return &o;
    return nullptr;
}

Parser::Outcome Parser::parse(const std::vector<std::string>& args) const {
    Outcome result;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string name = args[i], value;
        bool inlineValue = false;
        if (const size_t eq = name.find('='); name.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inlineValue = true;
        }
        if (name == "-h") name = "--help";
        const Option* o = find(name);
        if (!o) {
            result.error = "unknown option '" + args[i] + "'";
            return result;
        }
        if (!o->value.empty()) {
            if (!inlineValue && o->optional) {
                if (i + 1 < args.size() && args[i + 1].rfind('-', 0) != 0) value = args[++i];
            } else if (!inlineValue) {
                if (i + 1 >= args.size()) {
                    result.error = o->name + " needs a value (" + o->value + ")";
                    return result;
                }
                value = args[++i];
            }
        } else if (inlineValue) {
            result.error = o->name + " takes no value";
            return result;
        }
        if (!o->apply) {  // --help: the rest is not looked at
            result.help = true;
            return result;
        }
        if (!o->apply(value)) {
            result.error = "bad value '" + value + "' for " + o->name + " (expected " + o->expected + ")";
            return result;
        }
    }
    return result;
}

Parser::Outcome Parser::parse(int argc, const char* const* argv) const {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
    return parse(args);
}

std::string Parser::usage() const {
    std::ostringstream out;
    out << "usage: " << program_ << " [options]\n";
    if (!description_.empty()) out << description_ << (description_.back() == '\n' ? "" : "\n");
    out << "\noptions:\n";
    constexpr size_t kColumn = 34;
    for (const Option& o : options_) {
        std::string head = "  " + o.name + (o.value.empty() ? "" : o.optional ? " [" + o.value + "]" : " " + o.value);
        if (head.size() < kColumn)
            head.resize(kColumn, ' ');
        else
            head += "\n" + std::string(kColumn, ' ');
        out << head << o.help << "\n";
    }
    return out.str();
}

std::optional<int> Parser::run(int argc, const char* const* argv, int errorExit) const {
    const Outcome o = parse(argc, argv);
    if (!o.ok()) {
        std::fprintf(stderr, "%s: %s\nRun '%s --help' for the list of options.\n", program_.c_str(), o.error.c_str(),
                     program_.c_str());
        return errorExit;
    }
    if (o.help) {
        std::fputs(usage().c_str(), stdout);
        return 0;
    }
    return std::nullopt;
}

}  // namespace cli
