#pragma once
// Everything the plugin offers, in one include. Hosts that want a smaller compile include the single
// headers instead. tests/e2e/test_consumer_package.sh checks that every installed header is listed here.
#include "sieve/cull_flags.h"
#include "sieve/geometry_pass.h"
#include "sieve/gpu.h"
#include "sieve/graphics_pipeline.h"
#include "sieve/hiz.h"
#include "sieve/pipeline.h"
#include "sieve/plugin.h"
#include "sieve/prim/bound.h"
#include "sieve/prim/compact.h"
#include "sieve/prim/config.h"
#include "sieve/prim/reduce.h"
#include "sieve/prim/reference.h"
#include "sieve/prim/scan.h"
#include "sieve/result.h"
#include "sieve/spirv.h"
