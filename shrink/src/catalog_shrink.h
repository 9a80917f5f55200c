// Catalog shrinking end to end: the engine's shrinker (caveman/toolschema.h, the same one its
// `toolschema` compressor runs), then tokens, and the original committed to the recovery store
// before the smaller catalog is published.
//
// Fail open: invalid JSON, a document without named tools, a profile loss, an output that is
// not strictly fewer o200k tokens, or no usable store → the exact input bytes come back
// with ratio 0 and no handle (and a warning saying why). Deterministic: same input, same
// bytes. Functions are thread-safe when the store is.
#ifndef CAVEMAN_SHRINK_CATALOG_SHRINK_H_
#define CAVEMAN_SHRINK_CATALOG_SHRINK_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "caveman/ccr.h"
#include "caveman/tokens.h"
#include "caveman/toolschema.h"

namespace caveman::shrink {

struct CatalogReport {
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
  double ratio = 0;
  std::string recovery_handle;  // empty on pass-through
  std::string shape;            // CatalogShrink::shape; "none" when not a catalog
  std::string dialect;
  std::size_t tools = 0;
  std::string note;  // set on pass-through: "passed through: <reason>"

  // {"tokens_before":N,"tokens_after":N,"ratio":R,"basis":"inferred",
  //  "content_type":"toolschema","shape":…,"dialect":…,"tools":N,
  //  "recovery_handle":"ccr_…" | "note":"passed through: …"} — compact, no newline.
  std::string to_json() const;
};

struct CatalogRun {
  std::string output;  // what goes to stdout: the shrunk catalog or the exact input
  CatalogReport report;
  std::string warning;  // one line for stderr when the input passed through for a bad reason
};

// `store` may be null (then `store_error` explains why and the input passes through).
CatalogRun run_catalog_shrink(std::string_view input, ccr::Store* store,
                              std::string_view store_error, const tokens::Counter& counter);

}  // namespace caveman::shrink

#endif  // CAVEMAN_SHRINK_CATALOG_SHRINK_H_
