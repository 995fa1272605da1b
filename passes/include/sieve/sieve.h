#pragma once
// The plugin's public surface, in one include: the plugin interface, the culling plugin, the cluster
// plugin and its mesh-shader draw pass, the default geometry pass, results, the device description and
// the view. Vulkan headers and the standard library
// only; tests/e2e/test_consumer_package.sh checks that the installed headers are exactly these.
// The layouts a host fills (scene tables) and reads (draw records and counts).
#include "shared/draw.h"
#include "shared/scene.h"
#include "sieve/cluster.h"
#include "sieve/cluster_mesh_pass.h"
#include "sieve/cull_tests.h"
#include "sieve/culling.h"
#include "sieve/depth_format.h"
#include "sieve/device.h"
#include "sieve/geometry_pass.h"
#include "sieve/plugin.h"
#include "sieve/result.h"
#include "sieve/view.h"
