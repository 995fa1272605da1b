// The samples' shared command-line parser (samples/common/cli.h): value syntax, both spellings of an
// option with a value, --help, and the messages for unknown options, missing and bad values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli.h"

namespace {

struct Values {
    bool verbose = false;
    uint32_t width = 7;
    std::string name;
    std::string mode = "a";
    bool overlay = true;
    std::vector<uint64_t> sizes;
};

cli::Parser parser(Values& v) {
    cli::Parser p("tool", "Does things.");
    p.flag("--verbose", "say more", v.verbose)
        .count("--width", "W", "a width", v.width, 1, 100)
        .text("--name", "NAME", "a name", v.name)
        .choice("--mode", {"a", "b"}, "a mode", v.mode)
        .onOff("--overlay", "draw it", v.overlay)
        .option(
            "--sizes", "N,...", "counts", [&v](const std::string& s) { return cli::parseCountList(s, v.sizes); },
            "comma-separated counts");
    return p;
}

cli::Parser::Outcome parse(Values& v, std::vector<std::string> args) {
    return parser(v).parse(args);
}

}  // namespace

TEST(SamplesCli, Counts) {
    uint64_t n = 0;
    EXPECT_TRUE(cli::parseCount("42", n));
    EXPECT_EQ(n, 42u);
    EXPECT_TRUE(cli::parseCount("1e6", n));
    EXPECT_EQ(n, 1000000u);
    EXPECT_TRUE(cli::parseCount("0x1e", n));  // hexadecimal, not scientific
    EXPECT_EQ(n, 30u);
    EXPECT_TRUE(cli::parseCount("18446744073709551615", n));
    EXPECT_EQ(n, UINT64_MAX);
    for (const char* bad : {"", "-1", "+1", "1.5", "1e-1", "12x", "0x", "18446744073709551616", "2e19", "nan"})
        EXPECT_FALSE(cli::parseCount(bad, n)) << bad;
}

TEST(SamplesCli, OtherValues) {
    long long i = 0;
    EXPECT_TRUE(cli::parseInt("-5", -10, 10, i));
    EXPECT_EQ(i, -5);
    EXPECT_FALSE(cli::parseInt("11", -10, 10, i));
    float f = 0;
    EXPECT_TRUE(cli::parseFloat("-2.5", f));
    EXPECT_EQ(f, -2.5f);
    EXPECT_FALSE(cli::parseFloat("nan", f));
    EXPECT_FALSE(cli::parseFloat("1e39", f));  // beyond float
    EXPECT_FALSE(cli::parseFloat("1.0x", f));
    cli::Extent e;
    EXPECT_TRUE(cli::parseExtent("640x480", 8192, e));
    EXPECT_EQ(e.width, 640u);
    EXPECT_EQ(e.height, 480u);
    for (const char* bad : {"640x", "x480", "0x480", "640x9000", "640x480x2", "640*480"})
        EXPECT_FALSE(cli::parseExtent(bad, 8192, e)) << bad;
    std::vector<uint64_t> list{9};
    EXPECT_FALSE(cli::parseCountList("1,,2", list));
    EXPECT_FALSE(cli::parseCountList("", list));
    EXPECT_EQ(list, std::vector<uint64_t>{9});  // untouched on failure
    EXPECT_TRUE(cli::parseCountList("1,1e3", list));
    EXPECT_EQ(list, (std::vector<uint64_t>{1, 1000}));
    EXPECT_EQ(cli::split("a,b,", ','), (std::vector<std::string>{"a", "b", ""}));
}

TEST(SamplesCli, AppliesOptionsInBothSpellings) {
    Values v;
    const auto o =
        parse(v, {"--verbose", "--width", "64", "--name=x=y", "--mode", "b", "--overlay=off", "--sizes", "3,1e2"});
    ASSERT_TRUE(o.ok()) << o.error;
    EXPECT_FALSE(o.help);
    EXPECT_TRUE(v.verbose);
    EXPECT_EQ(v.width, 64u);
    EXPECT_EQ(v.name, "x=y");
    EXPECT_EQ(v.mode, "b");
    EXPECT_FALSE(v.overlay);
    EXPECT_EQ(v.sizes, (std::vector<uint64_t>{3, 100}));
}

TEST(SamplesCli, Help) {
    Values v;
    EXPECT_TRUE(parse(v, {"--help"}).help);
    EXPECT_TRUE(parse(v, {"--width", "5", "-h"}).help);
    const std::string usage = parser(v).usage();
    EXPECT_EQ(usage.rfind("usage: tool [options]\nDoes things.\n", 0), 0u) << usage;
    for (const char* line : {"--help", "--verbose", "--width W", "--mode a|b", "--overlay on|off", "--sizes N,..."})
        EXPECT_NE(usage.find(line), std::string::npos) << line;
}

TEST(SamplesCli, Errors) {
    const std::pair<std::vector<std::string>, std::string> cases[] = {
        {{"--bogus"}, "unknown option '--bogus'"},
        {{"extra"}, "unknown option 'extra'"},
        {{"--width"}, "--width needs a value (W)"},
        {{"--width", "0"}, "bad value '0' for --width (expected an integer in [1, 100])"},
        {{"--width", "12x"}, "bad value '12x' for --width (expected an integer in [1, 100])"},
        {{"--verbose=yes"}, "--verbose takes no value"},
        {{"--mode", "c"}, "bad value 'c' for --mode (expected one of a|b)"},
        {{"--overlay", "maybe"}, "bad value 'maybe' for --overlay (expected on|off)"},
        {{"--name", ""}, "bad value '' for --name (expected NAME)"},
        {{"--sizes", "1,x"}, "bad value '1,x' for --sizes (expected comma-separated counts)"},
    };
    for (const auto& [args, message] : cases) {
        Values v;
        const auto o = parse(v, args);
        EXPECT_FALSE(o.ok());
        EXPECT_EQ(o.error, message);
    }
    Values v;
    EXPECT_FALSE(parse(v, {"--width", "5", "--bogus", "--width", "6"}).ok());
    EXPECT_EQ(v.width, 5u);  // stops at the first error
}

TEST(SamplesCli, OptionalValues) {
    std::vector<std::string> seen;
    cli::Parser p("tool", "");
    bool verbose = false;
    p.flag("--verbose", "say more", verbose)
        .optionalValue(
            "--pick", "N", "pick one (default 0)",
            [&seen](const std::string& v) {
                long long n = 0;
                if (!v.empty() && !cli::parseInt(v, 0, 9, n)) return false;
                seen.push_back(v.empty() ? "default" : v);
                return true;
            },
            "an integer in [0, 9]");
    EXPECT_TRUE(p.parse(std::vector<std::string>{"--pick"}).ok());
    EXPECT_TRUE(p.parse(std::vector<std::string>{"--pick", "3"}).ok());
    EXPECT_TRUE(p.parse(std::vector<std::string>{"--pick=4"}).ok());
    EXPECT_TRUE(p.parse(std::vector<std::string>{"--pick", "--verbose"}).ok());  // the next option is no value
    EXPECT_TRUE(verbose);
    EXPECT_EQ(seen, (std::vector<std::string>{"default", "3", "4", "default"}));
    const auto bad = p.parse(std::vector<std::string>{"--pick", "x"});
    EXPECT_EQ(bad.error, "bad value 'x' for --pick (expected an integer in [0, 9])");
    EXPECT_NE(p.usage().find("--pick [N]"), std::string::npos) << p.usage();
}
