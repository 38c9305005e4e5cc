/**
 * The built-in catalog files carried inside a bundle (the one-file collector), which has no
 * catalog/ folder beside it: set once at start-up, before any catalog is loaded.
 */
export interface EmbeddedCatalogs {
  /** catalog/*.yaml: file name and text, in name order. */
  catalogs: { name: string; text: string }[];
  /** catalog/families/editors.yaml. */
  editors: string;
  /** The same catalogs parsed at build time (a catalog-cache.ts file's text), used when its key still matches. */
  parsed?: string;
}

let embedded: EmbeddedCatalogs | undefined;

/** Use these built-in catalog texts in place of the catalog/ folder. */
export function useEmbeddedCatalogs(e: EmbeddedCatalogs): void {
  embedded = e;
}

/** The embedded catalog texts, when a bundle set them. */
export function embeddedCatalogs(): EmbeddedCatalogs | undefined {
  return embedded;
}
