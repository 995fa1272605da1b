// The draw records of one (stream, instance) key, written by the expansion (draw/expand.comp, both orders)
// and by the stable list folded into its scan (draw/list_scan.glsl).
// The includer declares meshes[], primitives[] and draws[] (DrawCommand).
//
// Instance i drew `count` records in stream (view, bin), starting at slot `local` of the stream: its
// mesh's primitives of that bin (bins >= binCount count as the last), in primitive order, at LOD
// min(lod, lodCount - 1). Slots at or beyond `capacity` are not written.
void writeInstanceDraws(uint i, uint meshIndex, uint bin, uint binCount, uint lod, uint local, uint count,
                        DrawStream stream) {
    const Mesh mesh = meshes[meshIndex];
    uint written = 0u;
    const uint table = uint(primitives.length());
    for (uint p = 0u; p < mesh.primitiveCount && written < count; ++p) {
        const uint primIndex = mesh.firstPrimitive + p;
        // Indices past the table (or wrapped around) are not primitives: counted as no draw
        // (cull/decide.glsl binDraws), never read.
        if (primIndex < mesh.firstPrimitive || primIndex >= table) break;
        const MeshPrimitive prim = primitives[primIndex];
        if (binCount > 1u && min(prim.bin, binCount - 1u) != bin) continue;
        const uint slot = local + written;
        ++written;
        if (slot >= stream.capacity) break;
        draws[stream.base + slot] = sievePrimitiveDraw(prim, primIndex, i, lod);
    }
}
