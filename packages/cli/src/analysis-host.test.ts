import { describe, expect, it } from 'vitest';
import { analysisEnv, DEFAULT_HEAP_MB, HeapCapError, heapCapMb, MMAP_THRESHOLD_BYTES } from './analysis-host.js';

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
  it("fixes glibc's mmap threshold and drops a heap size from NODE_OPTIONS, keeping the rest", () => {
    const env = analysisEnv({ PATH: '/bin', NODE_OPTIONS: '--enable-source-maps --max-old-space-size=900' });
    expect(env).toEqual({ PATH: '/bin', NODE_OPTIONS: '--enable-source-maps', MALLOC_MMAP_THRESHOLD_: String(MMAP_THRESHOLD_BYTES) });
  });
  it("leaves the user's own malloc setting alone", () => {
    expect(analysisEnv({ MALLOC_MMAP_THRESHOLD_: '65536' }).MALLOC_MMAP_THRESHOLD_).toBe('65536');
    const tuned = analysisEnv({ GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=1048576' });
    expect(tuned.MALLOC_MMAP_THRESHOLD_).toBeUndefined();
    expect(tuned.GLIBC_TUNABLES).toBe('glibc.malloc.mmap_threshold=1048576');
  });
});
