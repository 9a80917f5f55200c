// RFC 822-style records (docs/spec/detect.md#records): apt-cache show, the dpkg status
// database, Debian control files, apt's history.log, mail and HTTP headers. A record is a
// stanza of fields `Name: value` — a name of printable ASCII without blanks or ':' that does
// not open with '#' or '-' — whose value may go on in continuation lines that start with a blank;
// stanzas are separated by blank lines. Shared by Detect.
#ifndef CAVEMAN_COMPRESS_RECORDS_STANZAS_H_
#define CAVEMAN_COMPRESS_RECORDS_STANZAS_H_

#include <string_view>

namespace caveman::compress {

// Every non-blank line is a field or a continuation (the text may open inside a field, as a
// read of part of a file does), and either two stanzas share a field name (a YAML mapping
// never repeats a key) or there are at least three fields, all named in RFC 822's
// style, opening with a capital (`Package`, `Installed-Size`, `Description-md5`).
bool is_records(std::string_view text);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_RECORDS_STANZAS_H_
