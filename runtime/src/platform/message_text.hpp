// Untrusted text (from a manifest, a file name, a plugin) made safe to put into a message: bounded
// in length and free of control characters, so one hostile value cannot make a record or a log
// line megabytes long or forge lines of its own. In platform/, the lowest folder, because loading
// and discovery both quote such text.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace backplane::platform {

// The longest untrusted value a message shows, in bytes; longer ones are cut.
inline constexpr std::size_t kMaxQuotedBytes = 80;

// `text` with control characters written as \n, \t, \xNN, cut after `max` bytes (at a UTF-8
// character boundary) with "…" and the full length appended: `abc… (200000 bytes)`.
// Thread-safe; never throws except std::bad_alloc.
std::string Bounded(std::string_view text, std::size_t max = kMaxQuotedBytes);

// Bounded(text, max) in double quotes: `"abc"`, `"abc…" (200000 bytes)`.
std::string Quoted(std::string_view text, std::size_t max = kMaxQuotedBytes);

}  // namespace backplane::platform
