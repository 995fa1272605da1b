// Compaction records. The shader declares `recOut` (uint v[]: the output records) and `payload`
// (uint v[]: u32 payloads, or 5-word draw command templates), and the MODE / HAS_PAYLOAD constants:
//   MODE 1: one u32 per record: payload[i], or the item index i when there is no payload buffer;
//   MODE 2: a VkDrawIndexedIndirectCommand (indexCount, instanceCount, firstIndex, vertexOffset,
//           firstInstance) copied from template i, with firstInstance = i.
// `local` indexes the bound payload chunk; `item` is the global item index.
void writeRecord(uint slot, uint local, uint item) {
    if (MODE == 2) {
        uint s = slot * 5, p = local * 5;
        recOut.v[s + 0] = payload.v[p + 0];
        recOut.v[s + 1] = payload.v[p + 1];
        recOut.v[s + 2] = payload.v[p + 2];
        recOut.v[s + 3] = payload.v[p + 3];
        recOut.v[s + 4] = item;
    } else {
        recOut.v[slot] = HAS_PAYLOAD ? payload.v[local] : item;
    }
}
