#include "assets/gltf_materials.h"

#include <cmath>
#include <unordered_map>

#include "assets/bins.h"
#include "assets/gltf_value.h"
#include "assets/materials.h"

namespace sieve::assets::gltf {
namespace {

gpu::Material defaultMaterial() {
    return opaqueMaterial(glm::vec3(1.0f));  // glTF's default material: white, opaque, single-sided
}

float finiteOr(double v, float fallback) {
    return std::isfinite(v) ? float(v) : fallback;
}

// A finite number member, or `fallback`.
float numberMember(const tinygltf::Value& object, const char* key, float fallback) {
    if (!object.IsObject() || !object.Has(key) || !object.Get(key).IsNumber()) return fallback;
    return finiteOr(object.Get(key).GetNumberAsDouble(), fallback);
}

// Element i of a number-array member, or `fallback`.
float arrayMember(const tinygltf::Value& object, const char* key, int i, float fallback) {
    if (!object.IsObject() || !object.Has(key)) return fallback;
    const tinygltf::Value& a = object.Get(key);
    if (!a.IsArray() || a.ArrayLen() <= size_t(i) || !a.Get(i).IsNumber()) return fallback;
    return finiteOr(a.Get(i).GetNumberAsDouble(), fallback);
}

// KHR_texture_transform: uv' = T(offset) * R(rotation) * S(scale) * uv, as the two rows the vertex shader
// applies. gltfpack's quantized UVs rely on it (normalized integers scaled back to their range).
void applyTextureTransform(const tinygltf::Value& t, gpu::Material& m) {
    const float ox = arrayMember(t, "offset", 0, 0.0f), oy = arrayMember(t, "offset", 1, 0.0f);
    const float sx = arrayMember(t, "scale", 0, 1.0f), sy = arrayMember(t, "scale", 1, 1.0f);
    const float r = numberMember(t, "rotation", 0.0f);
    const float c = std::cos(r), s = std::sin(r);
    // The extension's GLSL builds mat3 rotation column by column: (c, s, 0), (-s, c, 0).
    m.uvRow0 = gpu::vec4(c * sx, -s * sy, ox, 0.0f);
    m.uvRow1 = gpu::vec4(s * sx, c * sy, oy, 0.0f);
}

// Texture slot of the pass's array for glTF texture `index` (1 + the SceneData texture), decoding its image
// on first use; SIEVE_TEXTURE_WHITE when it cannot be drawn.
class TextureTable {
public:
    TextureTable(const tinygltf::Model& model, const ImageBytes& images, const std::string& baseDir, SceneData& scene,
                 Notes& notes)
        : model_(model), images_(images), baseDir_(baseDir), scene_(scene), notes_(notes), budget_(images.fileBytes) {}

    // srgb: a colour texture (decoded to linear by the sampler); else a linear one (normal maps).
    uint32_t slotOf(int texture, bool srgb) {
        if (texture < 0 || size_t(texture) >= model_.textures.size()) {
            notes_.add("textures that do not exist are ignored");
            return gpu::SIEVE_TEXTURE_WHITE;
        }
        const int image = model_.textures[size_t(texture)].source;
        if (image < 0) {
            notes_.add(
                "textures without a PNG/JPEG source (e.g. KHR_texture_basisu, EXT_texture_webp) are drawn "
                "untextured");
            return gpu::SIEVE_TEXTURE_WHITE;
        }
        const int64_t key = int64_t(image) * 2 + (srgb ? 1 : 0);
        if (auto it = slots_.find(key); it != slots_.end()) return it->second;
        uint32_t slot = gpu::SIEVE_TEXTURE_WHITE;
        if (scene_.textures.size() + 1 >= gpu::SIEVE_MAX_TEXTURES) {
            notes_.add("more than " + std::to_string(gpu::SIEVE_MAX_TEXTURES - 1) +
                       " images: the others are drawn untextured");
        } else if (auto decoded = decodeImage(model_, images_, image, baseDir_, budget_); !decoded) {
            notes_.add("an image could not be decoded and is drawn untextured: " + decoded.error());
        } else {
            scene_.textures.push_back(std::move(decoded).value());
            scene_.textures.back().srgb = srgb;
            slot = uint32_t(scene_.textures.size());  // slot 0 is the white texture
        }
        slots_[key] = slot;
        return slot;
    }

private:
    const tinygltf::Model& model_;
    const ImageBytes& images_;
    const std::string& baseDir_;
    SceneData& scene_;
    Notes& notes_;
    PixelBudget budget_;
    std::unordered_map<int64_t, uint32_t> slots_;  // by image * 2 + srgb
};

// A texture reference the pass can draw: one given, on TEXCOORD_0 (KHR_texture_transform may override it).
bool readsTexCoord0(int index, int texCoord, const tinygltf::ExtensionMap& extensions, Notes& notes) {
    if (index < 0) return false;
    const tinygltf::Value* transform = extension(extensions, "KHR_texture_transform");
    if (transform && transform->IsObject() && transform->Has("texCoord"))
        texCoord = int(uintMember(*transform, "texCoord", 255).value_or(255));
    if (texCoord == 0) return true;
    notes.add("textures on TEXCOORD_" + std::to_string(texCoord) + " are ignored (only TEXCOORD_0 is read)");
    return false;
}

}  // namespace

void loadMaterials(const tinygltf::Model& model, const ImageBytes& images, const std::string& baseDir, SceneData& scene,
                   Notes& notes) {
    TextureTable textures(model, images, baseDir, scene, notes);
    scene.materials.clear();
    scene.materials.reserve(model.materials.size() + 1);
    for (const tinygltf::Material& src : model.materials) {
        gpu::Material m = defaultMaterial();
        const std::vector<double>& f = src.pbrMetallicRoughness.baseColorFactor;
        if (f.size() == 4)
            m.baseColorFactor =
                gpu::vec4(finiteOr(f[0], 1.0f), finiteOr(f[1], 1.0f), finiteOr(f[2], 1.0f), finiteOr(f[3], 1.0f));
        const tinygltf::TextureInfo& base = src.pbrMetallicRoughness.baseColorTexture;
        const tinygltf::Value* baseTransform = nullptr;
        if (readsTexCoord0(base.index, base.texCoord, base.extensions, notes)) {
            m.baseColorTexture = textures.slotOf(base.index, true);
            baseTransform = extension(base.extensions, "KHR_texture_transform");
            if (baseTransform) applyTextureTransform(*baseTransform, m);
        }
        const tinygltf::NormalTextureInfo& normal = src.normalTexture;
        if (readsTexCoord0(normal.index, normal.texCoord, normal.extensions, notes)) {
            m.normalTexture = textures.slotOf(normal.index, false);
            m.normalScale = finiteOr(normal.scale, 1.0f);
            // One UV transform per material: the base colour's, else the normal map's.
            const tinygltf::Value* t = extension(normal.extensions, "KHR_texture_transform");
            if (t && !baseTransform) applyTextureTransform(*t, m);
            if (baseTransform && (!t || !(*t == *baseTransform)))
                notes.add(
                    "a normal map's KHR_texture_transform differs from its base colour's: the base colour's is "
                    "used");
        }
        const tinygltf::TextureInfo& emissive = src.emissiveTexture;
        if (readsTexCoord0(emissive.index, emissive.texCoord, emissive.extensions, notes)) {
            // Drawn with the material's one UV transform (the base colour's, else the normal map's).
            m.emissiveTexture = textures.slotOf(emissive.index, true);
            const tinygltf::Value* t = extension(emissive.extensions, "KHR_texture_transform");
            if (t && !(baseTransform && *t == *baseTransform))
                notes.add("an emissive texture's KHR_texture_transform is ignored (the base colour's is used)");
        }
        if (src.occlusionTexture.index >= 0 || src.pbrMetallicRoughness.metallicRoughnessTexture.index >= 0)
            notes.add("occlusion and metallic-roughness textures are not drawn (Lambert shading uses neither)");
        if (src.alphaMode == "MASK")
            m.alphaMode = gpu::SIEVE_ALPHA_MASK;
        else if (src.alphaMode == "BLEND")
            m.alphaMode = gpu::SIEVE_ALPHA_BLEND;
        else if (!src.alphaMode.empty() && src.alphaMode != "OPAQUE")
            notes.add("alphaMode '" + src.alphaMode + "' is not a glTF alpha mode, drawn OPAQUE");
        if (src.emissiveFactor.size() == 3)
            m.emissive = gpu::vec4(finiteOr(src.emissiveFactor[0], 0.0f), finiteOr(src.emissiveFactor[1], 0.0f),
                                   finiteOr(src.emissiveFactor[2], 0.0f), 0.0f);
        m.alphaCutoff = finiteOr(src.alphaCutoff, 0.5f);
        m.doubleSided = src.doubleSided ? 1u : 0u;
        scene.materials.push_back(m);
    }
    scene.materials.push_back(defaultMaterial());
}

uint32_t primitiveMaterial(const tinygltf::Model& model, const tinygltf::Primitive& prim) {
    return prim.material >= 0 && size_t(prim.material) < model.materials.size() ? uint32_t(prim.material)
                                                                                : uint32_t(model.materials.size());
}

uint32_t materialBin(const gpu::Material& material) {
    return binOf(AlphaMode(material.alphaMode), material.doubleSided != 0);
}

}  // namespace sieve::assets::gltf
