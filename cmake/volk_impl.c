/* volk built with hidden visibility: its global function pointers share names with the loader's
   exported functions, so they must never be exported from a shared object or executable.
   The system headers come first so that their declarations keep default visibility. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>
#pragma GCC visibility push(hidden)
#include <volk.c>
#pragma GCC visibility pop
