/** Version of the collector package, recorded in collection.json. */
export const COLLECTOR_VERSION = '0.1.0';
