import type { Catalog } from '../catalog.js';
import { kapeTargets } from './kape.js';
import { uacArtifacts } from './uac.js';
import { VELOCIRAPTOR_ARTIFACT, velociraptorArtifact } from './velociraptor.js';

/** The collectors the catalog exports to. */
export const EXPORT_FORMATS = ['velociraptor', 'kape', 'uac'] as const;
/** One of {@link EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The files an export writes: names relative to the output folder, and their text. */
export function exportCatalogs(format: ExportFormat, catalogs: Catalog[], toolVersion: string): { name: string; text: string }[] {
  if (format === 'velociraptor') return [{ name: `${VELOCIRAPTOR_ARTIFACT}.yaml`, text: velociraptorArtifact(catalogs, toolVersion) }];
  if (format === 'kape') return kapeTargets(catalogs, toolVersion).map((f) => ({ ...f, name: `Targets/Aitrail/${f.name}` }));
  return uacArtifacts(catalogs, toolVersion).map((f) => ({ ...f, name: `artifacts/files/aitrail/${f.name}` }));
}
