// assets/ is being written; this translation unit keeps the library non-empty until then.
namespace sieve::assets {}
