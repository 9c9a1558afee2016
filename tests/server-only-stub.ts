// vitest stand-in for the "server-only" marker package (it throws outside React server bundles).
export {};
