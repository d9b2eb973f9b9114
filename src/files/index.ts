/**
 * Public entry of the delimited-files layer (architecture.md: src/files): reading, sniffing,
 * transcoding and writing CSV, and fetching import sources. Adapters (src/cli) import from here.
 */
export * from './csv-reader.js';
export * from './csv-writer.js';
export * from './date-order.js';
export * from './delimited.js';
export * from './header-map.js';
export * from './import-source.js';
export * from './row-contact.js';
export * from './sniff.js';
export * from './transcode.js';
