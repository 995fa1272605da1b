#pragma once
// Private to the glTF loader: reading the files a glTF names (external buffers and images), regular files only.
#include <string>
#include <vector>

namespace sieve::assets::gltf {

// A tinygltf::ReadWholeFileFunction that refuses what is not a regular file. tinygltf's own reader sizes a
// directory or a device by tellg (-1) and asks for an allocation of 2^63 bytes, and a stream reading a
// directory throws std::ios_base::failure from inside its buffer (both found by the fuzzer: a buffer uri and
// an image uri naming a directory). Appends a message with a newline to *err on failure.
bool readRegularFile(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user);

}  // namespace sieve::assets::gltf
