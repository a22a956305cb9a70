/* The latency of memory read at random: a pointer chase over a buffer of a given size.
 *
 * The buffer is cut into 64-byte lines, linked in one random cycle (Sattolo's shuffle), and
 * the chase follows the links: each load's address comes from the one before, so nothing
 * overlaps and the time a step is the time one read at random takes at that working-set
 * size (the caches, the TLB).  benchmarks/search_overhead.py (`budget`) compares it with
 * what a tree level of ISMCTS may cost.
 */
#include <stdint.h>
#include <stdlib.h>

#define LINE 64

static uint64_t next_u64(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Follow `steps` links through a random cycle over `bytes` of memory; return the line
 * reached (so that the chase is not optimized away), or -1 if the memory cannot be had. */
long long chase(long long bytes, long long steps, uint64_t seed)
{
    long long lines = bytes / LINE, i, j, k;
    long long *order;
    char *buf;
    if (lines < 2)
        return -1;
    buf = malloc((size_t)(lines * LINE));
    order = malloc(sizeof(long long) * (size_t)lines);
    if (buf == NULL || order == NULL) {
        free(buf);
        free(order);
        return -1;
    }
    for (i = 0; i < lines; i++)
        order[i] = i;
    for (i = lines - 1; i > 0; i--) {       /* Sattolo: one cycle through every line */
        j = (long long)(next_u64(&seed) % (uint64_t)i);
        k = order[i];
        order[i] = order[j];
        order[j] = k;
    }
    for (i = 0; i < lines; i++)
        *(long long *)(buf + order[i] * LINE) = order[(i + 1) % lines] * LINE;
    free(order);
    k = 0;
    for (i = 0; i < steps; i++)
        k = *(volatile long long *)(buf + k);
    free(buf);
    return k / LINE;
}
