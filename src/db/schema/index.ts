export * from "./cache-generations.ts";
export * from "./catalog.ts";
export * from "./commerce.ts";
export * from "./enums.ts";
export * from "./jobs.ts";
export * from "./platform.ts";
export * from "./row-counts.ts";
export * from "./store.ts";
