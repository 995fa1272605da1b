#pragma once
// Private to the glTF loader: KHR_draco_mesh_compression, decoded with Google's Draco (Debian's
// libdraco-dev).
#include <string>

#include "assets/tinygltf_config.h"

namespace sieve::assets::gltf {

// Decodes every triangle primitive with the extension and points its indices and the attributes the
// extension lists at new FLOAT (indices: UNSIGNED_INT) accessors over new buffers. Returns an error
// message, empty on success: a bufferView outside its buffer, data Draco cannot decode (or decodes to a
// point cloud), an attribute id the data does not have, an attribute the primitive does not list, or
// decoded data whose indices or value mappings point outside the decoded arrays.
std::string decodeDracoPrimitives(tinygltf::Model& model);

}  // namespace sieve::assets::gltf
