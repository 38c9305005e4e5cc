import { describe, expect, it } from 'vitest';
import { DEFAULT_HEAP_MB, HeapCapError, heapCapMb } from './analysis-host.js';

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
