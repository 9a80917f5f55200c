// Wire-format specifics of the pixel request transform: where the latest live user message's
// text blocks and tool results sit in each format, and how image/text parts are spelled.
// Blocks point into a json::Value the caller owns and keeps unchanged until apply_blocks().
#ifndef CAVEMAN_PIXEL_TRANSFORM_BLOCKS_H_
#define CAVEMAN_PIXEL_TRANSFORM_BLOCKS_H_

#include <string>
#include <vector>

#include "caveman/pixel.h"
#include "json/json.h"

namespace caveman::pixel {

enum class BlockKind { kText, kReminder, kToolResult };

// How a block's replacement parts go back into the document.
enum class Placement {
  kSplice,         // container is an array; items[index] is replaced by the new parts
  kAssign,         // *container becomes an array of the new parts
  kAssignAsUser,   // *container (a Responses `input` string) becomes [{role:user, content:[parts]}]
};

struct Block {
  BlockKind kind = BlockKind::kText;
  std::string text;
  json::Value* container = nullptr;
  std::size_t index = 0;
  Placement placement = Placement::kSplice;
  // Filled by the transform: the parts that replace the block (empty → keep it).
  std::vector<json::Value> replacement;
};

struct Extraction {
  std::vector<Block> blocks;          // in document order
  std::vector<std::string> skipped;   // PassthroughReasons for parts that cannot be rendered
  std::string reason;                 // non-empty: nothing to do (no_messages, no_user_message)
  int message_count = 0;              // messages/items/contents in the request
  int user_index = -1;                // position of the latest user message
};

// Finds the blocks of the latest live user message (and, for Responses, the latest
// function_call_output).
Extraction extract_blocks(json::Value& doc, WireFormat format);

json::Value image_part(WireFormat format, const std::string& png);
json::Value text_part(WireFormat format, std::string text);

// Writes every block's replacement (blocks with an empty replacement stay as they are).
void apply_blocks(std::vector<Block>& blocks);


}  // namespace caveman::pixel

#endif  // CAVEMAN_PIXEL_TRANSFORM_BLOCKS_H_
