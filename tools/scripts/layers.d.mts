// Types of layers.mjs, for the specs and vitest.config.ts that import it.
export declare const LIBRARY_LAYERS: ReadonlyArray<{ name: string; libs: readonly string[] }>;
export declare const LAYER_OF: ReadonlyMap<string, number>;
export declare const OTHER_PROJECTS: Readonly<Record<string, { libs: 'all' | readonly string[] }>>;
export declare const TESTING_ENTRIES: Readonly<Record<string, string>>;
