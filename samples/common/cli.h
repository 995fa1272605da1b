#pragma once
// The command-line parser every sample uses (sieve-viewer, sieve-bench and its subcommands, sieve-host2):
// a table of options, each with its help line and a function that takes its value, so that --help, the
// errors for unknown options and bad values, and the accepted spellings (--name VALUE, --name=VALUE) are
// the same everywhere. No globals, no exit: parse() returns what happened and the caller decides.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

// Value syntax shared by the samples. All return false on anything else (no partial parses).
// Unsigned integer: decimal, 0x hexadecimal, or scientific notation of an integer ("1e6"); no sign.
bool parseCount(std::string_view s, uint64_t& out);
// Signed decimal integer in [lo, hi].
bool parseInt(std::string_view s, long long lo, long long hi, long long& out);
// Finite float / double (strtof / strtod syntax).
bool parseFloat(std::string_view s, float& out);
bool parseDouble(std::string_view s, double& out);
// "on" / "off".
bool parseOnOff(std::string_view s, bool& out);
struct Extent {
    uint32_t width = 0, height = 0;
};
// "WxH", each in [1, max].
bool parseExtent(std::string_view s, uint32_t max, Extent& out);
// Comma-separated counts / extents, at least one, no empty items.
bool parseCountList(std::string_view s, std::vector<uint64_t>& out);
bool parseExtentList(std::string_view s, uint32_t max, std::vector<Extent>& out);
// Splits at every `sep`; "a," gives {"a", ""}.
std::vector<std::string> split(std::string_view s, char sep);
bool endsWith(std::string_view s, std::string_view suffix);  // and is longer than it

class Parser {
public:
    // Takes an option's value; false: a bad value.
    using Apply = std::function<bool(const std::string& value)>;

    // program: as shown in messages ("sieve-bench cull"); description: printed by usage() between the
    // synopsis and the options (may be empty). --help / -h is always an option.
    Parser(std::string program, std::string description);

    // A switch: --name, no value.
    Parser& flag(const char* name, std::string help, bool& out);
    // An option with a value (--name V or --name=V); `value` names it in the help and in messages.
    // `expected` describes good values in the message for a bad one (default: `value`).
    Parser& option(const char* name, const char* value, std::string help, Apply apply, std::string expected = {});
    // An option whose value may be left out (--name, --name V, --name=V; shown as "--name [V]"): without
    // one, or when the next argument starts with '-', `apply` gets an empty string.
    Parser& optionalValue(const char* name, const char* value, std::string help, Apply apply,
                          std::string expected = {});
    // Shorthands for the common kinds.
    Parser& text(const char* name, const char* value, std::string help, std::string& out);  // non-empty
    Parser& onOff(const char* name, std::string help, bool& out);
    Parser& choice(const char* name, std::vector<std::string> choices, std::string help, std::string& out);
    template <typename T>
    Parser& count(const char* name, const char* value, std::string help, T& out, uint64_t lo, uint64_t hi) {
        return option(
            name, value, std::move(help),
            [&out, lo, hi](const std::string& v) {
                uint64_t n = 0;
                if (!parseCount(v, n) || n < lo || n > hi) return false;
                out = T(n);
                return true;
            },
            "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }

    struct Outcome {
        bool help = false;  // --help was given: print usage() and exit 0
        std::string error;  // non-empty: a bad command line (the message, without the program name)
        bool ok() const { return error.empty(); }
    };
    // Applies the options in order; stops at the first error.
    Outcome parse(const std::vector<std::string>& args) const;  // without the program name
    Outcome parse(int argc, const char* const* argv) const;     // argv[0] is the program

    std::string usage() const;
    const std::string& program() const { return program_; }

    // For main(): parses; on --help prints usage() to stdout and returns 0; on an error prints
    // "<program>: <error>" and a hint to stderr and returns `errorExit`; otherwise returns nullopt (go on).
    std::optional<int> run(int argc, const char* const* argv, int errorExit = 2) const;

private:
    struct Option {
        std::string name;
        std::string value;  // empty: a switch
        std::string help;
        std::string expected;
        Apply apply;            // switches get an empty string
        bool optional = false;  // the value may be left out
    };
    const Option* find(std::string_view name) const;

    std::string program_, description_;
    std::vector<Option> options_;
};

}  // namespace cli
