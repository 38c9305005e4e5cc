/** Version of the analyzer package, recorded in inventory.json. */
export const ANALYZER_VERSION = '0.1.0';
