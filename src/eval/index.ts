/**
 * Public entry of the evaluation layer: labelled datasets (FEBRL, fake-1000), pairwise and
 * cluster metrics, and evaluation runs of the engine on them. Adapters (src/cli) import from here.
 */
export * from './datasets.js';
export * from './evaluate.js';
export * from './metrics.js';
