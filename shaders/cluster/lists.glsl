// The candidate space of a cluster phase (shared/cluster.h ClusterWork): slot d < liveA is record d of list
// A (the early draw list), slot liveA + d record d of list B (the late draw list, late phase only), for
// slots below slotCount. The shader declares `drawsA`, `drawsB` (DrawCommand[]).
DrawCommand listedDraw(uint slot, uint liveA) {
    // if/else rather than ?: (glslang cannot optimise a select between two buffer structs).
    DrawCommand d;
    if (slot < liveA) d = drawsA[slot];
    else d = drawsB[slot - liveA];
    return d;
}
