/* fatbin.h - reader of the fatbinary containers nvcc embeds in a CUDA program.
 *
 * Layout (measured with CUDA 13's nvcc; docs/CUDART.md): a container is a 16-byte header
 * {u32 magic 0xBA55ED50, u16 version, u16 header size, u64 size of the entries} followed
 * by entries, each an entry header (its size at +4) and a payload. Entry header fields:
 *   +0 u16 kind (1 PTX, 2 ELF/SASS)   +4 u32 header size   +8 u64 payload size
 *   +16 u32 compressed size          +24 u16 PTX ISA minor +26 u16 PTX ISA major
 *   +28 u32 architecture (75 = compute_75 / sm_75)          +40 u64 flags
 *   +56 u64 uncompressed size
 * Flags: 0x8000 zstd-compressed payload (CUDA 13's default for PTX), 0x2000 an LZ4 raw
 * block of the compressed size (CUDA 12's default; CUDA 13's nvcc --compress-mode=speed).
 * Nothing here is trusted: every size is checked against
 * the bytes available, so a corrupt or truncated image yields a message, never a crash.
 * No state: pure functions over a byte range.
 */
#ifndef WS_CUDART_FATBIN_H
#define WS_CUDART_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define WS_FATBIN_MAGIC 0xBA55ED50u
#define WS_FATBIN_WRAPPER_MAGIC 0x466243B1u
#define WS_FATBIN_KIND_PTX 1
#define WS_FATBIN_KIND_ELF 2
#define WS_FATBIN_FLAG_LZ4 0x2000u
#define WS_FATBIN_FLAG_ZSTD 0x8000u

/* Newest virtual architecture whose PTX warpsim accepts: the highest PTX entry at or
 * below it is chosen (compute_120 covers every target of CUDA 13's nvcc but sm_121). */
#define WS_FATBIN_MAX_ARCH 120u

typedef struct {
    uint16_t kind;             /* WS_FATBIN_KIND_*                                  */
    uint16_t ptx_major, ptx_minor;
    uint32_t arch;             /* 75 = compute_75 (PTX) or sm_75 (ELF)               */
    uint64_t flags;
    const uint8_t *payload;    /* inside the image                                  */
    uint64_t payload_size;     /* bytes at payload (padded)                         */
    uint64_t compressed_size;  /* 0 when the payload is stored uncompressed           */
    uint64_t uncompressed_size;
} ws_fatbin_entry;

/* Total bytes of the container at data (header + entries), or 0 with a message when
 * data does not start with a container header. Reads only the 16-byte header. */
size_t ws_fatbin_container_size(const void *data, char *err, size_t n);

/* Lists the entries of every container in [data, data + len) (containers follow each
 * other 8-byte aligned). Fills up to max entries, sets *count to the number found.
 * Returns 0, or -1 with a message for a corrupt or truncated image. */
int ws_fatbin_entries(const void *data, size_t len, ws_fatbin_entry *out, size_t max,
                      size_t *count, char *err, size_t n);

/* The PTX text of the entry with the highest architecture <= max_arch, decompressed
 * and NUL-terminated (caller frees); *arch gets its architecture. Returns NULL with a
 * message when the image is bad, holds no PTX (SASS only: the message says how to
 * rebuild), or its compression is unknown. */
char *ws_fatbin_ptx(const void *data, size_t len, uint32_t max_arch, size_t *ptx_len,
                    uint32_t *arch, char *err, size_t n);

#endif
