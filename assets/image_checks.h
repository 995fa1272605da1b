#pragma once
// Private to the glTF loader: checks of PNG and JPEG data that stb_image 2.27 (Debian's) trusts.
#include <cstdint>
#include <span>
#include <string>

namespace sieve::assets {

// Every Huffman table (DHT segment) of a JPEG defines at most 256 codes. stb_image 2.27 builds a table from
// its 16 code counts without checking their sum and writes past stbi__huffman::size[257] and values[256]
// when it exceeds 256 (found by the fuzzer with image seeds: UBSan "index 257 out of bounds",
// stb_image.h:1990; 2.28 refuses such a table). The segments are walked as stb_image reads them: junk and
// entropy-coded bytes between markers skipped, fill bytes, stuffed zeros and restart markers passed over,
// each segment skipped by its length; a DHT's tables are read even past its declared length, as stb_image
// does. Returns an error, empty when every table is valid or `data` is not a JPEG.
std::string checkJpegHuffmanTables(std::span<const uint8_t> data);

// Every chunk of a PNG up to IEND fits in the data. stb_image grows its IDAT buffer to a chunk's declared
// length (up to 2 GiB) before reading it, so 40 bytes could ask for gigabytes (found by the fuzzer with
// image seeds: a timeout in stbi__parse_png_file's realloc). Returns an error, empty when every chunk fits
// or `data` is not a PNG.
std::string checkPngChunks(std::span<const uint8_t> data);

}  // namespace sieve::assets
