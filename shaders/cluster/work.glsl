// Indirect dispatches of the cluster passes (shared/cluster.h ClusterDispatch): `groups` workgroups folded
// into rows of at most pc.computeGroupsX (maxComputeWorkGroupCount[0]); shaders recover the linear index
// with sieve_group_index() and return from the groups past their count. The shader declares `pc`.
uint groupsFor(uint items, uint groupSize) {
    return items / groupSize + (items % groupSize != 0u ? 1u : 0u);
}

ClusterDispatch clusterDispatch(uint groups) {
    ClusterDispatch d;
    d.x = min(groups, pc.computeGroupsX);
    d.y = d.x == 0u ? 1u : groupsFor(groups, d.x);
    d.z = 1u;
    d.pad = 0u;
    return d;
}
