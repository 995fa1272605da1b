#ifndef SIEVE_SHARED_DISPATCH_H
#define SIEVE_SHARED_DISPATCH_H
// Linear workgroup index for dispatches folded into 2-D when they exceed maxComputeWorkGroupCount[0]
// (see ComputePipeline::dispatchLinear). Groups past the requested count must return early.
#ifndef __cplusplus
uint sieve_group_index() {
    return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}
#endif
#endif
