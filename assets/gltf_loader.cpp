#include "assets/gltf_loader.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <iterator>
#include <limits>
#include <optional>

#include "assets/gltf_accessor.h"
#include "assets/gltf_camera.h"
#include "assets/gltf_draco.h"
#include "assets/gltf_extensions.h"
#include "assets/gltf_files.h"
#include "assets/gltf_images.h"
#include "assets/gltf_instancing.h"
#include "assets/gltf_materials.h"
#include "assets/gltf_meshopt.h"
#include "assets/gltf_notes.h"
#include "assets/gltf_prepare.h"
#include "assets/mesh_builder.h"
#include "assets/mirrored_mesh.h"

namespace sieve::assets {
namespace {

constexpr uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr uint32_t kGlbJson = 0x4E4F534A;   // "JSON"

uint32_t readU32(const uint8_t* p) {
    return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}

// Checks the GLB container before tinygltf sees it: header, declared length, JSON chunk bounds.
std::string checkGlbHeader(std::span<const uint8_t> b) {
    if (b.size() < 20) return "GLB file is truncated (" + std::to_string(b.size()) + " bytes, header needs 20)";
    if (b.size() > std::numeric_limits<uint32_t>::max()) return "GLB file is larger than 4 GiB";
    if (readU32(&b[4]) != 2) return "GLB version " + std::to_string(readU32(&b[4])) + " is not 2";
    uint64_t length = readU32(&b[8]);
    if (length > b.size())
        return "GLB file is truncated (header says " + std::to_string(length) + " bytes, file has " +
               std::to_string(b.size()) + ")";
    uint64_t jsonLength = readU32(&b[12]);
    if (readU32(&b[16]) != kGlbJson) return "GLB first chunk is not JSON";
    if (20 + jsonLength > length) return "GLB JSON chunk exceeds the file";
    // A BIN chunk after the JSON: its length counts from after its own 8-byte header. tinygltf 2.7 checks it
    // without that header and would read up to 8 bytes past the file (found by the fuzzer).
    const uint64_t binAt = 20 + jsonLength;
    if (binAt < length) {
        if (binAt + 8 > length) return "GLB BIN chunk header is truncated";
        const uint64_t binLength = readU32(&b[binAt]);
        if (binAt + 8 + binLength > length)
            return "GLB BIN chunk (" + std::to_string(binLength) + " bytes) exceeds the file";
    }
    return {};
}

bool finiteMatrix(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r])) return false;
    return true;
}

Expected<glm::mat4> localTransform(const tinygltf::Node& node, size_t index) {
    std::string where = "node " + std::to_string(index) + ": ";
    if (!node.matrix.empty()) {
        if (node.matrix.size() != 16) return Unexpected{where + "matrix does not have 16 numbers"};
        glm::mat4 m;
        for (int i = 0; i < 16; ++i) m[i / 4][i % 4] = float(node.matrix[size_t(i)]);  // column-major
        return m;
    }
    if (!node.translation.empty() && node.translation.size() != 3) return Unexpected{where + "bad translation"};
    if (!node.rotation.empty() && node.rotation.size() != 4) return Unexpected{where + "bad rotation"};
    if (!node.scale.empty() && node.scale.size() != 3) return Unexpected{where + "bad scale"};
    glm::mat4 m(1.0f);
    if (!node.translation.empty())
        m = glm::translate(m, glm::vec3(node.translation[0], node.translation[1], node.translation[2]));
    if (!node.rotation.empty()) {
        glm::quat q(float(node.rotation[3]), float(node.rotation[0]), float(node.rotation[1]), float(node.rotation[2]));
        float len = glm::length(q);
        if (!(len > 0.0f) || !std::isfinite(len)) return Unexpected{where + "rotation is not a valid quaternion"};
        m *= glm::mat4_cast(q / len);
    }
    if (!node.scale.empty()) m = glm::scale(m, glm::vec3(node.scale[0], node.scale[1], node.scale[2]));
    return m;
}

const char* modeName(int mode) {
    switch (mode) {
        case TINYGLTF_MODE_POINTS: return "points";
        case TINYGLTF_MODE_LINE: return "lines";
        case TINYGLTF_MODE_LINE_LOOP: return "line loop";
        case TINYGLTF_MODE_LINE_STRIP: return "line strip";
        case TINYGLTF_MODE_TRIANGLE_STRIP: return "triangle strip";
        case TINYGLTF_MODE_TRIANGLE_FAN: return "triangle fan";
        default: return "unknown";
    }
}

// Progress through the meshes: indices of triangle primitives done, out of all of them.
struct MeshProgress {
    const LoadProgressFn* fn = nullptr;
    uint64_t total = 0, done = 0;
    void report(uint64_t current = 0, float within = 0.0f) const {
        if (fn && *fn && total > 0) (*fn)("meshes", float((double(done) + double(current) * within) / double(total)));
    }
};

// The index count a triangle primitive will have (its indices, or its vertices without them).
uint64_t triangleIndexCount(const tinygltf::Model& model, const tinygltf::Primitive& prim) {
    if (prim.mode != TINYGLTF_MODE_TRIANGLES) return 0;
    int accessor = prim.indices;
    if (accessor < 0)
        if (auto pos = prim.attributes.find("POSITION"); pos != prim.attributes.end()) accessor = pos->second;
    return accessor >= 0 && size_t(accessor) < model.accessors.size() ? model.accessors[size_t(accessor)].count : 0;
}

// An optional vertex attribute of a primitive read by `read` (empty when the primitive has none), one value per
// position.
template <class Vec>
Expected<std::vector<Vec>> optionalAttribute(const tinygltf::Model& model, const tinygltf::Primitive& prim,
                                             const std::string& name, gltf::Semantic semantic, size_t positions,
                                             Expected<std::vector<Vec>> (*read)(const tinygltf::Model&, int,
                                                                                gltf::Semantic)) {
    auto it = prim.attributes.find(name);
    if (it == prim.attributes.end()) return std::vector<Vec>{};
    auto values = read(model, it->second, semantic);
    if (!values) return Unexpected{name + " " + values.error()};
    if (values->size() != positions) return Unexpected{name + " count differs from POSITION count"};
    return values;
}

// Builds one Mesh from a glTF mesh; nothing when it has no triangle primitive.
Expected<std::optional<uint32_t>> buildMesh(const tinygltf::Model& model, size_t index, SceneData& scene,
                                            gltf::Notes& notes, MeshProgress& progress) {
    const tinygltf::Mesh& mesh = model.meshes[index];
    std::string meshName = "mesh " + std::to_string(index) + (mesh.name.empty() ? "" : " '" + mesh.name + "'");
    uint64_t current = 0;
    LodSettings settings;
    if (progress.fn && *progress.fn)
        settings.onLevel = [&](uint32_t levels, uint32_t maxLevels) {
            progress.report(current, float(levels) / float(std::max(maxLevels, 1u)));
        };
    MeshBuilder builder(settings);
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
        const tinygltf::Primitive& prim = mesh.primitives[p];
        std::string where = meshName + " primitive " + std::to_string(p) + ": ";
        current = triangleIndexCount(model, prim);
        if (prim.mode != TINYGLTF_MODE_TRIANGLES) {
            notes.add("primitives of mode " + std::to_string(prim.mode) + " (" + modeName(prim.mode) +
                      ") are not a triangle list, skipped");
            continue;
        }
        auto pos = prim.attributes.find("POSITION");
        if (pos == prim.attributes.end()) return Unexpected{where + "has no POSITION attribute"};
        auto positions = gltf::readVec3(model, pos->second, gltf::Semantic::Position);
        if (!positions) return Unexpected{where + "POSITION " + positions.error()};
        auto normals =
            optionalAttribute(model, prim, "NORMAL", gltf::Semantic::Normal, positions->size(), gltf::readVec3);
        if (!normals) return Unexpected{where + normals.error()};
        auto uvs =
            optionalAttribute(model, prim, "TEXCOORD_0", gltf::Semantic::Texcoord, positions->size(), gltf::readVec2);
        if (!uvs) return Unexpected{where + uvs.error()};
        std::vector<uint32_t> indices;
        if (prim.indices >= 0) {
            auto read = gltf::readIndices(model, prim.indices);
            if (!read) return Unexpected{where + "indices: " + read.error()};
            indices = std::move(read).value();
            if (indices.empty()) {
                notes.add("primitives with an empty index accessor are skipped");
                continue;
            }
        } else if (positions->size() < 3) {
            notes.add("primitives with fewer than 3 vertices are skipped");
            continue;
        }
        if (prim.material >= 0 && size_t(prim.material) >= model.materials.size())
            notes.add("primitives whose material does not exist use the default material");
        const uint32_t material = gltf::primitiveMaterial(model, prim);
        const uint32_t bin = gltf::materialBin(scene.materials[material]);
        auto added = builder.addPrimitive(PrimitiveInput{*positions, *normals, indices, material, bin, *uvs});
        if (!added) return Unexpected{where + added.error()};
        progress.done += current;
        progress.report();
    }
    if (builder.primitiveCount() == 0) {
        notes.add("meshes without triangle primitives are skipped");
        return std::optional<uint32_t>{};
    }
    auto id = builder.finish(scene, mesh.name.empty() ? "mesh" + std::to_string(index) : mesh.name);
    if (!id) return Unexpected{id.error()};
    return std::optional<uint32_t>{id.value()};
}

// glTF nodes must form a forest: every child index valid, at most one parent, no cycles.
Expected<std::vector<int64_t>> parentsOf(const tinygltf::Model& model) {
    size_t n = model.nodes.size();
    std::vector<int64_t> parent(n, -1);
    for (size_t i = 0; i < n; ++i)
        for (int child : model.nodes[i].children) {
            if (child < 0 || size_t(child) >= n)
                return Unexpected{"node " + std::to_string(i) + " has child " + std::to_string(child) +
                                  ", which does not exist"};
            if (size_t(child) == i)
                return Unexpected{"recursive node graph: node " + std::to_string(i) + " is its own child"};
            if (parent[size_t(child)] >= 0)
                return Unexpected{"node " + std::to_string(child) + " has more than one parent (" +
                                  std::to_string(parent[size_t(child)]) + " and " + std::to_string(i) + ")"};
            parent[size_t(child)] = int64_t(i);
        }
    // With one parent each, a cycle is a parent chain that returns to itself: walk each chain once.
    std::vector<uint8_t> state(n, 0);  // 0 unseen, 1 on the current walk, 2 known to reach a root
    for (size_t start = 0; start < n; ++start) {
        int64_t v = int64_t(start);
        while (v >= 0 && state[size_t(v)] == 0) state[size_t(v)] = 1, v = parent[size_t(v)];
        if (v >= 0 && state[size_t(v)] == 1)
            return Unexpected{"recursive node graph: node " + std::to_string(v) + " is its own ancestor"};
        for (v = int64_t(start); v >= 0 && state[size_t(v)] == 1; v = parent[size_t(v)]) state[size_t(v)] = 2;
    }
    return parent;
}

// One instance of `mesh` at `world`; a mirroring transform gets the mesh's twin with reversed winding.
Expected<bool> place(const glm::mat4& world, uint32_t mesh, SceneData& scene, MirroredMeshes& mirrored) {
    if (!finiteMatrix(world)) return Unexpected{"transform is not finite"};
    if (isMirroring(world)) {
        auto twin = mirrored.twinOf(scene, mesh);
        if (!twin) return Unexpected{twin.error()};
        mesh = *twin;
    }
    scene.addInstance(makeInstance(world, mesh, scene.meshes[mesh]));
    return true;
}

// The node's instances: one at its world transform, or one per EXT_mesh_gpu_instancing element.
Expected<bool> placeNode(const tinygltf::Model& model, const tinygltf::Node& node, const glm::mat4& world,
                         uint32_t mesh, SceneData& scene, MirroredMeshes& mirrored) {
    auto instances = gltf::readInstanceTransforms(model, node);
    if (!instances) return Unexpected{instances.error()};
    if (!*instances) return place(world, mesh, scene, mirrored);
    for (size_t i = 0; i < (*instances)->size(); ++i)
        if (auto placed = place(world * (**instances)[i], mesh, scene, mirrored); !placed)
            return Unexpected{"instance " + std::to_string(i) + ": " + placed.error()};
    return true;
}

// The root nodes of the default scene (scene 0 where it names none that exists), or every parentless node of
// a file without scenes; a root that does not exist or has a parent is an error.
Expected<std::vector<int>> sceneRoots(const tinygltf::Model& model, const std::vector<int64_t>& parents,
                                      gltf::Notes& notes) {
    std::vector<int> roots;
    if (model.scenes.empty()) {
        for (size_t i = 0; i < model.nodes.size(); ++i)
            if (parents[i] < 0) roots.push_back(int(i));
        return roots;
    }
    size_t s = 0;
    if (model.defaultScene >= 0 && size_t(model.defaultScene) < model.scenes.size())
        s = size_t(model.defaultScene);
    else if (model.defaultScene >= 0)
        notes.add("the default scene does not exist, using scene 0");
    roots = model.scenes[s].nodes;
    std::vector<uint8_t> seen(model.nodes.size(), 0);
    for (int r : roots) {
        if (r < 0 || size_t(r) >= model.nodes.size())
            return Unexpected{"scene " + std::to_string(s) + " refers to node " + std::to_string(r) +
                              ", which does not exist"};
        if (parents[size_t(r)] >= 0 || seen[size_t(r)])
            return Unexpected{"scene " + std::to_string(s) + ": node " + std::to_string(r) + " is not a unique root"};
        seen[size_t(r)] = 1;
    }
    return roots;
}

// What the walk of the node hierarchy carries from node to node.
struct NodeWalk {
    const tinygltf::Model& model;
    const std::vector<std::optional<uint32_t>>& meshIds;
    SceneData& scene;
    gltf::Notes& notes;
    MirroredMeshes mirrored;
    std::vector<uint8_t> cameraSeen;  // by camera: placed by a node already

    // Node `index` at `world`: its mesh's instances and its camera.
    Expected<bool> visit(const tinygltf::Node& node, int index, const glm::mat4& world) {
        if (node.mesh >= 0) {
            if (size_t(node.mesh) >= model.meshes.size())
                return Unexpected{"node " + std::to_string(index) + " refers to mesh " + std::to_string(node.mesh) +
                                  ", which does not exist"};
            if (const auto& id = meshIds[size_t(node.mesh)]; id)
                if (auto placed = placeNode(model, node, world, *id, scene, mirrored); !placed)
                    return Unexpected{"node " + std::to_string(index) + ": " + placed.error()};
        }
        if (node.camera >= 0) {
            if (size_t(node.camera) >= model.cameras.size())
                return Unexpected{"node " + std::to_string(index) + " refers to camera " + std::to_string(node.camera) +
                                  ", which does not exist"};
            // A camera placed by several nodes is seen from the first.
            if (!cameraSeen[size_t(node.camera)]) {
                cameraSeen[size_t(node.camera)] = 1;
                auto camera = gltf::readCamera(model, size_t(node.camera), size_t(index), world);
                if (camera)
                    scene.cameras.push_back(std::move(camera).value());
                else
                    notes.add(camera.error() + ": the camera is skipped");
            }
        }
        return true;
    }
};

Expected<bool> instantiateNodes(const tinygltf::Model& model, const std::vector<std::optional<uint32_t>>& meshIds,
                                SceneData& scene, gltf::Notes& notes) {
    auto parents = parentsOf(model);
    if (!parents) return Unexpected{parents.error()};
    auto roots = sceneRoots(model, *parents, notes);
    if (!roots) return Unexpected{roots.error()};
    // Iterative depth-first walk: a deep hierarchy cannot overflow the stack.
    struct Item {
        int node;
        glm::mat4 parentWorld;
        uint32_t depth;
    };
    std::vector<Item> stack;
    NodeWalk walk{model, meshIds, scene, notes, {}, std::vector<uint8_t>(model.cameras.size(), 0)};
    for (auto it = roots->rbegin(); it != roots->rend(); ++it) stack.push_back({*it, glm::mat4(1.0f), 1});
    while (!stack.empty()) {
        Item item = stack.back();
        stack.pop_back();
        if (item.depth > kMaxGltfNodeDepth)
            return Unexpected{"node hierarchy is deeper than " + std::to_string(kMaxGltfNodeDepth) + " levels"};
        const tinygltf::Node& node = model.nodes[size_t(item.node)];
        auto local = localTransform(node, size_t(item.node));
        if (!local) return Unexpected{local.error()};
        glm::mat4 world = item.parentWorld * *local;
        if (!finiteMatrix(world)) return Unexpected{"node " + std::to_string(item.node) + ": transform is not finite"};
        if (auto visited = walk.visit(node, item.node, world); !visited) return Unexpected{visited.error()};
        for (auto c = node.children.rbegin(); c != node.children.rend(); ++c)
            stack.push_back({*c, world, item.depth + 1});
    }
    for (uint8_t seen : walk.cameraSeen)
        if (!seen) notes.add("cameras that no node of the scene places are ignored");
    return true;
}

// Parses the container into `model` (images stay encoded, in `images`); returns an error message, empty on
// success.
std::string parseModel(std::span<const uint8_t> bytes, const std::string& baseDir, SceneData& scene,
                       tinygltf::Model& model, gltf::ImageBytes& images) {
    tinygltf::TinyGLTF loader;
    images.fileBytes = bytes.size();
    loader.SetImageLoader(gltf::captureImage, &images);
    loader.SetFsCallbacks(
        {&tinygltf::FileExists, &tinygltf::ExpandFilePath, &gltf::readRegularFile, &tinygltf::WriteWholeFile, nullptr});
    std::string err, warn;
    bool ok = false;
    bool glb = bytes.size() >= 4 && readU32(bytes.data()) == kGlbMagic;
    if (glb)
        if (std::string e = checkGlbHeader(bytes); !e.empty()) return e;
    std::optional<std::vector<uint8_t>> filled;
    try {
        auto prepared = gltf::prepareForTinygltf(bytes, glb);
        if (!prepared) return prepared.error();
        filled = std::move(prepared).value();
        if (filled) bytes = *filled;
        if (glb) {
            ok = loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), unsigned(bytes.size()), baseDir);
        } else {
            if (bytes.size() > std::numeric_limits<unsigned>::max()) return "file is larger than 4 GiB";
            ok = loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(bytes.data()),
                                            unsigned(bytes.size()), baseDir);
        }
    } catch (const std::exception& e) {
        return std::string("glTF parser failed: ") + e.what();
    }
    while (!warn.empty() && warn.back() == '\n') warn.pop_back();
    while (!err.empty() && err.back() == '\n') err.pop_back();
    if (!warn.empty()) scene.warnings.push_back(warn);
    if (!ok) return err.empty() ? std::string("glTF parser failed") : err;
    return {};
}

}  // namespace

Expected<SceneData> loadGltfFromMemory(std::span<const uint8_t> bytes, const std::string& name,
                                       const std::string& baseDir, const LoadProgressFn& progress) {
    SceneData scene;
    tinygltf::Model model;
    gltf::ImageBytes images;
    if (progress) progress("parsing", 0.0f);
    if (std::string e = parseModel(bytes, baseDir, scene, model, images); !e.empty())
        return Unexpected{name + ": " + e};
    if (progress) progress("parsing", 1.0f);
    if (std::string e = gltf::checkRequiredExtensions(model); !e.empty()) return Unexpected{name + ": " + e};
    gltf::Notes notes;
    gltf::noteIgnoredContent(model, notes);
    try {
        // Compressed data becomes plain buffers first, so that everything after reads plain accessors.
        if (std::string e = gltf::decodeMeshoptViews(model); !e.empty()) return Unexpected{name + ": " + e};
        if (std::string e = gltf::decodeDracoPrimitives(model); !e.empty()) return Unexpected{name + ": " + e};
        gltf::loadMaterials(model, images, baseDir, scene, notes);
        MeshProgress meshProgress{&progress};
        for (const tinygltf::Mesh& mesh : model.meshes)
            for (const tinygltf::Primitive& prim : mesh.primitives)
                meshProgress.total += triangleIndexCount(model, prim);
        meshProgress.report();
        std::vector<std::optional<uint32_t>> meshIds(model.meshes.size());
        for (size_t m = 0; m < model.meshes.size(); ++m) {
            auto id = buildMesh(model, m, scene, notes, meshProgress);
            if (!id) return Unexpected{name + ": " + id.error()};
            meshIds[m] = *id;
        }
        if (progress) progress("meshes", 1.0f);
        if (auto placed = instantiateNodes(model, meshIds, scene, notes); !placed)
            return Unexpected{name + ": " + placed.error()};
        if (progress) progress("nodes", 1.0f);
    } catch (const std::bad_alloc&) {
        return Unexpected{name + ": out of memory"};
    } catch (const std::exception& e) {
        // A library call that throws on input it dislikes: a message, never an escaping exception.
        return Unexpected{name + ": " + e.what()};
    }
    for (std::string& line : notes.lines()) scene.warnings.push_back(std::move(line));
    if (scene.instances.empty()) return Unexpected{name + ": no renderable triangles"};
    scene.updateBounds();
    if (std::string e = scene.validate(); !e.empty()) return Unexpected{name + ": " + e};
    return scene;
}

Expected<SceneData> loadGltf(const std::string& path, const LoadProgressFn& progress) {
    // Only regular files: a directory opens as an ifstream on Linux and reading it throws from inside the
    // stream buffer; opening a FIFO blocks until a writer appears.
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        return Unexpected{path + ": not a regular file" +
                          (std::filesystem::is_directory(status) ? std::string(" (a directory)") : std::string())};
    std::ifstream file(path, std::ios::binary);
    if (!file) return Unexpected{path + ": cannot open file"};
    std::vector<uint8_t> bytes;
    if (progress) progress("reading", 0.0f);
    try {
        // In one read where the size is known (a regular file); byte by byte otherwise.
        const auto size = std::filesystem::file_size(path, ec);
        if (!ec && size <= bytes.max_size()) {
            bytes.resize(size_t(size));
            file.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size()));
            bytes.resize(size_t(file.gcount()));
            if (file.eof()) file.clear();
        } else {
            bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
        }
    } catch (const std::exception& e) {
        return Unexpected{path + ": read error (" + e.what() + ")"};
    }
    if (file.bad()) return Unexpected{path + ": read error"};
    if (progress) progress("reading", 1.0f);
    size_t slash = path.find_last_of('/');
    std::string baseDir = slash == std::string::npos ? std::string(".") : path.substr(0, slash);
    return loadGltfFromMemory(bytes, path, baseDir, progress);
}

}  // namespace sieve::assets
