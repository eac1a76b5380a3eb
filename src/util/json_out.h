/* json_out.h - fast formatted printing of a cJSON tree.
 *
 * json_print(item) returns (malloc) exactly the text cJSON_Print(item) of the cJSON
 * this project builds against (Debian's 1.7.15) gives: the same layout (tabs, ",\n" in
 * objects, ", " in arrays), string escapes and numbers ("%1.15g", or "%1.17g" when that
 * does not read back to the value; NaN and infinities as null). But integers below
 * 10^15 are written without printf, the read-back is strtod rather than sscanf, and
 * the text grows in one buffer. The run reports hold tens of thousands of counters per
 * launch (per-SM caches), which made cJSON_Print the largest cost of a short
 * simulation. tests/unit/test_json_out.c compares the two. NULL when out of memory.
 */
#ifndef WS_UTIL_JSON_OUT_H
#define WS_UTIL_JSON_OUT_H

#include <cjson/cJSON.h>

char *json_print(const cJSON *item);

#endif
