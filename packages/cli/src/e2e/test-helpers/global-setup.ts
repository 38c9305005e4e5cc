import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where end-to-end tests share CLI outputs for this run (shared-run.ts). */
    aitrailSharedRuns: string;
  }
}

/** One cache folder per `vitest run`, shared by every worker, removed at the end. */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'aitrail-shared-runs-'));
  project.provide('aitrailSharedRuns', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
