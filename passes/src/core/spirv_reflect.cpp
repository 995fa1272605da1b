// A small SPIR-V reader in the spirit of niagara's parseShader. Two passes over the words: the first
// records where each id is defined and how it is decorated (decorations come before the types they
// name), the second maps variables to descriptor types and sizes the push block. Every operand read is
// checked against its instruction's word count and every id against the module's bound, so malformed
// input is an error, never an out-of-bounds read.
#include "core/spirv_reflect.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace sieve::spirv {

namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kMaxBound = 1u << 22;  // far above any shader of ours; bounds the id table we allocate
constexpr int kMaxTypeDepth = 16;         // nesting of arrays/structs; also stops cycles in bad input

// The opcodes, decorations and enumerants used below (SPIR-V 1.6 specification, section 3).
enum Op : uint32_t {
    OpEntryPoint = 15,
    OpCapability = 17,
    OpExecutionMode = 16,
    OpTypeBool = 20,
    OpTypeInt = 21,
    OpTypeFloat = 22,
    OpTypeVector = 23,
    OpTypeMatrix = 24,
    OpTypeImage = 25,
    OpTypeSampler = 26,
    OpTypeSampledImage = 27,
    OpTypeArray = 28,
    OpTypeRuntimeArray = 29,
    OpTypeStruct = 30,
    OpTypePointer = 32,
    OpConstant = 43,
    OpConstantComposite = 44,
    OpSpecConstant = 50,
    OpSpecConstantComposite = 51,
    OpVariable = 59,
    OpDecorate = 71,
    OpMemberDecorate = 72,
    OpExecutionModeId = 331,
    OpTypeAccelerationStructureKHR = 5341,
};
enum Decoration : uint32_t {
    SpecId = 1,
    Block = 2,
    BufferBlock = 3,
    RowMajor = 4,
    ArrayStride = 6,
    MatrixStride = 7,
    BuiltIn = 11,
    Binding = 33,
    DescriptorSet = 34,
    Offset = 35,
};
constexpr uint32_t kBuiltInWorkgroupSize = 25;
constexpr uint32_t kModeLocalSize = 17, kModeLocalSizeId = 38;
constexpr uint32_t kDimBuffer = 5, kDimSubpassData = 6;
enum Storage : uint32_t { UniformConstant = 0, Uniform = 2, PushConstant = 9, StorageBuffer = 12 };

struct Member {
    uint32_t offset = UINT32_MAX;
    uint32_t matrixStride = 0;
    bool rowMajor = false;
};

struct Id {
    uint32_t op = 0;
    std::span<const uint32_t> inst;  // the defining instruction, opcode word included
    int64_t set = -1, binding = -1, specId = -1;
    uint32_t arrayStride = 0;
    bool block = false, bufferBlock = false, workgroupSize = false;
    std::vector<Member> members;
};

Error fail(const std::string& what) {
    return makeError(VK_ERROR_INVALID_SHADER_NV, "SPIR-V: " + what);
}

class Reader {
public:
    explicit Reader(std::span<const uint32_t> words) : words_(words) {}

    Result<ShaderInfo> run() {
        if (words_.size() < 5) return fail("shorter than its 5-word header");
        if (words_[0] != kMagic) return fail("bad magic number (not SPIR-V, or the other byte order)");
        const uint32_t bound = words_[3];
        if (bound == 0 || bound > kMaxBound) return fail("id bound " + std::to_string(bound) + " out of range");
        ids_.resize(bound);
        if (auto r = scan(); !r) return r.error();
        return resolve();
    }

private:
    std::span<const uint32_t> words_;
    std::vector<Id> ids_;
    std::vector<std::span<const uint32_t>> entryPoints_, modes_;
    std::vector<uint32_t> variables_;
    std::vector<uint32_t> capabilities_, builtIns_;

    // Operand k (0 = the word after the opcode) of `inst`, or an error when the instruction is shorter.
    static Result<uint32_t> arg(std::span<const uint32_t> inst, size_t k) {
        if (k + 1 >= inst.size()) return fail("opcode " + std::to_string(inst[0] & 0xffff) + " is missing operands");
        return inst[k + 1];
    }
    Result<Id*> id(uint32_t value) {
        if (value >= ids_.size()) return fail("id " + std::to_string(value) + " is not below the bound");
        return &ids_[value];
    }

    Result<void> scan() {
        for (size_t at = 5; at < words_.size();) {
            const uint32_t count = words_[at] >> 16, op = words_[at] & 0xffff;
            if (count == 0) return fail("zero-length instruction at word " + std::to_string(at));
            if (count > words_.size() - at)
                return fail("instruction at word " + std::to_string(at) + " runs past the end");
            const std::span<const uint32_t> inst = words_.subspan(at, count);
            at += count;
            if (auto r = record(op, inst); !r) return r;
        }
        return {};
    }

    Result<void> record(uint32_t op, std::span<const uint32_t> inst) {
        switch (op) {
            case OpEntryPoint: entryPoints_.push_back(inst); return {};
            case OpExecutionMode:
            case OpExecutionModeId: modes_.push_back(inst); return {};
            case OpDecorate: return decorate(inst);
            case OpMemberDecorate: return decorateMember(inst);
            case OpCapability: return listed(inst, 0, capabilities_);
            default: break;
        }
        // Instructions that define an id used below: types (result is operand 0), constants and
        // variables (result is operand 1, after the result type).
        const bool isType = op >= OpTypeBool && op <= OpTypePointer;
        const bool isValue = op == OpConstant || op == OpConstantComposite || op == OpSpecConstant ||
                             op == OpSpecConstantComposite || op == OpVariable;
        if (!isType && !isValue && op != OpTypeAccelerationStructureKHR) return {};
        auto result = arg(inst, isValue ? 1 : 0);
        if (!result) return result.error();
        auto target = id(*result);
        if (!target) return target.error();
        (*target)->op = op;
        (*target)->inst = inst;
        if (op == OpVariable) variables_.push_back(*result);
        return {};
    }

    // Operand k of `inst` appended to `to` once.
    static Result<void> listed(std::span<const uint32_t> inst, size_t k, std::vector<uint32_t>& to) {
        auto v = arg(inst, k);
        if (!v) return v.error();
        if (std::find(to.begin(), to.end(), *v) == to.end()) to.push_back(*v);
        return {};
    }

    Result<void> decorate(std::span<const uint32_t> inst) {
        auto target = arg(inst, 0), what = arg(inst, 1);
        if (!target || !what) return fail("OpDecorate is missing operands");
        auto t = id(*target);
        if (!t) return t.error();
        Id& d = **t;
        auto literal = [&](auto& out) -> Result<void> {
            auto v = arg(inst, 2);
            if (!v) return v.error();
            out = *v;
            return {};
        };
        switch (*what) {
            case Block: d.block = true; return {};
            case BufferBlock: d.bufferBlock = true; return {};
            case DescriptorSet: return literal(d.set);
            case Binding: return literal(d.binding);
            case SpecId: return literal(d.specId);
            case ArrayStride: return literal(d.arrayStride);
            case BuiltIn: {
                auto v = arg(inst, 2);
                if (!v) return v.error();
                d.workgroupSize = d.workgroupSize || *v == kBuiltInWorkgroupSize;
                return listed(inst, 2, builtIns_);
            }
            default: return {};
        }
    }

    Result<void> decorateMember(std::span<const uint32_t> inst) {
        auto target = arg(inst, 0), index = arg(inst, 1), what = arg(inst, 2);
        if (!target || !index || !what) return fail("OpMemberDecorate is missing operands");
        auto t = id(*target);
        if (!t) return t.error();
        // A member index is below the struct's operand count, itself below the module's word count.
        if (*index >= words_.size()) return fail("OpMemberDecorate member index out of range");
        std::vector<Member>& members = (*t)->members;
        if (members.size() <= *index) members.resize(*index + 1);
        Member& m = members[*index];
        if (*what == RowMajor) m.rowMajor = true;
        if (*what == BuiltIn) return listed(inst, 3, builtIns_);
        if (*what != Offset && *what != MatrixStride) return {};
        auto v = arg(inst, 3);
        if (!v) return v.error();
        (*what == Offset ? m.offset : m.matrixStride) = *v;
        return {};
    }

    // The definition of `value` when it is one of `ops`.
    Result<const Id*> expect(uint32_t value, std::initializer_list<uint32_t> ops, const char* what) {
        auto d = id(value);
        if (!d) return d.error();
        if (std::find(ops.begin(), ops.end(), (*d)->op) == ops.end())
            return fail("id " + std::to_string(value) + " is not " + what);
        return *d;
    }

    // A 32-bit integer constant (a specialization constant gives its default and its SpecId).
    Result<LocalSizeDim> constant(uint32_t value) {
        auto c = expect(value, {OpConstant, OpSpecConstant}, "an integer constant");
        if (!c) return c.error();
        auto v = arg((*c)->inst, 2);
        if (!v) return v.error();
        return LocalSizeDim{*v, (*c)->op == OpSpecConstant ? int32_t((*c)->specId) : -1};
    }

    Result<ShaderInfo> resolve() {
        ShaderInfo info;
        if (entryPoints_.size() != 1)
            return fail("expected one entry point, found " + std::to_string(entryPoints_.size()));
        auto model = arg(entryPoints_[0], 0), entry = arg(entryPoints_[0], 1);
        if (!model || !entry) return fail("OpEntryPoint is missing operands");
        switch (*model) {
            case 0: info.stage = VK_SHADER_STAGE_VERTEX_BIT; break;
            case 4: info.stage = VK_SHADER_STAGE_FRAGMENT_BIT; break;
            case 5: info.stage = VK_SHADER_STAGE_COMPUTE_BIT; break;
            case 5365: info.stage = VK_SHADER_STAGE_MESH_BIT_EXT; break;  // MeshEXT
            default: return fail("unsupported execution model " + std::to_string(*model));
        }
        if (auto r = localSize(*entry, info); !r) return r.error();
        for (uint32_t v : variables_)
            if (auto r = variable(v, info); !r) return r.error();
        info.capabilities = capabilities_;
        info.builtIns = builtIns_;
        return merge(info);
    }

    Result<void> localSize(uint32_t entry, ShaderInfo& info) {
        for (std::span<const uint32_t> m : modes_) {
            auto target = arg(m, 0), mode = arg(m, 1);
            if (!target || !mode) return fail("OpExecutionMode is missing operands");
            if (*target != entry || (*mode != kModeLocalSize && *mode != kModeLocalSizeId)) continue;
            for (size_t d = 0; d < 3; ++d) {
                auto v = arg(m, 2 + d);
                if (!v) return v.error();
                if (*mode == kModeLocalSize) {
                    info.localSize[d] = {*v, -1};
                } else {
                    auto c = constant(*v);
                    if (!c) return c.error();
                    info.localSize[d] = *c;
                }
            }
        }
        // A WorkgroupSize built-in (local_size_x_id in GLSL) overrides the execution mode.
        for (uint32_t i = 0; i < ids_.size(); ++i) {
            if (!ids_[i].workgroupSize) continue;
            auto c = expect(i, {OpConstantComposite, OpSpecConstantComposite}, "a workgroup size composite");
            if (!c) return c.error();
            for (size_t d = 0; d < 3; ++d) {
                auto v = arg((*c)->inst, 2 + d);
                if (!v) return v.error();
                auto dim = constant(*v);
                if (!dim) return dim.error();
                info.localSize[d] = *dim;
            }
        }
        return {};
    }

    Result<void> variable(uint32_t v, ShaderInfo& info) {
        const Id& var = ids_[v];
        auto ptrType = arg(var.inst, 0), storage = arg(var.inst, 2);
        if (!ptrType || !storage) return fail("OpVariable is missing operands");
        if (*storage != UniformConstant && *storage != Uniform && *storage != StorageBuffer && *storage != PushConstant)
            return {};  // inputs, outputs, workgroup and private memory: no descriptor
        auto ptr = expect(*ptrType, {OpTypePointer}, "a pointer type");
        if (!ptr) return ptr.error();
        auto pointee = arg((*ptr)->inst, 2);
        if (!pointee) return pointee.error();
        if (*storage == PushConstant) {
            if (info.pushConstantBytes) return fail("more than one push-constant block");
            auto size = sizeOf(*pointee, Member{}, 0);
            if (!size) return size.error();
            info.pushConstantBytes = *size;
            return {};
        }
        const std::string name = "variable " + std::to_string(v);
        if (var.set < 0 || var.binding < 0) return fail(name + " has no descriptor set or binding");
        DescriptorBinding b;
        b.set = uint32_t(var.set);
        b.binding = uint32_t(var.binding);
        b.stages = info.stage;
        auto type = descriptorType(*pointee, *storage, b.count, 0);
        if (!type) return fail(name + " (binding " + std::to_string(b.binding) + "): " + type.error().message);
        b.type = *type;
        info.bindings.push_back(b);
        return {};
    }

    Result<VkDescriptorType> descriptorType(uint32_t type, uint32_t storage, uint32_t& count, int depth) {
        if (depth > kMaxTypeDepth) return fail("types nest too deeply");
        auto t = id(type);
        if (!t) return t.error();
        const Id& d = **t;
        switch (d.op) {
            case OpTypeArray: {
                auto elem = arg(d.inst, 1), length = arg(d.inst, 2);
                if (!elem || !length) return fail("OpTypeArray is missing operands");
                auto n = constant(*length);
                if (!n) return n.error();
                count *= n->value;
                return descriptorType(*elem, storage, count, depth + 1);
            }
            case OpTypeRuntimeArray: return fail("runtime-sized descriptor arrays are not supported");
            case OpTypeStruct:
                if (storage == StorageBuffer || (storage == Uniform && d.bufferBlock))
                    return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
                if (storage == Uniform && d.block) return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
                return fail("a struct that is neither a uniform nor a storage block");
            case OpTypeSampler: return VK_DESCRIPTOR_TYPE_SAMPLER;
            case OpTypeAccelerationStructureKHR: return VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR;
            case OpTypeSampledImage: {
                auto image = arg(d.inst, 1);
                if (!image) return image.error();
                auto img = expect(*image, {OpTypeImage}, "an image type");
                if (!img) return img.error();
                auto dim = arg((*img)->inst, 2);
                if (!dim) return dim.error();
                return *dim == kDimBuffer ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                                          : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
            }
            case OpTypeImage: {
                auto dim = arg(d.inst, 2), sampled = arg(d.inst, 6);
                if (!dim || !sampled) return fail("OpTypeImage is missing operands");
                if (*dim == kDimSubpassData) return VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
                if (*sampled == 1)
                    return *dim == kDimBuffer ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                                              : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
                if (*sampled == 2)
                    return *dim == kDimBuffer ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                                              : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
                return fail("an image whose use (sampled or storage) is known only at run time");
            }
            default: return fail("a type (opcode " + std::to_string(d.op) + ") that maps to no descriptor");
        }
    }

    // Bytes the type occupies in a block laid out by explicit Offset/ArrayStride/MatrixStride
    // decorations: a struct ends where its last member ends; `member` holds the matrix decorations.
    Result<uint32_t> sizeOf(uint32_t type, const Member& member, int depth) {
        if (depth > kMaxTypeDepth) return fail("types nest too deeply");
        auto t = id(type);
        if (!t) return t.error();
        const Id& d = **t;
        switch (d.op) {
            case OpTypeInt:
            case OpTypeFloat: {
                auto width = arg(d.inst, 1);
                if (!width) return width.error();
                return *width / 8;
            }
            case OpTypeVector: {
                auto comp = arg(d.inst, 1), n = arg(d.inst, 2);
                if (!comp || !n) return fail("OpTypeVector is missing operands");
                auto size = sizeOf(*comp, member, depth + 1);
                if (!size) return size.error();
                return *size * *n;
            }
            case OpTypeMatrix: {
                auto column = arg(d.inst, 1), columns = arg(d.inst, 2);
                if (!column || !columns) return fail("OpTypeMatrix is missing operands");
                auto col = expect(*column, {OpTypeVector}, "a vector type");
                if (!col) return col.error();
                auto rows = arg((*col)->inst, 2);
                if (!rows) return rows.error();
                if (!member.matrixStride) return fail("a matrix in a block without MatrixStride");
                return (member.rowMajor ? *rows : *columns) * member.matrixStride;
            }
            case OpTypeArray: {
                auto length = arg(d.inst, 2);
                if (!length) return length.error();
                auto n = constant(*length);
                if (!n) return n.error();
                if (!d.arrayStride) return fail("an array in a block without ArrayStride");
                return n->value * d.arrayStride;
            }
            case OpTypeStruct: {
                uint32_t end = 0;
                for (size_t m = 0; m + 2 < d.inst.size(); ++m) {
                    const Member deco = m < d.members.size() ? d.members[m] : Member{};
                    if (deco.offset == UINT32_MAX) return fail("a block member without Offset");
                    auto size = sizeOf(d.inst[m + 2], deco, depth + 1);
                    if (!size) return size.error();
                    end = std::max(end, deco.offset + *size);
                }
                return end;
            }
            default: return fail("a push-constant member type (opcode " + std::to_string(d.op) + ") without a size");
        }
    }

    // Aliases (two blocks at one binding, e.g. uint and uvec4 views of a buffer) become one binding.
    static Result<ShaderInfo> merge(ShaderInfo info) {
        const ShaderInfo* one[] = {&info};
        auto merged = mergeBindings(one);
        if (!merged) return merged.error();
        info.bindings = std::move(merged).value();
        return info;
    }
};

}  // namespace

std::array<uint32_t, 3> ShaderInfo::resolveLocalSize(std::span<const uint32_t> specialization) const {
    std::array<uint32_t, 3> size{};
    for (size_t d = 0; d < 3; ++d) {
        const LocalSizeDim& dim = localSize[d];
        const bool special = dim.specId >= 0 && size_t(dim.specId) < specialization.size();
        size[d] = special ? specialization[size_t(dim.specId)] : dim.value;
    }
    return size;
}

Result<ShaderInfo> reflect(std::span<const uint32_t> words) {
    return Reader(words).run();
}

Result<std::vector<DescriptorBinding>> mergeBindings(std::span<const ShaderInfo* const> stages) {
    std::vector<DescriptorBinding> all;
    for (const ShaderInfo* s : stages) all.insert(all.end(), s->bindings.begin(), s->bindings.end());
    std::stable_sort(all.begin(), all.end(), [](const DescriptorBinding& a, const DescriptorBinding& b) {
        return a.set != b.set ? a.set < b.set : a.binding < b.binding;
    });
    std::vector<DescriptorBinding> out;
    for (const DescriptorBinding& b : all) {
        if (out.empty() || out.back().set != b.set || out.back().binding != b.binding) {
            out.push_back(b);
            continue;
        }
        DescriptorBinding& prev = out.back();
        if (prev.type != b.type || prev.count != b.count)
            return fail("set " + std::to_string(b.set) + " binding " + std::to_string(b.binding) +
                        " is declared with two different descriptor types or counts");
        prev.stages |= b.stages;
    }
    return out;
}

Result<std::vector<VkDescriptorSetLayoutBinding>> setLayoutBindings(std::span<const DescriptorBinding> bindings,
                                                                    std::string_view shader) {
    std::vector<VkDescriptorSetLayoutBinding> out;
    for (const DescriptorBinding& b : bindings) {
        if (b.set != 0)
            return fail(std::string(shader) + ": binding " + std::to_string(b.binding) + " is in set " +
                        std::to_string(b.set) + "; pipelines push set 0 only");
        out.push_back({b.binding, b.type, b.count, b.stages, nullptr});
    }
    return out;
}

Result<void> checkPushSize(uint32_t shaderBytes, uint32_t cppBytes, std::string_view shader) {
    if (shaderBytes == cppBytes) return {};
    return makeError(VK_ERROR_INITIALIZATION_FAILED, std::string(shader) + ": the shader's push-constant block is " +
                                                         std::to_string(shaderBytes) + " bytes, the C++ side pushes " +
                                                         std::to_string(cppBytes));
}

}  // namespace sieve::spirv
