import { describe, expect, it } from 'vitest';
import { analysisEnv, DEFAULT_HEAP_MB, HeapCapError, heapCapMb } from './analysis-host.js';

describe('heapCapMb', () => {
  it('defaults to DEFAULT_HEAP_MB when nothing is set', () => {
    expect(heapCapMb({}, [])).toBe(DEFAULT_HEAP_MB);
  });
  it('honours node --max-old-space-size from the arguments or NODE_OPTIONS', () => {
    expect(heapCapMb({}, ['--max-old-space-size=512'])).toBe(512);
    expect(heapCapMb({ NODE_OPTIONS: '--enable-source-maps --max_old_space_size=300' }, [])).toBe(300);
  });
  it('prefers AITRAIL_MAX_HEAP_MB and refuses a value that is not a size', () => {
    expect(heapCapMb({ AITRAIL_MAX_HEAP_MB: '1024' }, ['--max-old-space-size=512'])).toBe(1024);
    expect(() => heapCapMb({ AITRAIL_MAX_HEAP_MB: '1g' }, [])).toThrow(HeapCapError);
    expect(() => heapCapMb({ AITRAIL_MAX_HEAP_MB: '10' }, [])).toThrow('at least 16');
  });
});

describe('analysisEnv', () => {
  it("sets glibc's malloc for the analysis and drops a heap size from NODE_OPTIONS, keeping the rest", () => {
    const env = analysisEnv({ PATH: '/bin', NODE_OPTIONS: '--enable-source-maps --max-old-space-size=900' });
    expect(env).toEqual({ PATH: '/bin', NODE_OPTIONS: '--enable-source-maps', MALLOC_MMAP_THRESHOLD_: '2097152', MALLOC_TRIM_THRESHOLD_: '8388608', MALLOC_ARENA_MAX: '2' });
  });
  it("leaves each of the user's own malloc settings alone, by variable or tunable", () => {
    const own = analysisEnv({ MALLOC_MMAP_THRESHOLD_: '65536' });
    expect([own.MALLOC_MMAP_THRESHOLD_, own.MALLOC_TRIM_THRESHOLD_, own.MALLOC_ARENA_MAX]).toEqual(['65536', '8388608', '2']);
    const tuned = analysisEnv({ GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=1048576:glibc.malloc.arena_max=4' });
    expect([tuned.MALLOC_MMAP_THRESHOLD_, tuned.MALLOC_TRIM_THRESHOLD_, tuned.MALLOC_ARENA_MAX]).toEqual([undefined, '8388608', undefined]);
    expect(tuned.GLIBC_TUNABLES).toBe('glibc.malloc.mmap_threshold=1048576:glibc.malloc.arena_max=4');
  });
});
