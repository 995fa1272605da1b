// Text and graphviz views of a compiled graph, for debugging and for tests to read.
#include <sstream>

#include "engine/graph/compile.h"
#include "engine/graph/names.h"

namespace engine::graph {

namespace {

const char* lifetimeName(sieve::Lifetime l) {
    switch (l) {
        case sieve::Lifetime::Imported: return "imported";
        case sieve::Lifetime::Transient: return "transient";
        case sieve::Lifetime::Persistent: return "persistent";
    }
    return "?";
}

std::string slotName(const CompiledGraph& g, SlotId s) {
    return s < g.slots.size() ? g.slots[s].desc.name : "?";
}

void writeBarriers(std::ostream& os, const CompiledGraph& g, const Barriers& b) {
    for (const BufferBarrier& x : b.buffers)
        os << "    barrier buffer " << slotName(g, x.slot) << ": " << stageNames(x.srcStage) << "/"
           << accessNames(x.srcAccess) << " -> " << stageNames(x.dstStage) << "/" << accessNames(x.dstAccess) << "\n";
    for (const ImageBarrier& x : b.images)
        os << "    barrier image " << slotName(g, x.slot) << " mips [" << x.baseMip << "," << x.baseMip + x.mipCount
           << "): " << stageNames(x.dep.srcStage) << "/" << accessNames(x.dep.srcAccess) << " -> "
           << stageNames(x.dep.dstStage) << "/" << accessNames(x.dep.dstAccess) << ", " << layoutName(x.dep.oldLayout)
           << " -> " << layoutName(x.dep.newLayout) << "\n";
}

std::string text(const CompiledGraph& g) {
    std::ostringstream os;
    os << "render graph: " << g.passes.size() << " passes, " << g.culled.size() << " culled, " << g.slots.size()
       << " slots\n";
    for (size_t s = 0; s < g.slots.size(); ++s) {
        const sieve::SlotDesc& d = g.slots[s].desc;
        os << "slot " << s << " " << d.name << ": " << lifetimeName(d.lifetime) << " ";
        if (d.kind == sieve::SlotKind::Buffer)
            os << "buffer, " << d.size << " bytes";
        else
            os << "image " << d.extent.width << "x" << d.extent.height << ", " << d.mipLevels << " mip(s)";
        os << (g.slots[s].used ? "" : ", unused") << "\n";
    }
    for (const CompiledPass& p : g.passes) {
        os << "pass " << p.desc.name << (p.desc.graphics ? " (graphics)" : "")
           << (p.desc.sideEffect ? " (side effect)" : "") << "\n";
        writeBarriers(os, g, p.before);
        for (const sieve::ResourceUse& u : p.desc.uses)
            os << "    " << (u.write ? "writes " : "reads ") << slotName(g, u.slot) << " at " << stageNames(u.stage)
               << "/" << accessNames(u.access) << "\n";
    }
    for (const std::string& name : g.culled) os << "culled " << name << "\n";
    if (!g.final.empty()) {
        os << "end of frame\n";
        writeBarriers(os, g, g.final);
    }
    return os.str();
}

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// Passes are boxes, slots ellipses; an edge pass -> slot is a write, slot -> pass a read.
std::string graphviz(const CompiledGraph& g) {
    std::ostringstream os;
    os << "digraph render_graph {\n  rankdir=LR;\n";
    for (size_t s = 0; s < g.slots.size(); ++s)
        if (g.slots[s].used)
            os << "  s" << s << " [shape=ellipse, label="
               << quoted(g.slots[s].desc.name + "\\n" + lifetimeName(g.slots[s].desc.lifetime)) << "];\n";
    for (size_t p = 0; p < g.passes.size(); ++p) {
        const CompiledPass& pass = g.passes[p];
        os << "  p" << p << " [shape=box, label=" << quoted(pass.desc.name) << "];\n";
        for (const sieve::ResourceUse& u : pass.desc.uses) {
            std::string label = quoted(accessNames(u.access));
            if (u.write)
                os << "  p" << p << " -> s" << u.slot << " [label=" << label << "];\n";
            else
                os << "  s" << u.slot << " -> p" << p << " [label=" << label << "];\n";
        }
    }
    for (size_t c = 0; c < g.culled.size(); ++c)
        os << "  c" << c << " [shape=box, style=dashed, label=" << quoted(g.culled[c] + " (culled)") << "];\n";
    os << "}\n";
    return os.str();
}

}  // namespace

std::string dump(const CompiledGraph& graph, Format format) {
    return format == Format::Text ? text(graph) : graphviz(graph);
}

}  // namespace engine::graph
