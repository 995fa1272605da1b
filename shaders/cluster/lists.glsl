// The candidate space of a cluster phase (shared/cluster.h ClusterPush): slot d < drawCapacity is record d
// of list A (the early draw list), slot drawCapacity + d record d of list B (the late draw list, late
// phase only). The shader declares `drawsA`, `drawsB` (DrawCommand[]) and `pc` (ClusterPush).
uint candidateSlots() {
    return pc.phase == 0u ? pc.drawCapacity : 2u * pc.drawCapacity;
}

DrawCommand listedDraw(uint slot) {
    // if/else rather than ?: (glslang cannot optimise a select between two buffer structs).
    DrawCommand d;
    if (slot < pc.drawCapacity) d = drawsA[slot];
    else d = drawsB[slot - pc.drawCapacity];
    return d;
}
