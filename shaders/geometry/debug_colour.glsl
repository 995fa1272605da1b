// Debug colouring shared by the default passes' fragment shaders: a colour per draw record (keyed by its
// first index, which is distinct for every cluster of a cluster list and every primitive/LOD otherwise),
// so that neighbouring clusters stand apart.
vec3 sieveKeyColour(uint key) {
    uint h = key * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return vec3(float(h & 255u), float((h >> 8) & 255u), float((h >> 16) & 255u)) / 255.0 * 0.8 + 0.2;
}
