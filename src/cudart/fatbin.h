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

/* ---- registers per thread from the SASS entries ----
 * nvcc's default build (CUDA 13: sm_75 SASS + compute_75 PTX) also carries the machine code
 * ptxas made, and with it each kernel's registers per thread (EIATTR_REGCOUNT in the
 * cubin's .nv.info; fatbin.c says how it was established). warpsim simulates the PTX but
 * can take the register counts from there, as GPGPU-Sim takes them from `ptxas -v`. */

#define WS_FATBIN_MAX_REGS 255u   /* registers per thread no NVIDIA target exceeds */

typedef struct {
    char *name;      /* the function's (mangled) name, as in the PTX; owned          */
    uint32_t regs;   /* registers per thread, 1..WS_FATBIN_MAX_REGS                 */
} ws_fatbin_regs;

/* The register counts of one cubin (an ELF64 file for EM_CUDA) of len bytes: *list gets
 * *count (name, registers) pairs, in the cubin's order (free with ws_fatbin_regs_free).
 * Returns 0 (a cubin without counts gives 0 pairs), or -1 with a message for a file that
 * is not a cubin or is corrupt or truncated (nothing outside [elf, elf + len) is read). */
int ws_cubin_regs(const void *elf, size_t len, ws_fatbin_regs **list, size_t *count,
                  char *err, size_t n);

/* The register counts of the SASS entries of the lowest sm architecture in the image (every
 * entry of that architecture, decompressed where needed; nvcc writes two per architecture,
 * one without code). The lowest, because GPGPU-Sim's counts, which warpsim's built-in
 * workloads use, are sm_75's (`ptxas -v --gpu-name sm_75`, tools/ptxas_regs.py), and sm_75
 * is the lowest target CUDA 13 builds and its default. *arch gets the architecture (0, and
 * 0 pairs, when the image holds no SASS). Returns 0, or -1 with a message for a corrupt
 * image or cubin. */
int ws_fatbin_sass_regs(const void *data, size_t len, ws_fatbin_regs **list, size_t *count,
                        uint32_t *arch, char *err, size_t n);

void ws_fatbin_regs_free(ws_fatbin_regs *list, size_t count);

/* The NUL-terminated PTX text ptx (len bytes) followed by a comment naming sm_<sm> and one
 * `.pragma "warpsim.regs NAME N";` line per pair whose NAME is a function of the PTX
 * (a name after .entry or .func; others are skipped, so that a mismatch never fails the
 * load); *added gets the number of lines, *out_len the new length (caller frees). Returns
 * NULL, with nothing to add, when no name matches or the PTX already carries warpsim.regs
 * pragmas (they win), or, with a message, when out of memory. */
char *ws_fatbin_ptx_add_regs(const char *ptx, size_t len, const ws_fatbin_regs *list,
                             size_t count, uint32_t sm, size_t *out_len, size_t *added,
                             char *err, size_t n);

#endif
